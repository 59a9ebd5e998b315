import { NodeConnectionTypes } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { request } from 'undici';
import type { Dispatcher } from 'undici';

import { loadPackage, PACKAGE_NAME, runNode } from '../../harness';
import type { RunResult } from '../../harness';
import type { LoggedRequest } from '../../simulator/core/log';
import { PLATFORM_DEMO_TOKEN } from '../../simulator/platform';
import type { PlatformSimulator } from '../../simulator/platform';

export function platformCredentials(sim: PlatformSimulator) {
	return { scraperPlatformApi: { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: sim.url } };
}

/** Runs the Scraper Platform node through the harness (n8n's WorkflowExecute); a failed run is a broken benchmark. */
export async function runPlatform(sim: PlatformSimulator, parameters: IDataObject, input?: IDataObject[]): Promise<RunResult> {
	const result = await runNode({
		nodeType: 'scraperPlatform',
		parameters: parameters as never,
		credentials: platformCredentials(sim),
		input,
	});
	if (result.error) throw new Error(`benchmark run failed: ${result.error.message}`);
	return result;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'keep-alive', 'transfer-encoding']);

/** The headers a logged request carried, minus those that belong to the connection: what a baseline resends. */
export function replayHeaders(entry: LoggedRequest): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(entry.headers)) {
		if (HOP_BY_HOP.has(name) || value === undefined) continue;
		headers[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return headers;
}

/** The path and query of a logged request, as a URL on `base`. */
export function urlOf(base: string, entry: LoggedRequest): string {
	const url = new URL(entry.path, base);
	for (const [key, value] of Object.entries(entry.query)) url.searchParams.set(key, value);
	return url.toString();
}

/** One GET with undici, body parsed as JSON: the bare client every platform baseline uses. */
export async function getJson(url: string, headers: Record<string, string>, options: { reset?: boolean; dispatcher?: Dispatcher } = {}): Promise<unknown> {
	const response = await request(url, { method: 'GET', headers, reset: options.reset, dispatcher: options.dispatcher });
	const body = await response.body.json();
	if (response.statusCode !== 200) throw new Error(`baseline request failed with ${response.statusCode}`);
	return body;
}

/**
 * Probe nodes that isolate where per-item time goes: n8n's engine with a bare undici request per item, and n8n's
 * engine with n8n's own HTTP helper (httpRequestWithAuthentication) per item. Neither uses the pack's shared code.
 * They are added to the harness's registry for the benchmark only.
 */
function probeDescription(name: string): INodeTypeDescription {
	return {
		displayName: name,
		name,
		group: ['transform'],
		version: 1,
		description: 'Benchmark probe',
		defaults: { name },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'scraperPlatformApi', required: true }],
		properties: [],
	};
}

/** Sends one Account > Get request with bare undici and returns its parsed body. */
type ProbeSend = (ctx: IExecuteFunctions, url: string, headers: Record<string, string>) => Promise<unknown>;

/** A probe node that sends Account > Get's request once per item, the way `send` does (n8n calls `execute` on a context, hence the closure). */
function undiciProbe(name: string, send: ProbeSend): INodeType {
	return {
		description: probeDescription(name),
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const credentials = await this.getCredentials('scraperPlatformApi');
			const url = `${String(credentials.baseUrl)}/api/v1/subscription-accounts`;
			const headers = { accept: 'application/json', 'x-api-token': String(credentials.apiToken), 'user-agent': 'n8n' };
			const out: INodeExecutionData[] = [];
			const count = this.getInputData().length;
			for (let i = 0; i < count; i++) {
				const body = (await send(this, url, headers)) as { data: IDataObject };
				out.push({ json: body.data, pairedItem: { item: i } });
			}
			return [out];
		},
	};
}

class HelperProbe implements INodeType {
	description = probeDescription('benchHelperProbe');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const credentials = await this.getCredentials('scraperPlatformApi');
		const url = `${String(credentials.baseUrl)}/api/v1/subscription-accounts`;
		const out: INodeExecutionData[] = [];
		const count = this.getInputData().length;
		for (let i = 0; i < count; i++) {
			const body = (await this.helpers.httpRequestWithAuthentication.call(this, 'scraperPlatformApi', {
				method: 'GET',
				url,
				json: true,
			})) as { data: IDataObject };
			out.push({ json: body.data, pairedItem: { item: i } });
		}
		return [out];
	}
}

export const PROBES = { undici: 'benchUndiciProbe', helper: 'benchHelperProbe' } as const;

export function registerProbes(): void {
	const { nodes } = loadPackage();
	nodes.set(`${PACKAGE_NAME}.${PROBES.undici}`, undiciProbe(PROBES.undici, async (_ctx, url, headers) => await getJson(url, headers)));
	nodes.set(`${PACKAGE_NAME}.${PROBES.helper}`, new HelperProbe());
}

export async function runProbe(sim: PlatformSimulator, probe: string, input: IDataObject[]): Promise<RunResult> {
	const result = await runNode({ nodeType: probe, parameters: {}, credentials: platformCredentials(sim), input });
	if (result.error) throw new Error(`probe run failed: ${result.error.message}`);
	return result;
}
