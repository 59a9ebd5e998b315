/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- a benchmark child process in plain Node: it reads /proc, talks to its parent over IPC and calls the garbage collector */
// First: n8n-core reads its user folder when it loads.
import '../harness/setup';

import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { BinaryDataService } from 'n8n-core';
import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData } from 'n8n-workflow';
import { request } from 'undici';

import { readWithBase64Fields } from '../../x402/nodes/ScraperGateway/transport/base64Fields';
import { runNode } from '../harness';
import type { GatewaySimulator } from '../simulator/gateway';
import { createPayingClient } from '../simulator/gateway/client';

/**
 * One memory measurement, in its own process so nothing else it did is in its RSS. The parent serves the payload;
 * this process warms the code path up on a small payload, tells the parent, waits for the go (the parent then
 * switches to the large payload), resets the kernel's peak-RSS mark, runs the case once and reports the peak.
 */
export type MemoryCase =
	| { kind: 'screenshot-node'; binaryMode: 'memory' | 'filesystem'; credentials: Record<string, ICredentialDataDecryptedObject>; url: string; warmUrl: string }
	| { kind: 'page-screenshots-node'; binaryMode: 'memory' | 'filesystem'; credentials: Record<string, ICredentialDataDecryptedObject>; urls: string[]; warmUrls: string[] }
	| {
			kind: 'screenshot-download' | 'screenshot-text' | 'screenshot-reader';
			gateway: { url: string; network: string; tokenAddress: string };
			privateKey: `0x${string}`;
			url: string;
			warmUrl: string;
	  }
	| { kind: 'bulk-node'; credentials: Record<string, ICredentialDataDecryptedObject>; bulkId: string; warmBulkId: string }
	| { kind: 'bulk-download' | 'bulk-decode'; baseUrl: string; token: string; bulkId: string; warmBulkId: string };

export interface MemoryReport {
	stage: 'done';
	/** RSS when the case started (after GC), bytes. */
	baseRss: number;
	/** Heap used + external memory still held after the case and a full GC, minus the same at the start: what the output keeps. */
	retainedBytes: number;
	/** The kernel's peak RSS (VmHWM) during the case, bytes. */
	peakRss: number;
	/** Largest RSS seen by a 1 ms sampler (misses peaks inside synchronous work; VmHWM does not). */
	sampledPeakRss: number;
	/** Payload bytes the case got: the decoded image, or the downloaded body. */
	payloadBytes: number;
	items: number;
	ms: number;
}

function status(field: 'VmRSS' | 'VmHWM'): number {
	const match = readFileSync('/proc/self/status', 'utf8').match(new RegExp(`${field}:\\s+(\\d+) kB`));
	if (!match) throw new Error(`no ${field} in /proc/self/status`);
	return Number(match[1]) * 1024;
}

function collectGarbage(): void {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) throw new Error('run with --expose-gc');
	gc();
	gc();
}

const config = JSON.parse(process.env.BENCH_MEMORY ?? '{}') as MemoryCase;
let keep: unknown;

/**
 * A paid fetch with undici's `request`, as the node's transport sends it: the unpaid request learns the price,
 * the library signs, the paid request is sent; the answer's body is returned unread.
 */
async function paidRequest(pageUrl: string, privateKey: `0x${string}`, gateway: { url: string; network: string; tokenAddress: string }) {
	const url = `${gateway.url}/api/service/scraperAPI`;
	const headers = { 'content-type': 'application/json', accept: 'application/json' };
	const body = JSON.stringify({ url: pageUrl });
	const unpaid = await request(url, { method: 'POST', headers, body });
	await unpaid.body.dump();
	const header = unpaid.headers['payment-required'];
	if (unpaid.statusCode !== 402 || typeof header !== 'string') throw new Error(`gateway answered ${unpaid.statusCode} unpaid`);
	const client = createPayingClient({ network: gateway.network, tokenAddress: gateway.tokenAddress } as unknown as GatewaySimulator, { privateKey });
	const payload = await client.createPaymentPayload(decodePaymentRequiredHeader(header));
	const paid = await request(url, { method: 'POST', headers: { ...headers, 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payload) }, body });
	if (paid.statusCode !== 200) throw new Error(`gateway answered ${paid.statusCode} paid`);
	return paid;
}

function imageOf(text: string): Buffer {
	const envelope = JSON.parse(text) as { data: { screenshot: string } };
	return Buffer.from(envelope.data.screenshot, 'base64');
}

/** Scraper Platform Page > Fetch, one full-page screenshot per item, all items in one execution. */
async function pageScreenshots(c: Extract<MemoryCase, { kind: 'page-screenshots-node' }>, warm: boolean): Promise<{ keep: unknown; payloadBytes: number; items: number }> {
	const result = await runNode({
		nodeType: 'scraperPlatform',
		parameters: { resource: 'page', operation: 'fetch', url: '={{ $json.url }}', options: { html: false, screenshot: 'full' } },
		credentials: c.credentials,
		input: (warm ? c.warmUrls : c.urls).map((url) => ({ url })),
	});
	if (result.error) throw new Error(result.error.message);
	const bytes = result.items.map((item) => Number(item.binary?.screenshot?.bytes ?? 0));
	if (bytes.some((b) => b === 0)) throw new Error('an item has no screenshot binary');
	return { keep: result, payloadBytes: bytes.reduce((a, b) => a + b, 0), items: result.items.length };
}

