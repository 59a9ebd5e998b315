import type { IDataObject } from 'n8n-workflow';

/**
 * What Page Changed remembers between polls, in the workflow's static data (saved by n8n as JSON with the workflow):
 * under a key of its own, so it never mixes with the Bulk Job Completed event's state in the same node.
 */

const STATE_KEY = 'pageChanged';

/**
 * The most of the page's text kept: past it a change is still found by the hash of the whole text, and the previous
 * text and the diff cover this first part.
 */
export const MAX_KEPT_CHARACTERS = 100_000;

export interface WatchState {
	version: 1;
	/** The page the text belongs to: another URL starts over. */
	url: string;
	/** FNV-1a 64 of the whole text (hashOf), hex. */
	hash: string;
	/** The text, at most MAX_KEPT_CHARACTERS. */
	text: string;
	/** Whether the text was longer than what is kept. */
	truncated: boolean;
	/** When the page was last checked (ISO). */
	checkedAt: string;
}

/**
 * FNV-1a 64 over the text's UTF-16 code units, as 16 hex digits: a change detector, not a secret, and n8n Cloud's
 * scanner allows no import for it. The 64-bit product by the FNV prime (2^40 + 0x1b3) is done in two 32-bit halves.
 */
export function hashOf(text: string): string {
	let hi = 0xcbf29ce4;
	let lo = 0x84222325;
	for (let i = 0; i < text.length; i++) {
		lo ^= text.charCodeAt(i);
		// lo * 0x1b3 < 2^41: exact in a double, so its high part is the carry into hi.
		const product = (lo >>> 0) * 0x1b3;
		hi = (Math.imul(hi, 0x1b3) + Math.floor(product / 0x100000000) + (lo << 8)) >>> 0;
		lo = product >>> 0;
	}
	return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

/** The first MAX_KEPT_CHARACTERS of a text, never half a character. */
export function keptPart(text: string): string {
	if (text.length <= MAX_KEPT_CHARACTERS) return text;
	const end = /[\uD800-\uDBFF]/.test(text[MAX_KEPT_CHARACTERS - 1]) ? MAX_KEPT_CHARACTERS - 1 : MAX_KEPT_CHARACTERS;
	return text.slice(0, end);
}

/** What was recorded for this URL; undefined before the first poll, for another URL or an incompatible shape. */
export function recordedFor(staticData: IDataObject, url: string): WatchState | undefined {
	const stored = staticData[STATE_KEY];
	if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return undefined;
	const state = stored as IDataObject;
	if (state.version !== 1 || state.url !== url) return undefined;
	if (typeof state.hash !== 'string' || typeof state.text !== 'string' || typeof state.checkedAt !== 'string') return undefined;
	return { version: 1, url, hash: state.hash, text: state.text, truncated: state.truncated === true, checkedAt: state.checkedAt };
}

/** The state of a page just checked. */
export function stateOf(url: string, text: string, checkedAt: string): WatchState {
	return { version: 1, url, hash: hashOf(text), text: keptPart(text), truncated: text.length > MAX_KEPT_CHARACTERS, checkedAt };
}

/** Written whole, and only after a fetch that succeeded. */
export function record(staticData: IDataObject, state: WatchState): void {
	staticData[STATE_KEY] = { ...state };
}
