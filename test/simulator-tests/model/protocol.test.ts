import { ModelSimulator, RESPONSES_API_MESSAGE, STREAM_PIECE_CHARS, type ChatCompletion, type ScriptTurn } from '../../simulator/model';
import { served } from '../served';

const sim = served(new ModelSimulator());

const AUTH = { authorization: 'Bearer sk-anything' };

async function post(path: string, body: unknown, headers: Record<string, string> = AUTH): Promise<Response> {
	return fetch(`${sim.url}${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: typeof body === 'string' ? body : JSON.stringify(body),
	});
}

const SEARCH_TOOL = {
	type: 'function',
	function: {
		name: 'Web_Search',
		description: 'Search the web',
		parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
	},
};
const FETCH_TOOL = {
	type: 'function',
	function: { name: 'Fetch_Page', description: 'Fetch a page', parameters: { type: 'object', properties: { url: { type: 'string' } } } },
};

/** Parses an SSE body into its `data:` payloads (the JSON chunks, and '[DONE]' kept as a string). */
function sseEvents(text: string): unknown[] {
	return text
		.split('\n\n')
		.filter((block) => block.trim() !== '')
		.map((block) => {
			expect(block.startsWith('data: ')).toBe(true);
			const data = block.slice('data: '.length);
			return data === '[DONE]' ? data : (JSON.parse(data) as unknown);
		});
}

interface Chunk {
	id: string;
	object: string;
	model: string;
	choices: Array<{
		index: number;
		finish_reason: string | null;
		delta: {
			role?: string;
			content?: string | null;
			tool_calls?: Array<{ index: number; id?: string; type?: string; function: { name?: string; arguments: string } }>;
		};
	}>;
	usage?: unknown;
}

/** Reassembles a streamed answer as a client (langchain) does: content concatenated, tool calls by index. */
function reassemble(chunks: Chunk[]) {
	let role: string | undefined;
	let content: string | null = null;
	let finishReason: string | null = null;
	const calls: Array<{ id: string; type: string; function: { name: string; arguments: string } }> = [];
	for (const chunk of chunks) {
		for (const choice of chunk.choices) {
			if (choice.delta.role) role = choice.delta.role;
			if (typeof choice.delta.content === 'string' && choice.delta.content !== '') content = (content ?? '') + choice.delta.content;
			for (const call of choice.delta.tool_calls ?? []) {
				calls[call.index] ??= { id: '', type: '', function: { name: '', arguments: '' } };
				const target = calls[call.index];
				if (call.id) target.id = call.id;
				if (call.type) target.type = call.type;
				if (call.function.name) target.function.name = call.function.name;
				target.function.arguments += call.function.arguments;
			}
			if (choice.finish_reason) finishReason = choice.finish_reason;
		}
	}
	return { message: { role, content, ...(calls.length ? { tool_calls: calls } : {}) }, finishReason };
}

describe('authentication', () => {
	const expected401 = {
		error: {
			message:
				"You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY). The simulated model accepts any non-empty key.",
			type: 'invalid_request_error',
			param: null,
			code: 'invalid_api_key',
		},
	};

	it.each([
		['no Authorization header', {}],
		['an empty Bearer key', { authorization: 'Bearer ' }],
		['another scheme', { authorization: 'Basic c2stYW55dGhpbmc=' }],
	])('chat completions with %s answer 401 invalid_api_key', async (_label, headers: Record<string, string>) => {
		const response = await post('/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, headers);
		expect(response.status).toBe(401);
		expect(await response.json()).toEqual(expected401);
		expect(sim.requests).toEqual([]);
	});

	it('the models list needs the key too', async () => {
		const response = await fetch(`${sim.url}/v1/models`);
		expect(response.status).toBe(401);
		expect(await response.json()).toEqual(expected401);
	});
});

describe('models and other endpoints', () => {
	it.each(['/v1/models', '/models'])('GET %s lists scripted-model', async (path) => {
		const response = await fetch(`${sim.url}${path}`, { headers: AUTH });
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({
			object: 'list',
			data: [{ id: 'scripted-model', object: 'model', created: 1_700_000_000, owned_by: 'simulator' }],
		});
	});

	it('GET /v1/models/scripted-model answers the model, another name 404 model_not_found', async () => {
		const ok = await fetch(`${sim.url}/v1/models/scripted-model`, { headers: AUTH });
		expect(await ok.json()).toEqual({ id: 'scripted-model', object: 'model', created: 1_700_000_000, owned_by: 'simulator' });
		const missing = await fetch(`${sim.url}/v1/models/gpt-4o`, { headers: AUTH });
		expect(missing.status).toBe(404);
		const body = (await missing.json()) as { error: { code: string; param: string; message: string } };
		expect(body.error.code).toBe('model_not_found');
		expect(body.error.param).toBe('model');
		expect(body.error.message).toContain("'gpt-4o'");
	});

	it.each(['/v1/responses', '/responses'])('POST %s answers 404 telling to turn off "Use Responses API"', async (path) => {
		const response = await post(path, { model: 'scripted-model', input: 'hi' });
		expect(response.status).toBe(404);
		expect(await response.json()).toEqual({ error: { message: RESPONSES_API_MESSAGE, type: 'invalid_request_error', param: null, code: 'unknown_url' } });
		expect(RESPONSES_API_MESSAGE).toContain('turn off the option "Use Responses API"');
	});

	it('an unknown path answers an OpenAI-shaped 404', async () => {
		const response = await post('/v1/embeddings', { input: 'x' });
		expect(response.status).toBe(404);
		const body = (await response.json()) as { error: { type: string } };
		expect(body.error.type).toBe('invalid_request_error');
	});
});

describe('malformed bodies', () => {
	it.each([
		['no messages', { model: 'm' }, "'messages' is a required property and must be an array of messages.", 'messages'],
		['messages not an array', { model: 'm', messages: 'hi' }, "'messages' is a required property and must be an array of messages.", 'messages'],
		['empty messages', { model: 'm', messages: [] }, "Invalid 'messages': empty array. Expected an array with minimum length 1.", 'messages'],
		['an unknown role', { model: 'm', messages: [{ role: 'robot', content: 'x' }] }, "Invalid 'messages[0].role': expected one of system, developer, user, assistant, tool, function.", 'messages[0].role'],
		['a tool without a name', { model: 'm', messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function', function: {} }] }, "Invalid 'tools[0]': expected {type: 'function', function: {name, description, parameters}}.", 'tools[0].function.name'],
	])('%s answers 400 naming the field', async (_label, body, message, param) => {
		const response = await post('/v1/chat/completions', body);
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ error: { message, type: 'invalid_request_error', param, code: null } });
		expect(sim.requests).toEqual([]);
	});

	it('invalid JSON answers 400', async () => {
		const response = await post('/v1/chat/completions', '{"messages": [');
		expect(response.status).toBe(400);
		const body = (await response.json()) as { error: { message: string; type: string } };
		expect(body.error.type).toBe('invalid_request_error');
		expect(body.error.message).toMatch(/^We could not parse the JSON body of your request/);
	});
});

describe('chat completions', () => {
	const request = {
		model: 'gpt-4.1-mini',
		temperature: 0.7,
		messages: [
			{ role: 'system', content: 'You are a helpful assistant' },
			{ role: 'user', content: [{ type: 'text', text: 'find ' }, { type: 'text', text: 'boots' }] },
		],
		tools: [SEARCH_TOOL, FETCH_TOOL],
	};

	it('answers an OpenAI chat.completion (default policy: the search tool), echoing the model, with estimated usage', async () => {
		const response = await post('/v1/chat/completions', request);
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toMatch(/^application\/json/);
		const body = (await response.json()) as ChatCompletion;
		const prompt = Math.ceil((JSON.stringify(request.messages) + JSON.stringify(request.tools)).length / 4);
		const toolCalls = [{ id: 'call_0_0', type: 'function', function: { name: 'Web_Search', arguments: '{"query":"find boots"}' } }];
		const completion = Math.ceil(JSON.stringify(toolCalls).length / 4);
		expect(body).toEqual({
			id: 'chatcmpl-sim000001',
			object: 'chat.completion',
			created: expect.any(Number),
			model: 'gpt-4.1-mini',
			choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: toolCalls }, finish_reason: 'tool_calls', logprobs: null }],
			usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
		});
		expect(Math.abs(body.created - Date.now() / 1000)).toBeLessThan(60);
	});

	it('the path without /v1 answers the same, ids count up, and a request without model gets scripted-model', async () => {
		await post('/v1/chat/completions', request);
		const response = await post('/chat/completions', { messages: request.messages });
		const body = (await response.json()) as ChatCompletion;
		expect(body.id).toBe('chatcmpl-sim000002');
		expect(body.model).toBe('scripted-model');
		// No tools offered: the default policy answers at once.
		expect(body.choices[0]).toEqual({ index: 0, message: { role: 'assistant', content: 'Question: find boots\nNo pages were fetched.' }, finish_reason: 'stop', logprobs: null });
		expect(sim.server.log.counts()).toEqual({ 'POST /v1/chat/completions': 1, 'POST /chat/completions': 1 });
	});

	it('records the bodies, the headers, the tool messages and the offered tools of the last request', async () => {
		const conversation = {
			model: 'scripted-model',
			messages: [
				{ role: 'user', content: 'q' },
				{ role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'Web_Search', arguments: '{}' } }, { id: 'b', type: 'function', function: { name: 'Web_Search', arguments: '{}' } }] },
				{ role: 'tool', tool_call_id: 'a', content: '[{"first":1}]' },
				{ role: 'tool', tool_call_id: 'b', content: [{ type: 'text', text: 'second ' }, { type: 'text', text: 'part' }] },
			],
			tools: [SEARCH_TOOL],
		};
		await post('/v1/chat/completions', request, { ...AUTH, 'x-test': 'one' });
		await post('/v1/chat/completions', conversation);
		expect(sim.requests).toEqual([request, conversation]);
		expect(sim.toolMessages()).toEqual(['[{"first":1}]', 'second part']);
		expect(sim.offeredTools()).toEqual([
			{ name: 'Web_Search', description: 'Search the web', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
		]);
		const first = sim.server.log.entries[0];
		expect(first.headers['x-test']).toBe('one');
		expect(first.headers.authorization).toBe('Bearer sk-anything');
		expect(first.body).toEqual(request);
		expect(first.status).toBe(200);
	});

	it('reset() forgets requests, restarts ids and drops the script', async () => {
		sim.setScript([{ answer: 'scripted' }]);
		await post('/v1/chat/completions', request);
		sim.reset();
		expect(sim.requests).toEqual([]);
		expect(sim.server.log.entries).toEqual([]);
		expect(sim.currentScript).toBeUndefined();
		const body = (await (await post('/v1/chat/completions', request)).json()) as ChatCompletion;
		expect(body.id).toBe('chatcmpl-sim000001');
		expect(body.choices[0].finish_reason).toBe('tool_calls');
	});
});

describe('streaming', () => {
	const fetchArguments = { url: 'https://example.com/a-rather-long-path/for-several-pieces' };
	const script: ScriptTurn[] = [
		{
			toolCalls: [
				{ tool: 'Fetch_Page', arguments: fetchArguments },
				{ tool: 'Web_Search', arguments: { query: 'second call' } },
			],
		},
		{ answer: 'A final answer that is longer than one piece of the stream.' },
	];
	const base = { model: 'scripted-model', tools: [SEARCH_TOOL, FETCH_TOOL] };
	const toolTurn = { ...base, messages: [{ role: 'user', content: 'go' }] };
	const answerTurn = {
		...base,
		messages: [
			{ role: 'user', content: 'go' },
			{ role: 'assistant', content: null, tool_calls: [{ id: 'call_0_0', type: 'function', function: { name: 'Fetch_Page', arguments: '{}' } }] },
			{ role: 'tool', tool_call_id: 'call_0_0', content: '[]' },
		],
	};

	beforeEach(() => sim.setScript(script));

	it.each([
		['parallel tool calls', toolTurn, 'tool_calls'],
		['a final answer', answerTurn, 'stop'],
	])('%s: the chunks reassemble to the non-streamed message', async (_label, body, finishReason) => {
		const plain = (await (await post('/v1/chat/completions', body)).json()) as ChatCompletion;
		const response = await post('/v1/chat/completions', { ...body, stream: true, stream_options: { include_usage: true } });
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
		const events = sseEvents(await response.text());
		expect(events[events.length - 1]).toBe('[DONE]');
		const chunks = events.slice(0, -1) as Chunk[];
		const usageChunk = chunks[chunks.length - 1];
		expect(usageChunk.choices).toEqual([]);
		expect(usageChunk.usage).toEqual(plain.usage);
		const deltas = chunks.slice(0, -1);
		for (const chunk of deltas) {
			expect(chunk.object).toBe('chat.completion.chunk');
			expect(chunk.id).toBe('chatcmpl-sim000002');
			expect(chunk.model).toBe('scripted-model');
			expect(chunk.usage).toBeNull();
		}
		expect(deltas[0].choices[0].delta.role).toBe('assistant');
		expect(deltas[deltas.length - 1].choices[0]).toEqual({ index: 0, delta: {}, logprobs: null, finish_reason: finishReason });
		expect(deltas.slice(0, -1).every((c) => c.choices[0].finish_reason === null)).toBe(true);
		// More delta chunks than one per call or answer: the text really was cut into pieces.
		expect(deltas.length).toBeGreaterThan(4);
		const { message, finishReason: reassembledReason } = reassemble(deltas);
		expect(message).toEqual(plain.choices[0].message);
		expect(reassembledReason).toBe(plain.choices[0].finish_reason);
	});

	it('tool call deltas carry index, id, type and name first, then the arguments in pieces', async () => {
		const response = await post('/v1/chat/completions', { ...toolTurn, stream: true });
		const chunks = sseEvents(await response.text()).slice(0, -1) as Chunk[];
		const callDeltas = chunks.flatMap((c) => c.choices[0].delta.tool_calls ?? []);
		const args = JSON.stringify(fetchArguments);
		const pieces = Math.ceil(args.length / STREAM_PIECE_CHARS);
		expect(callDeltas[0]).toEqual({ index: 0, id: 'call_0_0', type: 'function', function: { name: 'Fetch_Page', arguments: '' } });
		expect(callDeltas.slice(1, 1 + pieces).map((d) => d.function.arguments).join('')).toBe(args);
		expect(callDeltas.slice(1, 1 + pieces).every((d) => d.index === 0 && d.id === undefined)).toBe(true);
		expect(callDeltas[1 + pieces]).toEqual({ index: 1, id: 'call_0_1', type: 'function', function: { name: 'Web_Search', arguments: '' } });
	});

	it('without stream_options.include_usage there is no usage chunk and no usage field', async () => {
		const response = await post('/v1/chat/completions', { ...answerTurn, stream: true });
		const events = sseEvents(await response.text());
		expect(events[events.length - 1]).toBe('[DONE]');
		const chunks = events.slice(0, -1) as Chunk[];
		expect(chunks.every((c) => c.choices.length === 1 && !('usage' in c))).toBe(true);
		expect(chunks[chunks.length - 1].choices[0].finish_reason).toBe('stop');
	});
});
