import { parseToolResult, type Conversation, type TurnOutcome } from './conversation';

/** An argument taken from the most recent tool result: a dotted path, numeric segments index arrays ("0.id"). */
export interface FromLastToolResult {
	fromLastToolResult: string;
}

/** A literal JSON value, or `{fromLastToolResult: path}` (also inside nested objects and arrays). */
export type ScriptArgument = unknown | FromLastToolResult;

export interface ScriptedToolCall {
	/** The function name as offered in `tools` (n8n: the tool node's name, spaces replaced by `_`). */
	tool: string;
	arguments: Record<string, ScriptArgument>;
}

/** One model turn: tool calls (several = parallel calls in one assistant message) or the final answer. */
export type ScriptTurn = { toolCalls: ScriptedToolCall[] } | { answer: string };

/** The answer of every turn past the end of a script. */
export const ANSWER_AFTER_SCRIPT = 'Done.';

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFromLastToolResult(value: unknown): value is FromLastToolResult {
	return isRecord(value) && Object.keys(value).length === 1 && typeof value.fromLastToolResult === 'string';
}

/** Checks a script's shape; throws an Error naming the first bad turn. Returns a copy. */
export function validateScript(turns: readonly ScriptTurn[]): ScriptTurn[] {
	if (!Array.isArray(turns)) throw new Error('ModelSimulator script: expected an array of turns');
	return turns.map((turn: unknown, i) => {
		const where = `ModelSimulator script turn ${i}`;
		if (!isRecord(turn)) throw new Error(`${where}: expected {toolCalls} or {answer}`);
		const hasCalls = 'toolCalls' in turn;
		const hasAnswer = 'answer' in turn;
		if (hasCalls === hasAnswer) throw new Error(`${where}: expected exactly one of toolCalls or answer`);
		if (hasAnswer) {
			if (typeof turn.answer !== 'string') throw new Error(`${where}: answer must be a string`);
			return { answer: turn.answer };
		}
		const calls = turn.toolCalls;
		if (!Array.isArray(calls) || calls.length === 0) throw new Error(`${where}: toolCalls must be a non-empty array`);
		return {
			toolCalls: calls.map((call: unknown, j) => {
				if (!isRecord(call) || typeof call.tool !== 'string' || call.tool === '') throw new Error(`${where}, call ${j}: tool must be a non-empty string`);
				if (!isRecord(call.arguments)) throw new Error(`${where}, call ${j}: arguments must be an object`);
				return { tool: call.tool, arguments: structuredClone(call.arguments) };
			}),
		};
	});
}

type Resolved = { ok: true; value: unknown } | { ok: false; reason: string };

/** Reads a dotted path ('' is the whole value); numeric segments index arrays. */
export function resolvePath(root: unknown, path: string): Resolved {
	let current = root;
	const segments = path === '' ? [] : path.split('.');
	for (const [i, segment] of segments.entries()) {
		const at = i === 0 ? 'the result' : `"${segments.slice(0, i).join('.')}"`;
		if (Array.isArray(current)) {
			if (!/^\d+$/.test(segment)) return { ok: false, reason: `${at} is an array, "${segment}" is not an index` };
			if (Number(segment) >= current.length) return { ok: false, reason: `${at} has ${current.length} element(s), no index ${segment}` };
			current = current[Number(segment)];
		} else if (isRecord(current)) {
			if (!Object.prototype.hasOwnProperty.call(current, segment)) {
				return { ok: false, reason: `${at} has no field "${segment}" (fields: ${Object.keys(current).join(', ') || 'none'})` };
			}
			current = current[segment];
		} else {
			return { ok: false, reason: `${at} is ${current === null ? 'null' : `a ${typeof current}`}, it has no field "${segment}"` };
		}
	}
	return { ok: true, value: current };
}

/** Replaces every `{fromLastToolResult}` in an argument value; the first unresolvable one fails. */
function resolveArgument(value: unknown, lastResult: () => { value: unknown } | string): Resolved {
	if (isFromLastToolResult(value)) {
		const result = lastResult();
		if (typeof result === 'string') return { ok: false, reason: result };
		const resolved = resolvePath(result.value, value.fromLastToolResult);
		return resolved.ok ? resolved : { ok: false, reason: `path "${value.fromLastToolResult}": ${resolved.reason}` };
	}
	if (Array.isArray(value)) {
		const out: unknown[] = [];
		for (const element of value) {
			const resolved = resolveArgument(element, lastResult);
			if (!resolved.ok) return resolved;
			out.push(resolved.value);
		}
		return { ok: true, value: out };
	}
	if (isRecord(value)) {
		const out: Record<string, unknown> = {};
		for (const [key, element] of Object.entries(value)) {
			const resolved = resolveArgument(element, lastResult);
			if (!resolved.ok) return resolved;
			out[key] = resolved.value;
		}
		return { ok: true, value: out };
	}
	return { ok: true, value };
}

function preview(text: string): string {
	return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

/** The turn `conversation.turn` of a script: tool calls checked against the offered tools, or the answer. */
export function playScript(script: readonly ScriptTurn[], conversation: Conversation): TurnOutcome {
	const { turn } = conversation;
	const step = script[turn];
	if (!step) return { ok: true, decision: { kind: 'answer', content: ANSWER_AFTER_SCRIPT } };
	if ('answer' in step) {
		const all = conversation.toolResults.join('\n');
		const last = conversation.toolResults[conversation.toolResults.length - 1] ?? '';
		const content = step.answer.replace(/\{\{toolResults\}\}/g, () => all).replace(/\{\{lastToolResult\}\}/g, () => last);
		return { ok: true, decision: { kind: 'answer', content } };
	}
	const offered = conversation.tools.map((t) => t.name);
	const lastText = conversation.toolResults[conversation.toolResults.length - 1];
	let parsedLast: { value: unknown } | string | undefined;
	const lastResult = (): { value: unknown } | string => {
		if (parsedLast === undefined) {
			if (lastText === undefined) parsedLast = 'the conversation has no tool result yet';
			else parsedLast = parseToolResult(lastText) ?? `the last tool result is not JSON: ${preview(lastText)}`;
		}
		return parsedLast;
	};
	const calls: Array<{ name: string; arguments: Record<string, unknown> }> = [];
	for (const [index, call] of step.toolCalls.entries()) {
		if (!offered.includes(call.tool)) {
			return {
				ok: false,
				message: `Scripted turn ${turn} calls tool "${call.tool}", which the request does not offer; offered tools: ${offered.length ? offered.join(', ') : '(none)'}`,
			};
		}
		const resolved = resolveArgument(call.arguments, lastResult);
		if (!resolved.ok) {
			const shown = typeof parsedLast === 'object' && lastText !== undefined ? ` (last tool result: ${preview(lastText)})` : '';
			return {
				ok: false,
				message: `Scripted turn ${turn}, call ${index} (tool "${call.tool}"): cannot resolve fromLastToolResult: ${resolved.reason}${shown}`,
			};
		}
		calls.push({ name: call.tool, arguments: resolved.value as Record<string, unknown> });
	}
	return { ok: true, decision: { kind: 'toolCalls', calls } };
}
