import { SimClock } from '../core/clock';
import type { SimReply, SimRequest } from '../core/http';
import { SimSection, SimServer } from '../core/server';
import { readConversation, type TurnDecision, type TurnOutcome } from './conversation';
import { defaultPolicy } from './policy';
import {
	bearerKey,
	missingApiKey,
	modelErrorBody,
	openAiError,
	SCRIPTED_MODEL_ID,
	streamEvents,
	usageOf,
	validateChatRequest,
	type AssistantMessage,
	type ChatCompletion,
	type ChatCompletionRequest,
	type OfferedTool,
} from './protocol';
import { playScript, validateScript, type ScriptTurn } from './script';

export * from './protocol';
export { ANSWER_AFTER_SCRIPT, resolvePath, type FromLastToolResult, type ScriptArgument, type ScriptTurn, type ScriptedToolCall } from './script';
export { MAX_PAGES, SUMMARY_MAX_CHARS, collectUrls, defaultPolicy, firstSentence } from './policy';
export { readConversation, type Conversation, type PastToolCall, type TurnDecision, type TurnOutcome } from './conversation';

export interface ModelSimulatorOptions {
	/** Shared simulated clock (`created` timestamps, the request log); a new one when omitted. */
	clock?: SimClock;
	/** Turns to play (see `setScript`); the default policy when omitted. */
	script?: ScriptTurn[];
	/** Seed of fault injection randomness. */
	seed?: number | string;
}

/** Route names (`METHOD /pattern`) as the request log and fault injection refer to them. */
export const MODEL_ROUTES = {
	chatCompletions: 'POST /v1/chat/completions',
	/** The same, for a base URL entered without `/v1`. */
	chatCompletionsUnversioned: 'POST /chat/completions',
	models: 'GET /v1/models',
	modelsUnversioned: 'GET /models',
	model: 'GET /v1/models/:model',
	modelUnversioned: 'GET /models/:model',
	/** Always 404: the node must have "Use Responses API" off. */
	responses: 'POST /v1/responses',
	responsesUnversioned: 'POST /responses',
} as const;

export const RESPONSES_API_MESSAGE =
	'The simulated chat model does not implement the Responses API (POST /v1/responses). In the "OpenAI Chat Model" node, turn off the option "Use Responses API" so it calls POST /v1/chat/completions.';

/**
 * A scripted, OpenAI-compatible chat model (Chat Completions) on its own loopback port, so n8n's AI Agent with its
 * "OpenAI Chat Model" node (credential Base URL = `baseUrl`) can drive the nodes as tools with no outside model.
 * Deterministic and stateless per conversation: the turn is the number of assistant messages in the request; the
 * answer is the script's turn (`setScript`) or, without a script, the default research policy (`policy.ts`).
 */
export class ModelSimulator extends SimSection {
	readonly server: SimServer;
	readonly clock: SimClock;
	private script?: ScriptTurn[];
	/** Bodies of the well-formed, authenticated chat-completions requests, in order. */
	private readonly received: ChatCompletionRequest[] = [];
	private completions = 0;

	constructor(options: ModelSimulatorOptions = {}) {
		super();
		this.clock = options.clock ?? new SimClock();
		this.server = new SimServer({
			name: 'model',
			clock: this.clock,
			errorBody: (status) => modelErrorBody(status),
			seed: options.seed ?? 'model',
		});
		if (options.script) this.setScript(options.script);
		this.registerRoutes();
	}

	/** `<url>/v1`: what the openAiApi credential's Base URL takes. */
	get baseUrl(): string {
		return `${this.server.url}/v1`;
	}

	/** Plays these turns from now on (turn i answers requests with i assistant messages); throws on a malformed script. */
	setScript(turns: ScriptTurn[]): void {
		this.script = validateScript(turns);
	}

	/** Back to the default policy. */
	clearScript(): void {
		this.script = undefined;
	}

	/** The script in force (a copy), or undefined under the default policy. */
	get currentScript(): ScriptTurn[] | undefined {
		return this.script && structuredClone(this.script);
	}

	/** Bodies of the well-formed, authenticated chat-completions requests, in arrival order (script 400s included). */
	get requests(): ChatCompletionRequest[] {
		return [...this.received];
	}

	lastRequest(): ChatCompletionRequest | undefined {
		return this.received[this.received.length - 1];
	}

