// The network causes of nodes/shared/transport, checked alone.
import { networkCause } from '../../../nodes/shared/transport/network';

describe('networkCause: the one table of network causes', () => {
	it('names a known code in words and keeps the code', () => {
		expect(networkCause({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:1' })).toEqual({
			text: 'connection refused (ECONNREFUSED)',
			neverSent: true,
			timedOut: false,
		});
		expect(networkCause({ code: 'ECONNRESET' }, 'the gateway').text).toBe('connection reset by the gateway (ECONNRESET)');
		expect(networkCause({ code: 'UND_ERR_SOCKET' }).text).toBe('connection closed by the server (UND_ERR_SOCKET)');
	});

	it('finds the code wherever the client put it: cause, or the httpCode of n8n wrapping it', () => {
		expect(networkCause({ cause: { code: 'ENOTFOUND' } })).toMatchObject({ text: 'host not found (ENOTFOUND)', neverSent: true });
		expect(networkCause({ httpCode: 'EAI_AGAIN', message: 'x' })).toMatchObject({ text: 'host name lookup failed (EAI_AGAIN)', neverSent: true });
		// An HTTP status in httpCode is not a system code.
		expect(networkCause({ httpCode: '500', message: 'Internal' }).text).toBe('Internal');
	});

	it('timeouts and aborts are timed out, and may have reached the server', () => {
		for (const error of [{ code: 'ETIMEDOUT' }, { code: 'UND_ERR_HEADERS_TIMEOUT' }, { name: 'TimeoutError', code: 23 }]) {
			expect(networkCause(error)).toMatchObject({ neverSent: false, timedOut: true });
		}
	});

	it('an unknown failure reads as the first line of its message, or "network error"', () => {
		expect(networkCause(new Error('socket hang up\n  at request dump: x-api-token: secret'))).toEqual({ text: 'socket hang up', neverSent: false, timedOut: false });
		expect(networkCause({ code: 'EWEIRD' }).text).toBe('network fault');
		expect(networkCause(undefined).text).toBe('network fault');
	});
});
