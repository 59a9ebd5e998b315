import type { SimReply } from '../core/http';

/**
 * The subset of the OpenAI Chat Completions wire format that langchain's ChatOpenAI (n8n's "OpenAI Chat Model"
 * node with "Use Responses API" off) sends and reads: request and answer shapes, OpenAI-shaped errors, token
 * estimates and the server-sent-events rendering of a streamed answer.
 */

/** The one model `GET /v1/models` lists. Any `model` in a request is accepted and echoed. */
export const SCRIPTED_MODEL_ID = 'scripted-model';

export interface ChatToolCall {
	id: string;
	type: 'function';
	function: { name: string; arguments: string };
}

/** A message as received; `content` is a string, null, or an array of parts (`{type:'text', text}` read). */
export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_calls?: ChatToolCall[];
	tool_call_id?: string;
	name?: string;
}

export interface ChatTool {
	type: 'function';
	function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

/** A well-formed `POST /v1/chat/completions` body, as received (other fields kept as they came). */
export interface ChatCompletionRequest {
	model?: string;
	messages: ChatMessage[];
	tools?: ChatTool[];
	tool_choice?: unknown;
	stream?: boolean;
	stream_options?: { include_usage?: boolean } | null;
	temperature?: number;
	[key: string]: unknown;
}

/** A tool the request offers the model: `offeredTools()` answers these. */
export interface OfferedTool {
	name: string;
	description: string;
	/** The function's JSON schema; `{}` when the request had none. */
	parameters: Record<string, unknown>;
}

export type FinishReason = 'tool_calls' | 'stop';

export interface AssistantMessage {
	role: 'assistant';
	content: string | null;
	tool_calls?: ChatToolCall[];
}

export interface Usage {
	prompt_tokens: number;
	completion_tokens: number;
	total_tokens: number;
}

export interface ChatCompletion {
	id: string;
	object: 'chat.completion';
	created: number;
	model: string;
	choices: Array<{ index: 0; message: AssistantMessage; finish_reason: FinishReason; logprobs: null }>;
	usage: Usage;
}

export interface ModelErrorBody {
	error: { message: string; type: string; param: string | null; code: string | null };
}

const MESSAGE_ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

/** OpenAI's error `type` for a status. */
function errorType(status: number): string {
	if (status === 401) return 'invalid_request_error';
	if (status === 429) return 'requests';
	if (status >= 500) return 'server_error';
	return 'invalid_request_error';
}

/** The section's error body for a status (also what injected `status` faults and unknown paths answer). */
export function modelErrorBody(status: number, message?: string, code: string | null = null, param: string | null = null): ModelErrorBody {
	const defaults: Record<number, string> = {
		400: 'Bad request',
		401: 'Incorrect API key provided.',
		404: 'Invalid URL: the simulated chat model serves POST /v1/chat/completions and GET /v1/models',
		429: 'Rate limit reached for requests',
		500: 'The server had an error while processing your request.',
		503: 'The engine is currently overloaded, please try again later',
	};
	return { error: { message: message ?? defaults[status] ?? `HTTP ${status}`, type: errorType(status), param, code } };
}

export function openAiError(status: number, message: string, code: string | null = null, param: string | null = null): SimReply {
	return { status, json: modelErrorBody(status, message, code, param) };
}

/** 401 for a missing or empty Bearer key, as OpenAI answers it. */
export function missingApiKey(): SimReply {
	return openAiError(
		401,
		"You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY). The simulated model accepts any non-empty key.",
		'invalid_api_key',
	);
}

/** The Bearer key of an `Authorization` header, or undefined when absent, another scheme, or empty. */
export function bearerKey(header: string | string[] | undefined): string | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	const match = /^Bearer\s+(\S.*)$/i.exec(value?.trim() ?? '');
	return match ? match[1].trim() : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type ValidatedRequest = { ok: true; value: ChatCompletionRequest } | { ok: false; message: string; param: string | null };

/** Checks the parts of a chat-completions body the simulator reads; the rest passes as is. */
export function validateChatRequest(body: unknown): ValidatedRequest {
	const fail = (message: string, param: string | null): ValidatedRequest => ({ ok: false, message, param });
	if (!isRecord(body)) return fail('The body must be a JSON object with a "messages" array.', null);
	const { messages, tools, stream } = body;
	if (!Array.isArray(messages)) return fail("'messages' is a required property and must be an array of messages.", 'messages');
	if (messages.length === 0) return fail("Invalid 'messages': empty array. Expected an array with minimum length 1.", 'messages');
	for (const [i, message] of messages.entries()) {
		if (!isRecord(message)) return fail(`Invalid 'messages[${i}]': expected an object.`, `messages[${i}]`);
		if (typeof message.role !== 'string' || !MESSAGE_ROLES.has(message.role)) {
			return fail(`Invalid 'messages[${i}].role': expected one of ${[...MESSAGE_ROLES].join(', ')}.`, `messages[${i}].role`);
		}
		if (message.tool_calls !== undefined && !Array.isArray(message.tool_calls)) {
			return fail(`Invalid 'messages[${i}].tool_calls': expected an array.`, `messages[${i}].tool_calls`);
		}
	}
	if (tools !== undefined) {
		if (!Array.isArray(tools)) return fail("Invalid 'tools': expected an array.", 'tools');
		for (const [i, tool] of tools.entries()) {
			if (!isRecord(tool) || !isRecord(tool.function) || typeof tool.function.name !== 'string' || tool.function.name === '') {
				return fail(`Invalid 'tools[${i}]': expected {type: 'function', function: {name, description, parameters}}.`, `tools[${i}].function.name`);
			}
		}
	}
	if (stream !== undefined && stream !== null && typeof stream !== 'boolean') return fail("Invalid 'stream': expected a boolean.", 'stream');
	return { ok: true, value: body as ChatCompletionRequest };
}

/** The text of a message's content: a string as is, the `text` of text parts joined, '' otherwise. */
export function messageText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) {
		return content
			.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
			.join('');
	}
	return '';
}

