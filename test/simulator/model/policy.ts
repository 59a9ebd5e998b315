import { attempt, firstStringParameter, parseToolResult, type Conversation, type TurnDecision } from './conversation';
import type { OfferedTool } from './protocol';

/**
 * The model's behaviour when no script is set (the interactive demo, example workflow 7 "research a question over
 * several pages"), by turn (assistant messages already in the request):
 *
 * - turn 0: call the search tool with its first string parameter = the last user message;
 * - turn 1: collect up to `MAX_PAGES` distinct http(s) URLs from the previous turn's tool results (string fields
 *   named url, link or href, anywhere in the JSON) and call the page tool once per URL (first string parameter =
 *   the URL), all in one assistant message;
 * - later (or when a step has no suitable tool, parameter, question or URL): the final answer, one line restating
 *   the question, then `- <url>: <first sentence>` per page fetched (from the page tool's results).
 *
 * The search tool: the first offered tool whose name mentions "search", else whose description does. The page
 * tool: likewise with "fetch" or "page", the search tool excluded.
 */

export const MAX_PAGES = 3;
/** Longest summary of a page in the final answer. */
export const SUMMARY_MAX_CHARS = 160;
const URL_FIELDS = new Set(['url', 'link', 'href']);

function pickTool(tools: OfferedTool[], pattern: RegExp, exclude?: OfferedTool): OfferedTool | undefined {
	const candidates = tools.filter((t) => t !== exclude);
	return candidates.find((t) => pattern.test(t.name)) ?? candidates.find((t) => pattern.test(t.description));
}

function toolsOf(conversation: Conversation): { search?: OfferedTool; page?: OfferedTool } {
	const search = pickTool(conversation.tools, /search/i);
	return { search, page: pickTool(conversation.tools, /fetch|page/i, search) };
}

/** Distinct http(s) URLs in string fields named url/link/href, depth first in document order. */
export function collectUrls(value: unknown, max: number, out: string[] = []): string[] {
	if (out.length >= max) return out;
	if (Array.isArray(value)) {
		for (const element of value) collectUrls(element, max, out);
	} else if (typeof value === 'object' && value !== null) {
		for (const [key, field] of Object.entries(value)) {
			if (out.length >= max) break;
			if (typeof field === 'string') {
				if (URL_FIELDS.has(key.toLowerCase()) && /^https?:\/\/\S+$/i.test(field) && !out.includes(field)) out.push(field);
			} else {
				collectUrls(field, max, out);
			}
		}
	}
	return out;
}

/** The first non-empty string field named `name`, depth first. */
function findString(value: unknown, name: string): string | undefined {
	if (Array.isArray(value)) {
		for (const element of value) {
			const found = findString(element, name);
			if (found !== undefined) return found;
		}
	} else if (typeof value === 'object' && value !== null) {
		for (const [key, field] of Object.entries(value)) {
			if (key === name && typeof field === 'string' && field.trim() !== '') return field;
			const found = findString(field, name);
			if (found !== undefined) return found;
		}
	}
	return undefined;
}

/** A page tool result's text: its `markdown` field, else `text`, else `content`; a non-JSON result as is. */
function pageText(result: string): string {
	const parsed = parseToolResult(result);
	if (!parsed) return result;
	for (const field of ['markdown', 'text', 'content']) {
		const found = findString(parsed.value, field);
		if (found !== undefined) return found;
	}
	return typeof parsed.value === 'string' ? parsed.value : '';
}

/**
 * The first sentence of a text (Markdown headings skipped, links and escapes made plain), at most
 * `SUMMARY_MAX_CHARS` characters (cut with "...").
 */
export function firstSentence(text: string): string {
	const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
	const line = lines.find((l) => !l.startsWith('#')) ?? lines[0]?.replace(/^#+\s*/, '') ?? '';
	const plain = line.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\\([\\`*_[\]])/g, '$1');
	const sentence = /^(.+?[.!?])(?=\s|$)/.exec(plain)?.[1] ?? plain;
	return sentence.length > SUMMARY_MAX_CHARS ? `${sentence.slice(0, SUMMARY_MAX_CHARS - 3).trimEnd()}...` : sentence;
}

/** The URL a page-tool call asked for: its first string parameter, else any http(s) string argument. */
function urlOfCall(args: string, page: OfferedTool): string {
	const parsed = attempt((): unknown => JSON.parse(args));
	const value = parsed.value;
	if (typeof value !== 'object' || value === null) return args;
	const record = value as Record<string, unknown>;
	const parameter = firstStringParameter(page);
	if (parameter !== undefined && typeof record[parameter] === 'string') return record[parameter];
	return Object.values(record).find((v): v is string => typeof v === 'string' && /^https?:\/\//i.test(v)) ?? args;
}

function finalAnswer(conversation: Conversation, page: OfferedTool | undefined): TurnDecision {
	const lines = [`Question: ${conversation.question}`];
	for (const call of page ? conversation.calls.filter((c) => c.name === page.name) : []) {
		const result = conversation.resultFor(call.id);
		const summary = result === undefined ? '(no result)' : firstSentence(pageText(result)) || '(no text)';
		lines.push(`- ${urlOfCall(call.arguments, page as OfferedTool)}: ${summary}`);
	}
	if (lines.length === 1) lines.push('No pages were fetched.');
	return { kind: 'answer', content: lines.join('\n') };
}

export function defaultPolicy(conversation: Conversation): TurnDecision {
	const { search, page } = toolsOf(conversation);
	if (conversation.turn === 0) {
		const parameter = search && firstStringParameter(search);
		if (search && parameter && conversation.question.trim() !== '') {
			return { kind: 'toolCalls', calls: [{ name: search.name, arguments: { [parameter]: conversation.question } }] };
		}
	} else if (conversation.turn === 1) {
		const parameter = page && firstStringParameter(page);
		const urls: string[] = [];
		for (const result of conversation.latestResults) {
			const parsed = parseToolResult(result);
			if (parsed) collectUrls(parsed.value, MAX_PAGES, urls);
		}
		if (page && parameter && urls.length > 0) {
			return { kind: 'toolCalls', calls: urls.map((url) => ({ name: page.name, arguments: { [parameter]: url } })) };
		}
	}
	return finalAnswer(conversation, page);
}
