import { messageText, offeredToolsOf, type ChatCompletionRequest, type OfferedTool } from './protocol';

/** The simulator's outcome for one turn: tool calls (one assistant message) or a final answer. */
export type TurnDecision =
	| { kind: 'toolCalls'; calls: Array<{ name: string; arguments: Record<string, unknown> }> }
	| { kind: 'answer'; content: string };

/** A decision, or why the turn cannot be answered (sent as a 400). */
export type TurnOutcome = { ok: true; decision: TurnDecision } | { ok: false; message: string };

/** A tool call an earlier assistant message of the conversation made. */
export interface PastToolCall {
	id: string;
	name: string;
	/** The arguments JSON string as sent back to the model. */
	arguments: string;
}

/** What a request tells the model, read once: everything scripts and the default policy decide on. */
export interface Conversation {
	/**
	 * Turns already in `messages`: 0 for the first call of a conversation. n8n's AI Agent replays the parallel tool
	 * calls of one turn as one assistant message per call, so assistant messages whose calls carry this simulator's
	 * ids (`call_<turn>_<index>`) count once per turn; any other assistant message counts as a turn of its own.
	 */
	turn: number;
	/** Text of the last `user` message ('' when none). */
	question: string;
	tools: OfferedTool[];
	/** Contents of every `tool` message, in order. */
	toolResults: string[];
	/** Contents of the `tool` messages after the last assistant message (the previous turn's results). */
	latestResults: string[];
	/** Tool calls of every assistant message, in order. */
	calls: PastToolCall[];
	/** Content of the `tool` message answering a call id. */
	resultFor(callId: string): string | undefined;
}

const OWN_CALL_ID = /^call_(\d+)_\d+$/;

export function readConversation(request: ChatCompletionRequest): Conversation {
	const turns = new Set<string>();
	let question = '';
	const toolResults: string[] = [];
	let latestResults: string[] = [];
	const calls: PastToolCall[] = [];
	const byCallId = new Map<string, string>();
	for (const [index, message] of request.messages.entries()) {
		if (message.role === 'assistant') {
			const own = OWN_CALL_ID.exec(String(message.tool_calls?.[0]?.id ?? ''));
			const key = own ? `turn ${own[1]}` : `message ${index}`;
			if (!turns.has(key)) latestResults = [];
			turns.add(key);
			for (const call of message.tool_calls ?? []) {
				calls.push({ id: String(call?.id ?? ''), name: String(call?.function?.name ?? ''), arguments: String(call?.function?.arguments ?? '') });
			}
		} else if (message.role === 'user') {
			question = messageText(message.content);
		} else if (message.role === 'tool') {
			const text = messageText(message.content);
			toolResults.push(text);
			latestResults.push(text);
			if (typeof message.tool_call_id === 'string') byCallId.set(message.tool_call_id, text);
		}
	}
	return {
		turn: turns.size,
		question,
		tools: offeredToolsOf(request),
		toolResults,
		latestResults,
		calls,
		resultFor: (callId) => byCallId.get(callId),
	};
}

/** Runs `call`, returning its value or what it threw (so no `throw` happens inside a `catch`). */
export function attempt<T>(call: () => T): { value?: T; error?: unknown } {
	try {
		return { value: call() };
	} catch (error) {
		return { error };
	}
}

/**
 * A tool result's text as JSON: parsed, and parsed once more when that gives a string holding JSON (a result
 * encoded twice). Undefined when the text is not JSON.
 */
export function parseToolResult(text: string): { value: unknown } | undefined {
	const first = attempt((): unknown => JSON.parse(text));
	if ('error' in first) return undefined;
	if (typeof first.value === 'string') {
		const second = attempt((): unknown => JSON.parse(first.value as string));
		if (!('error' in second) && typeof second.value === 'object' && second.value !== null) return { value: second.value };
	}
	return { value: first.value };
}

/** The name of the first `string` property of a tool's JSON schema, in declaration order. */
export function firstStringParameter(tool: OfferedTool): string | undefined {
	const properties = tool.parameters.properties;
	if (typeof properties !== 'object' || properties === null) return undefined;
	for (const [name, schema] of Object.entries(properties as Record<string, unknown>)) {
		const type = (schema as { type?: unknown } | null)?.type;
		if (type === 'string' || (Array.isArray(type) && type.includes('string'))) return name;
	}
	return undefined;
}