/** Runs the case against `target` (the warm-up target or the measured one); returns what to keep alive and its size. */
async function runCase(warm: boolean): Promise<{ keep: unknown; payloadBytes: number; items: number }> {
	switch (config.kind) {
		case 'screenshot-node': {
			const result = await runNode({
				nodeType: 'scraperGateway',
				parameters: { resource: 'page', operation: 'fetch', url: warm ? config.warmUrl : config.url },
				credentials: config.credentials,
			});
			if (result.error) throw new Error(result.error.message);
			const binary = result.items[0]?.binary?.screenshot;
			if (!binary) throw new Error('no screenshot binary in the output');
			return { keep: result, payloadBytes: Number(binary.bytes ?? 0), items: result.items.length };
		}
		case 'page-screenshots-node':
			return await pageScreenshots(config, warm);
		case 'screenshot-download': {
			const response = await paidRequest(warm ? config.warmUrl : config.url, config.privateKey, config.gateway);
			const body = Buffer.from(await response.body.arrayBuffer());
			return { keep: body, payloadBytes: body.length, items: 1 };
		}
		case 'screenshot-text': {
			// What the node's transport and Page > Fetch did before the reader: body.text(), JSON.parse, base64 decode.
			const response = await paidRequest(warm ? config.warmUrl : config.url, config.privateKey, config.gateway);
			const image = imageOf(await response.body.text());
			return { keep: image, payloadBytes: image.length, items: 1 };
		}
		case 'screenshot-reader': {
			// The pack's reader alone: data.screenshot decoded while the answer streams in, the rest parsed.
			const response = await paidRequest(warm ? config.warmUrl : config.url, config.privateKey, config.gateway);
			const { text, decoded } = await readWithBase64Fields(response.body, [['data', 'screenshot']], Number(response.headers['content-length']));
			const image = decoded.get('data.screenshot');
			if (!image) throw new Error('the reader decoded no screenshot');
			return { keep: { image, envelope: JSON.parse(text) as unknown }, payloadBytes: image.length, items: 1 };
		}
		case 'bulk-node': {
			const result = await runNode({
				nodeType: 'scraperPlatform',
				parameters: { resource: 'bulk', operation: 'get', bulkId: warm ? config.warmBulkId : config.bulkId, bulkOutput: 'records' },
				credentials: config.credentials,
			});
			if (result.error) throw new Error(result.error.message);
			return { keep: result, payloadBytes: 0, items: result.items.length };
		}
		case 'bulk-download':
		case 'bulk-decode': {
			const response = await request(`${config.baseUrl}/api/v1/results/${warm ? config.warmBulkId : config.bulkId}`, {
				headers: { accept: 'application/json', 'x-api-token': config.token },
			});
			const body = Buffer.from(await response.body.arrayBuffer());
			if (config.kind === 'bulk-download') return { keep: body, payloadBytes: body.length, items: 1 };
			// The least a client must do to hand out one item per record: parse, and wrap each record.
			const envelope = JSON.parse(body.toString('utf8')) as { data: { id: string; data: { mergedData: IDataObject[] } } };
			const items: INodeExecutionData[] = envelope.data.data.mergedData.map((json, item) => ({ json, pairedItem: { item } }));
			return { keep: items, payloadBytes: body.length, items: items.length };
		}
	}
}

function waitForGo(): Promise<void> {
	return new Promise((resolve) => process.once('message', () => resolve()));
}

async function main(): Promise<void> {
	if ((config.kind === 'screenshot-node' || config.kind === 'page-screenshots-node') && config.binaryMode === 'filesystem') {
		// n8n 2.x keeps binary data on disk by default (N8N_DEFAULT_BINARY_DATA_MODE=filesystem); the harness alone keeps it in memory.
		// n8n-core's own copy of its DI container (a second copy would hold other instances).
		const { Container } = createRequire(require.resolve('n8n-core'))('@n8n/di') as { Container: { get<T>(type: abstract new (...args: never[]) => T): T } };
		await Container.get(BinaryDataService).init();
	}
	await runCase(true);
	process.send?.({ stage: 'warm' });
	await waitForGo();

	collectGarbage();
	await new Promise((resolve) => setTimeout(resolve, 20));
	collectGarbage();
	// Writing 5 to clear_refs resets the peak-RSS mark (VmHWM) to the current RSS.
	const held = () => {
		const usage = process.memoryUsage();
		return usage.heapUsed + usage.external;
	};
	const baseHeld = held();
	writeFileSync('/proc/self/clear_refs', '5');
	const baseRss = status('VmRSS');
	let sampledPeakRss = baseRss;
	const sampler = setInterval(() => {
		sampledPeakRss = Math.max(sampledPeakRss, process.memoryUsage.rss());
	}, 1);
	const start = performance.now();
	const outcome = await runCase(false);
	const ms = performance.now() - start;
	keep = outcome.keep;
	const peakRss = status('VmHWM');
	clearInterval(sampler);
	collectGarbage();
	const retainedBytes = held() - baseHeld;
	const report: MemoryReport = { stage: 'done', baseRss, retainedBytes, peakRss, sampledPeakRss, payloadBytes: outcome.payloadBytes, items: outcome.items, ms };
	process.send?.(report, () => process.exit(keep === undefined ? 1 : 0));
}

main().catch((error: unknown) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
