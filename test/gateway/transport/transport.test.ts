import { postJson } from '../../../x402/nodes/ScraperGateway/transport/transport';
import { SimClock } from '../../simulator/core/clock';
import { SimServer } from '../../simulator/core/server';

describe('transport: the shared network causes, with the gateway deadline', () => {
	test('a slow gateway is the deadline; a reset may have reached it; a refused connection was never sent', async () => {
		const server = new SimServer({ name: 'gateway', clock: new SimClock(), errorBody: () => ({}) });
		const route = server.route('POST', '/pay', () => ({ status: 200, json: { ok: true } }));
		const url = `${await server.listen()}/pay`;
		try {
			server.faults.add({ kind: 'slow', routes: [route], delayMs: 5_000, times: 1 });
			expect(await postJson(url, {}, {}, 1_000)).toEqual({ ok: false, failure: { cause: 'no complete answer within the 1 s deadline', neverSent: false, timedOut: true } });
			server.faults.add({ kind: 'reset', routes: [route], times: 1 });
			const reset = await postJson(url, {}, {}, 5_000);
			expect(reset).toMatchObject({ ok: false, failure: { neverSent: false, timedOut: false } });
			expect((reset as { failure: { cause: string } }).failure.cause).toMatch(/^connection (reset|closed) by the gateway \((ECONNRESET|UND_ERR_SOCKET)\)$/);
			expect(await postJson(url, {}, {}, 5_000)).toMatchObject({ ok: true, answer: { status: 200, json: { ok: true } } });
		} finally {
			await server.close();
		}
		expect(await postJson(url, {}, {}, 1_000)).toEqual({ ok: false, failure: { cause: 'connection refused (ECONNREFUSED)', neverSent: true, timedOut: false } });
	});
});