	/** Content of every `role: 'tool'` message of the last request, in order (text parts joined). */
	toolMessages(): string[] {
		const request = this.lastRequest();
		return request ? readConversation(request).toolResults : [];
	}

	/** The tools the last request offered: name, description, parameters (JSON schema). */
	offeredTools(): OfferedTool[] {
		const request = this.lastRequest();
		return request ? readConversation(request).tools : [];
	}

	/** Forgets the request log, the recorded requests, faults and the script; ids restart at 1. */
	reset(): void {
		this.received.length = 0;
		this.completions = 0;
		this.script = undefined;
		this.server.log.clear();
		this.server.faults.clear();
	}

	/** The decision for one request: the script's turn, or the default policy's. */
	decide(request: ChatCompletionRequest): TurnOutcome {
		const conversation = readConversation(request);
		if (this.script) return playScript(this.script, conversation);
		return { ok: true, decision: defaultPolicy(conversation) };
	}

	private registerRoutes(): void {
		const s = this.server;
		const chat = (req: SimRequest) => this.chatCompletions(req);
		s.route('POST', '/v1/chat/completions', chat);
		s.route('POST', '/chat/completions', chat);
		const models = (req: SimRequest) => this.authed(req, () => ({ status: 200, json: { object: 'list', data: [this.modelObject()] } }));
		s.route('GET', '/v1/models', models);
		s.route('GET', '/models', models);
		const model = (req: SimRequest) =>
			this.authed(req, () =>
				req.params.model === SCRIPTED_MODEL_ID
					? { status: 200, json: this.modelObject() }
					: openAiError(404, `The model '${req.params.model}' does not exist; the simulator lists only '${SCRIPTED_MODEL_ID}' (any name is accepted in chat requests)`, 'model_not_found', 'model'),
			);
		s.route('GET', '/v1/models/:model', model);
		s.route('GET', '/models/:model', model);
		const responses = (req: SimRequest) => this.authed(req, () => openAiError(404, RESPONSES_API_MESSAGE, 'unknown_url'));
		s.route('POST', '/v1/responses', responses);
		s.route('POST', '/responses', responses);
	}

	private authed(req: SimRequest, handler: () => SimReply): SimReply {
		return bearerKey(req.headers.authorization) === undefined ? missingApiKey() : handler();
	}

	private modelObject() {
		return { id: SCRIPTED_MODEL_ID, object: 'model', created: 1_700_000_000, owned_by: 'simulator' };
	}

	private chatCompletions(req: SimRequest): SimReply {
		return this.authed(req, () => {
			if (req.bodyIsInvalidJson) {
				return openAiError(400, 'We could not parse the JSON body of your request. (HINT: This likely means you aren\'t using your HTTP library correctly.)');
			}
			const validated = validateChatRequest(req.body);
			if (!validated.ok) return openAiError(400, validated.message, null, validated.param);
			const request = validated.value;
			this.received.push(request);
			const outcome = this.decide(request);
			if (!outcome.ok) return openAiError(400, outcome.message, 'script_mismatch');
			const completion = this.completion(request, outcome.decision, readConversation(request).turn);
			if (request.stream === true) {
				return {
					status: 200,
					headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
					text: streamEvents(completion, request.stream_options?.include_usage === true),
				};
			}
			return { status: 200, json: completion };
		});
	}

	private completion(request: ChatCompletionRequest, decision: TurnDecision, turn: number): ChatCompletion {
		this.completions++;
		const message: AssistantMessage =
			decision.kind === 'answer'
				? { role: 'assistant', content: decision.content }
				: {
						role: 'assistant',
						content: null,
						tool_calls: decision.calls.map((call, index) => ({
							id: `call_${turn}_${index}`,
							type: 'function',
							function: { name: call.name, arguments: JSON.stringify(call.arguments) },
						})),
					};
		return {
			id: `chatcmpl-sim${String(this.completions).padStart(6, '0')}`,
			object: 'chat.completion',
			created: Math.floor(this.clock.now() / 1000),
			model: typeof request.model === 'string' && request.model !== '' ? request.model : SCRIPTED_MODEL_ID,
			choices: [{ index: 0, message, finish_reason: decision.kind === 'answer' ? 'stop' : 'tool_calls', logprobs: null }],
			usage: usageOf(request, message),
		};
	}
}