/** The tools a request offers, in order. */
export function offeredToolsOf(request: ChatCompletionRequest): OfferedTool[] {
	return (request.tools ?? []).map((tool) => ({
		name: tool.function.name,
		description: typeof tool.function.description === 'string' ? tool.function.description : '',
		parameters: isRecord(tool.function.parameters) ? tool.function.parameters : {},
	}));
}

/** Deterministic token estimate: one token per 4 characters, rounded up. */
export function estimateTokens(text: string): number {
	return Math.ceil(text.length / 4);
}

export function usageOf(request: ChatCompletionRequest, message: AssistantMessage): Usage {
	const prompt = estimateTokens(JSON.stringify(request.messages) + JSON.stringify(request.tools ?? []));
	const completion = estimateTokens((message.content ?? '') + JSON.stringify(message.tool_calls ?? []));
	return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** Pieces a streamed text is cut into (fixed size, so reassembly is exercised deterministically). */
export const STREAM_PIECE_CHARS = 20;

function pieces(text: string): string[] {
	const out: string[] = [];
	for (let i = 0; i < text.length; i += STREAM_PIECE_CHARS) out.push(text.slice(i, i + STREAM_PIECE_CHARS));
	return out;
}

/**
 * The answer as `text/event-stream`, as OpenAI streams it: a role delta, then the content (or each tool call: id,
 * type and name with empty arguments, then the arguments in pieces) in pieces of `STREAM_PIECE_CHARS`, a chunk with
 * the finish reason, a usage chunk (empty `choices`) when `includeUsage`, then `[DONE]`.
 */
export function streamEvents(completion: ChatCompletion, includeUsage: boolean): string {
	const { message, finish_reason } = completion.choices[0];
	const base = { id: completion.id, object: 'chat.completion.chunk', created: completion.created, model: completion.model };
	const usageField = includeUsage ? { usage: null } : {};
	const chunk = (delta: Record<string, unknown>, finishReason: FinishReason | null = null) => ({
		...base,
		choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
		...usageField,
	});
	const chunks: unknown[] = [chunk({ role: 'assistant', content: message.tool_calls ? null : '' })];
	if (message.content) for (const piece of pieces(message.content)) chunks.push(chunk({ content: piece }));
	for (const [index, call] of (message.tool_calls ?? []).entries()) {
		chunks.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
		for (const piece of pieces(call.function.arguments)) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
	}
	chunks.push(chunk({}, finish_reason));
	if (includeUsage) chunks.push({ ...base, choices: [], usage: completion.usage });
	return [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n'].join('');
}
