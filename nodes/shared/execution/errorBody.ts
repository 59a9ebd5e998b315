import type { JsonObject } from 'n8n-workflow';

/**
 * The one reader of the services' error bodies: their `message` and `error` in whatever shape they come (a text, a
 * list, an object of lists), and the issues they list; errors.ts turns what it reads into messages.
 */

/** One problem an error body lists: `{ field, message }` (or `rule`), or plain text. */
export interface BodyIssue {
	field?: string;
	message?: string;
}

/** What an error body says, read once for every API: its `message`, its `error`, and the issues it lists. */
export interface ErrorBody {
	message?: string;
	error?: string;
	issues: BodyIssue[];
}

/** How deep a message is read into lists and objects: enough for every shape known, never a runaway. */
const MESSAGE_DEPTH = 3;

/**
 * The service's words in any shape it gives them: a text; a list of texts (a 400 listing its reasons), joined; an
 * object with a `message` (`{ error: { message } }`, as some gateways nest it); an object of lists (`{url: ['must be a
 * URL']}`), each reason after its key. Nothing else is words.
 */
function textOf(value: unknown, depth = 0): string | undefined {
	if (typeof value === 'string') return value.trim() === '' ? undefined : value;
	if (depth >= MESSAGE_DEPTH || !value || typeof value !== 'object') return undefined;
	const joined = (parts: Array<string | undefined>) => (parts.some(Boolean) ? parts.filter(Boolean).join('; ') : undefined);
	if (Array.isArray(value)) return joined(value.map((entry) => textOf(entry, depth + 1)));
	const { message } = value as JsonObject;
	if (typeof message === 'string' && message !== '') return message;
	return joined(Object.entries(value).map(([key, said]) => {
		const text = textOf(said, depth + 1);
		return text === undefined ? undefined : `${key}: ${text}`;
	}));
}

/** Reads an error body of any known shape; anything else reads as an empty one. */
export function readErrorBody(body: unknown): ErrorBody {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return { issues: [] };
	const { message, error, issues, errors } = body as JsonObject;
	// Listed issues, or an object of them by field (`{errors: {url: ['is required']}}`).
	const byField = errors && typeof errors === 'object' && !Array.isArray(errors) ? Object.entries(errors as JsonObject).map(([field, said]) => ({ field, message: textOf(said) })) : [];
	const list = Array.isArray(issues) ? issues : Array.isArray(errors) ? errors : byField;
	return {
		message: textOf(message),
		error: textOf(error),
		issues: list.map((issue): BodyIssue => {
			if (!issue || typeof issue !== 'object') return { message: String(issue ?? '') };
			const { field, message: text, rule } = issue as JsonObject;
			const said = typeof text === 'string' ? text : typeof rule === 'string' ? rule : undefined;
			return { field: field === undefined || field === null ? undefined : String(field), message: said };
		}),
	};
}

/** `field: message` for each issue, as a 422 names them. */
export function fieldErrors(body: ErrorBody): string[] {
	return body.issues
		.map(({ field, message }) => (field ? `${field}: ${message ?? 'invalid'}` : (message ?? '')))
		.filter(Boolean);
}

/** The 403 whose message says the plan's tokens are spent (public facts), unlike the permission 403. */
const TOKEN_LIMIT = 'Token limit exceeded';

/** The service's words when they say the token limit is exceeded (in `message` or `error`), else undefined. */
export function tokenLimitText(body: ErrorBody): string | undefined {
	return [body.message, body.error].find((text) => text !== undefined && text.toLowerCase().includes(TOKEN_LIMIT.toLowerCase()));
}

/**
 * A text/plain body's words (e.g. a 403 "Token limit exceeded"), so they count as the service's message; a page of
 * markup (a gateway's HTML) or a long text says nothing the user could act on, and is left out.
 */
export function plainText(body: string): string | undefined {
	const text = body.trim();
	return text === '' || text.length > 300 || text.startsWith('<') ? undefined : text;
}
