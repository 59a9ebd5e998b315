/** A request that got no HTTP answer, in words a user can act on. Never holds request details (they carry tokens). */
interface NetworkCause {
	/** e.g. "connection refused (ECONNREFUSED)"; the code is kept for a support request. */
	text: string;
	/** The request certainly never reached the server, so repeating it cannot start work twice. */
	neverSent: boolean;
	/** No (complete) answer came in time. */
	timedOut: boolean;
}

interface KnownCause {
	/** `{peer}` is the server's name as the user knows it. */
	words?: string;
	neverSent?: true;
	timedOut?: true;
}

/**
 * System and client error codes, for n8n's HTTP helper (which wraps them) and undici (the gateway's client).
 * One table, so a code reads the same whichever node met it.
 */
const CAUSES: Record<string, KnownCause> = {
	ECONNREFUSED: { words: 'connection refused', neverSent: true },
	ENOTFOUND: { words: 'host not found', neverSent: true },
	EAI_AGAIN: { words: 'host name lookup failed', neverSent: true },
	UND_ERR_CONNECT_TIMEOUT: { words: 'could not connect in time', neverSent: true },
	// A URL the client could not even parse: nothing left the machine. Its own message says what was wrong.
	ERR_INVALID_URL: { neverSent: true },
	ECONNRESET: { words: 'connection reset by {peer}' },
	EPIPE: { words: 'connection closed by {peer}' },
	UND_ERR_SOCKET: { words: 'connection closed by {peer}' },
	ETIMEDOUT: { words: 'the request timed out', timedOut: true },
	ECONNABORTED: { words: 'the request timed out', timedOut: true },
	UND_ERR_HEADERS_TIMEOUT: { words: 'the request timed out', timedOut: true },
	UND_ERR_BODY_TIMEOUT: { words: 'the request timed out', timedOut: true },
	ABORT_ERR: { words: 'the request timed out', timedOut: true },
};

interface ClientError {
	code?: unknown;
	name?: unknown;
	message?: unknown;
	cause?: { code?: unknown };
	httpCode?: unknown;
}

/** The error's system code, wherever the client put it. */
function codeOf(error: unknown): string | undefined {
	const err = (error ?? {}) as ClientError;
	// An abort signal (a deadline) rejects with a DOMException whose `code` is a number: go by its name.
	if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'ABORT_ERR';
	if (typeof err.code === 'string') return err.code;
	if (typeof err.cause?.code === 'string') return err.cause.code;
	// n8n's HTTP helper wraps the client error in a NodeApiError that keeps the system code in `httpCode`.
	if (typeof err.httpCode === 'string' && /^E[A-Z_]+$/.test(err.httpCode)) return err.httpCode;
	return undefined;
}

/** Why a request got no HTTP answer; `peer` names the server ("the server", "the gateway"). */
export function networkCause(error: unknown, peer = 'the server'): NetworkCause {
	const code = codeOf(error);
	const known = code === undefined ? undefined : CAUSES[code];
	const message = (error as ClientError | undefined)?.message;
	// Only the first line of a client's own message: wrapped errors can append request dumps.
	const fallback = (typeof message === 'string' && message !== '' ? message : 'network fault').split('\n')[0].slice(0, 200);
	const text = known?.words ? `${known.words.replace('{peer}', peer)} (${code})` : fallback;
	return { text, neverSent: known?.neverSent === true, timedOut: known?.timedOut === true };
}
