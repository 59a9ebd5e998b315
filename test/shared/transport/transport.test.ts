/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- a forward proxy on loopback and the proxy variables n8n reads, in plain Node */
// The nodes send through n8n's own HTTP helper (httpRequestWithAuthentication), so what n8n applies to its own
// nodes' requests applies to ours: here, the proxy a self-hosted user configures with HTTP_PROXY.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { PLATFORM_DEMO_TOKEN } from '../../simulator/platform';
import { MARKETPLACE_DEMO_TOKEN, MarketplaceSimulator } from '../../simulator/marketplace';
import { runNode } from '../../harness';
import { ROUTES, usePlatform } from '../../platform/helpers';

const ctx = usePlatform();

interface Forwarded {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
}

/** A plain HTTP forward proxy: it receives absolute-URL requests and passes them on, logging each. */
async function startProxy(): Promise<{ url: string; seen: Forwarded[]; close: () => Promise<void> }> {
	const seen: Forwarded[] = [];
	const server = http.createServer((req, res) => {
		seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
		const target = new URL(req.url ?? '');
		const upstream = http.request(target, { method: req.method, headers: req.headers }, (answer) => {
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(res);
		});
		upstream.on('error', () => res.writeHead(502).end());
		req.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		seen,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

const PROXY_VARIABLES = ['HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy', 'npm_config_http_proxy', 'npm_config_proxy', 'npm_config_no_proxy'];

/** Runs `fn` with HTTP_PROXY set as a user sets it for n8n, then restores the environment. */
async function withProxy<T>(proxyUrl: string, fn: () => Promise<T>): Promise<T> {
	const saved = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]));
	for (const name of PROXY_VARIABLES) delete process.env[name];
	process.env.HTTP_PROXY = proxyUrl;
	try {
		return await fn();
	} finally {
		for (const name of PROXY_VARIABLES) {
			if (saved[name] === undefined) delete process.env[name];
			else process.env[name] = saved[name];
		}
	}
}

describe("requests go through n8n's HTTP helper", () => {
	it("honour n8n's proxy setting (HTTP_PROXY): the Platform request passes the proxy with its token", async () => {
		const proxy = await startProxy();
		try {
			const result = await withProxy(proxy.url, async () => await ctx.run({ resource: 'account', operation: 'get' }));
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toHaveProperty('tokenLimit');
			expect(proxy.seen).toHaveLength(1);
			expect(proxy.seen[0].method).toBe('GET');
			expect(proxy.seen[0].url).toBe(`${ctx.sim.url}/api/v1/subscription-accounts`);
			// The credential's authenticate, applied by n8n, and our own user agent.
			expect(proxy.seen[0].headers['x-api-token']).toBe(PLATFORM_DEMO_TOKEN);
			expect(proxy.seen[0].headers['user-agent']).toBe('n8n-nodes-scraper-service');
			expect(ctx.sim.server.log.count(ROUTES.account)).toBe(1);
		} finally {
			await proxy.close();
		}
	});

	it('the Marketplace request too, with its Bearer token', async () => {
		const proxy = await startProxy();
		const sim = new MarketplaceSimulator();
		await sim.listen();
		try {
			const result = await withProxy(proxy.url, async () =>
				await runNode({
					nodeType: 'scraperMarketplace',
					parameters: { resource: 'result', operation: 'getMany', returnAll: false, limit: 5 },
					credentials: { scraperMarketplaceApi: { apiToken: MARKETPLACE_DEMO_TOKEN, baseUrl: sim.url } },
				}),
			);
			expect(result.error).toBeUndefined();
			expect(proxy.seen.map((s) => new URL(s.url).pathname)).toEqual(['/api/results']);
			expect(proxy.seen[0].headers.authorization).toBe(`Bearer ${MARKETPLACE_DEMO_TOKEN}`);
		} finally {
			await sim.close();
			await proxy.close();
		}
	});

	it('without a proxy setting they go straight to the service', async () => {
		const proxy = await startProxy();
		try {
			const result = await ctx.run({ resource: 'account', operation: 'get' });
			expect(result.error).toBeUndefined();
			expect(proxy.seen).toHaveLength(0);
			expect(ctx.sim.server.log.count(ROUTES.account)).toBe(1);
		} finally {
			await proxy.close();
		}
	});
});
