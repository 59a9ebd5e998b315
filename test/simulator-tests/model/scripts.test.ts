import { ModelSimulator, type ChatCompletion, type ChatToolCall, type ScriptTurn } from '../../simulator/model';
import { served } from '../served';

const sim = served(new ModelSimulator());

interface Tool {
	type: 'function';
	function: { name: string; description: string; parameters: Record<string, unknown> };
}

function tool(name: string, description: string, properties: Record<string, unknown>): Tool {
	return { type: 'function', function: { name, description, parameters: { type: 'object', properties, additionalProperties: false } } };
}

const SEARCH = tool('Search_Web', 'Get localized search-engine results for a query', {
	page: { type: 'number' },
	query: { type: 'string', description: 'What to search for' },
	country: { type: 'string' },
});
const FETCH = tool('Fetch_Page', 'Fetch a web page as Markdown', { timeout: { type: 'number' }, url: { type: 'string' } });
const LEADS = tool('Scraper_Marketplace', 'Create a leads scraper', { keywords: { type: 'string' } });

type Message = Record<string, unknown>;

function assistantCalls(calls: ChatToolCall[]): Message {
	return { role: 'assistant', content: null, tool_calls: calls };
}

function toolResult(callId: string, content: unknown): Message {
	return { role: 'tool', tool_call_id: callId, content: typeof content === 'string' ? content : JSON.stringify(content) };
}

async function complete(messages: Message[], tools: Tool[] = [SEARCH, FETCH, LEADS]): Promise<{ status: number; body: ChatCompletion & { error?: { message: string; code: string | null } } }> {
	const response = await fetch(`${sim.baseUrl}/chat/completions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
		body: JSON.stringify({ model: 'scripted-model', messages, tools }),
	});
	return { status: response.status, body: (await response.json()) as ChatCompletion & { error?: { message: string; code: string | null } } };
}

function call(id: string, name: string, args: unknown): ChatToolCall {
	return { id, type: 'function', function: { name, arguments: JSON.stringify(args) } };
}

const USER = { role: 'user', content: 'best hiking boots' };
const SYSTEM = { role: 'system', content: 'You are a helpful assistant' };

describe('scripted tool calls', () => {
	it("parallel calls replayed the way n8n's agent does (one assistant message per call) count as one turn", async () => {
		sim.setScript([
			{ toolCalls: [1, 2, 3].map((n) => ({ tool: 'Fetch_Page', arguments: { url: `https://example.com/${n}` } })) },
			{ answer: 'read: {{toolResults}}' },
		]);
		const replayed = [0, 1, 2].flatMap((i) => [assistantCalls([call(`call_0_${i}`, 'Fetch_Page', { url: `https://example.com/${i + 1}` })]), toolResult(`call_0_${i}`, `page ${i + 1}`)]);
		const { status, body } = await complete([SYSTEM, USER, ...replayed]);
		expect(status).toBe(200);
		expect(body.choices[0].message).toEqual({ role: 'assistant', content: 'read: page 1\npage 2\npage 3' });
		// Assistant messages with other ids are turns of their own.
		const foreign = [0, 1].flatMap((i) => [assistantCalls([call(`x${i}`, 'Fetch_Page', { url: 'https://example.com/' })]), toolResult(`x${i}`, 'page')]);
		expect((await complete([SYSTEM, USER, ...foreign])).body.choices[0].message.content).toBe('Done.');
	});

	it('a turn with several calls answers one assistant message with parallel calls and JSON argument strings', async () => {
		sim.setScript([
			{
				toolCalls: [
					{ tool: 'Search_Web', arguments: { query: 'boots', page: 2 } },
					{ tool: 'Scraper_Marketplace', arguments: { keywords: 'boots shop', nested: { list: [1, 'two', null], flag: true } } },
				],
			},
		]);
		const { status, body } = await complete([SYSTEM, USER]);
		expect(status).toBe(200);
		expect(body.choices).toEqual([
			{
				index: 0,
				message: {
					role: 'assistant',
					content: null,
					tool_calls: [
						{ id: 'call_0_0', type: 'function', function: { name: 'Search_Web', arguments: '{"query":"boots","page":2}' } },
						{
							id: 'call_0_1',
							type: 'function',
							function: { name: 'Scraper_Marketplace', arguments: '{"keywords":"boots shop","nested":{"list":[1,"two",null],"flag":true}}' },
						},
					],
				},
				finish_reason: 'tool_calls',
				logprobs: null,
			},
		]);
	});

	it('the turn is the number of assistant messages in the request', async () => {
		sim.setScript([
			{ toolCalls: [{ tool: 'Search_Web', arguments: { query: 'one' } }] },
			{ toolCalls: [{ tool: 'Fetch_Page', arguments: { url: 'https://two.example/' } }] },
			{ answer: 'three' },
		]);
		const first = await complete([USER]);
		expect(first.body.choices[0].message.tool_calls).toEqual([call('call_0_0', 'Search_Web', { query: 'one' })]);
		const history = [USER, assistantCalls([call('call_0_0', 'Search_Web', { query: 'one' })]), toolResult('call_0_0', [])];
		const second = await complete(history);
		expect(second.body.choices[0].message.tool_calls).toEqual([call('call_1_0', 'Fetch_Page', { url: 'https://two.example/' })]);
		const third = await complete([...history, assistantCalls([call('call_1_0', 'Fetch_Page', {})]), toolResult('call_1_0', [])]);
		expect(third.body.choices[0]).toEqual({ index: 0, message: { role: 'assistant', content: 'three' }, finish_reason: 'stop', logprobs: null });
		// Asking turn 0 again answers turn 0 again: no state between requests.
		expect((await complete([USER])).body.choices[0].message.tool_calls).toEqual([call('call_0_0', 'Search_Web', { query: 'one' })]);
	});

	it('turns past the end of the script answer "Done."', async () => {
		sim.setScript([{ toolCalls: [{ tool: 'Search_Web', arguments: { query: 'x' } }] }]);
		const { body } = await complete([USER, assistantCalls([call('call_0_0', 'Search_Web', { query: 'x' })]), toolResult('call_0_0', [])]);
		expect(body.choices[0].message).toEqual({ role: 'assistant', content: 'Done.' });
		expect(body.choices[0].finish_reason).toBe('stop');
	});

	it('a tool the request does not offer answers 400 listing the offered tools', async () => {
		sim.setScript([{ toolCalls: [{ tool: 'Search_Web', arguments: {} }, { tool: 'Scraper Platform', arguments: {} }] }]);
		const { status, body } = await complete([USER]);
		expect(status).toBe(400);
		expect(body.error).toEqual({
			message: 'Scripted turn 0 calls tool "Scraper Platform", which the request does not offer; offered tools: Search_Web, Fetch_Page, Scraper_Marketplace',
			type: 'invalid_request_error',
			param: null,
			code: 'script_mismatch',
		});
		const none = await complete([USER], []);
		expect(none.status).toBe(400);
		expect(none.body.error?.message).toBe('Scripted turn 0 calls tool "Search_Web", which the request does not offer; offered tools: (none)');
		// The request was still recorded, so a test can look at what the agent offered.
		expect(sim.requests).toHaveLength(2);
		expect(sim.offeredTools()).toEqual([]);
	});
});

describe('fromLastToolResult', () => {
	const searchOutput = [
		{ id: 'r-1', results: [{ url: 'https://a.example/1' }, { url: 'https://b.example/2' }] },
		{ id: 'r-2', results: [] },
	];
	const history = (last: unknown): Message[] => [
		USER,
		assistantCalls([call('call_0_0', 'Search_Web', { query: 'q' }), call('call_0_1', 'Search_Web', { query: 'r' })]),
		toolResult('call_0_0', [{ id: 'from-the-earlier-result' }]),
		toolResult('call_0_1', last),
	];

	it('reads dotted paths (numeric segments index arrays) from the most recent tool message, at any depth', async () => {
		sim.setScript([
			{ answer: 'unused' },
			{
				toolCalls: [
					{ tool: 'Fetch_Page', arguments: { url: { fromLastToolResult: '0.results.1.url' }, timeout: 30 } },
					{ tool: 'Scraper_Marketplace', arguments: { keywords: { fromLastToolResult: '1.id' }, ids: [{ fromLastToolResult: '0.id' }, 'literal'], all: { fromLastToolResult: '1' } } },
				],
			},
		]);
		const { status, body } = await complete(history(searchOutput));
		expect(status).toBe(200);
		expect(body.choices[0].message.tool_calls).toEqual([
			call('call_1_0', 'Fetch_Page', { url: 'https://b.example/2', timeout: 30 }),
			call('call_1_1', 'Scraper_Marketplace', { keywords: 'r-2', ids: ['r-1', 'literal'], all: { id: 'r-2', results: [] } }),
		]);
	});

	it('a result that is a JSON string holding JSON (encoded twice) is read too', async () => {
		sim.setScript([{ answer: 'unused' }, { toolCalls: [{ tool: 'Fetch_Page', arguments: { url: { fromLastToolResult: '0.results.0.url' } } }] }]);
		const { body } = await complete(history(JSON.stringify(JSON.stringify(searchOutput))));
		expect(body.choices[0].message.tool_calls).toEqual([call('call_1_0', 'Fetch_Page', { url: 'https://a.example/1' })]);
	});

	it.each([
		['an index past the end', '0.results.2.url', searchOutput, 'path "0.results.2.url": "0.results" has 2 element(s), no index 2'],
		['a missing field', '1.title', searchOutput, 'path "1.title": "1" has no field "title" (fields: id, results)'],
		['a name on an array', 'results', searchOutput, 'path "results": the result is an array, "results" is not an index'],
		['a path through a string', '0.id.x', searchOutput, 'path "0.id.x": "0.id" is a string, it has no field "x"'],
	])('%s answers 400 saying what cannot be resolved', async (_label, path, result, reason) => {
		sim.setScript([{ answer: 'unused' }, { toolCalls: [{ tool: 'Fetch_Page', arguments: { url: { fromLastToolResult: path } } }] }]);
		const { status, body } = await complete(history(result));
		expect(status).toBe(400);
		expect(body.error?.code).toBe('script_mismatch');
		expect(body.error?.message).toBe(
			`Scripted turn 1, call 0 (tool "Fetch_Page"): cannot resolve fromLastToolResult: ${reason} (last tool result: ${JSON.stringify(result)})`,
		);
	});

	it('a result that is not JSON, or no result yet, answers 400', async () => {
		sim.setScript([{ answer: 'unused' }, { toolCalls: [{ tool: 'Fetch_Page', arguments: { url: { fromLastToolResult: '0.url' } } }] }]);
		const notJson = await complete(history('There was an error: the page timed out'));
		expect(notJson.status).toBe(400);
		expect(notJson.body.error?.message).toBe(
			'Scripted turn 1, call 0 (tool "Fetch_Page"): cannot resolve fromLastToolResult: the last tool result is not JSON: There was an error: the page timed out',
		);
		sim.setScript([{ toolCalls: [{ tool: 'Fetch_Page', arguments: { url: { fromLastToolResult: '0.url' } } }] }]);
		const first = await complete([USER]);
		expect(first.status).toBe(400);
		expect(first.body.error?.message).toBe(
			'Scripted turn 0, call 0 (tool "Fetch_Page"): cannot resolve fromLastToolResult: the conversation has no tool result yet',
		);
	});
});

describe('scripted answers', () => {
	it('{{toolResults}} is every tool message in order joined by newlines, {{lastToolResult}} the last one', async () => {
		sim.setScript([
			{ toolCalls: [{ tool: 'Search_Web', arguments: { query: 'a' } }] },
			{ toolCalls: [{ tool: 'Fetch_Page', arguments: { url: 'https://x.example' } }] },
			{ answer: 'All:\n{{toolResults}}\nLast: {{lastToolResult}} / again {{lastToolResult}}' },
		]);
		const { body } = await complete([
			USER,
			assistantCalls([call('call_0_0', 'Search_Web', { query: 'a' })]),
			toolResult('call_0_0', [{ url: 'https://x.example' }]),
			assistantCalls([call('call_1_0', 'Fetch_Page', { url: 'https://x.example' }), call('call_1_1', 'Fetch_Page', { url: 'https://y.example' })]),
			toolResult('call_1_0', [{ markdown: 'X $& page' }]),
			toolResult('call_1_1', 'plain text'),
		]);
		expect(body.choices[0].message.content).toBe(
			'All:\n[{"url":"https://x.example"}]\n[{"markdown":"X $& page"}]\nplain text\nLast: plain text / again plain text',
		);
		expect(body.choices[0].finish_reason).toBe('stop');
		expect(sim.toolMessages()).toEqual(['[{"url":"https://x.example"}]', '[{"markdown":"X $& page"}]', 'plain text']);
	});

	it('placeholders become empty when there is no tool result', async () => {
		sim.setScript([{ answer: 'results: [{{toolResults}}] last: [{{lastToolResult}}]' }]);
		expect((await complete([USER])).body.choices[0].message.content).toBe('results: [] last: []');
	});
});

describe('script control', () => {
	it('setScript rejects malformed turns with the turn named', () => {
		expect(() => sim.setScript([{ answer: 'ok' }, { toolCalls: [] }])).toThrow('ModelSimulator script turn 1: toolCalls must be a non-empty array');
		expect(() => sim.setScript([{ answer: 'a', toolCalls: [] } as unknown as ScriptTurn])).toThrow('ModelSimulator script turn 0: expected exactly one of toolCalls or answer');
		expect(() => sim.setScript([{ toolCalls: [{ tool: '', arguments: {} }] }])).toThrow('ModelSimulator script turn 0, call 0: tool must be a non-empty string');
		expect(() => sim.setScript([{ toolCalls: [{ tool: 'x', arguments: 'q' as unknown as Record<string, unknown> }] }])).toThrow(
			'ModelSimulator script turn 0, call 0: arguments must be an object',
		);
		expect(sim.currentScript).toBeUndefined();
	});

	it('the script is copied: changing the array afterwards changes nothing', async () => {
		const turns: ScriptTurn[] = [{ answer: 'original' }];
		sim.setScript(turns);
		turns[0] = { answer: 'changed' };
		expect((await complete([USER])).body.choices[0].message.content).toBe('original');
	});

	it('clearScript() goes back to the default policy; the script option sets one at construction', async () => {
		sim.setScript([{ answer: 'scripted' }]);
		expect((await complete([USER])).body.choices[0].message.content).toBe('scripted');
		sim.clearScript();
		expect((await complete([USER])).body.choices[0].message.tool_calls).toEqual([call('call_0_0', 'Search_Web', { query: 'best hiking boots' })]);

		const other = new ModelSimulator({ script: [{ answer: 'from the option' }] });
		await other.listen();
		try {
			expect(other.currentScript).toEqual([{ answer: 'from the option' }]);
			const response = await fetch(`${other.url}/v1/chat/completions`, {
				method: 'POST',
				headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
				body: JSON.stringify({ messages: [USER] }),
			});
			expect(((await response.json()) as ChatCompletion).choices[0].message.content).toBe('from the option');
		} finally {
			await other.close();
		}
	});
});

describe('default policy (no script)', () => {
	const question = 'Which hiking boots are best for wet trails?';
	const user = { role: 'user', content: question };
	const searchResults = [
		{ rank: 1, title: 'A', url: 'https://alpha.example/boots', displayUrl: 'alpha.example › boots' },
		{ rank: 2, title: 'A again', link: 'https://alpha.example/boots' },
		{ rank: 3, title: 'not a URL', url: 'alpha.example/no-scheme' },
		{ rank: 4, meta: { sources: [{ href: 'https://beta.example/trails' }] } },
		{ rank: 5, URL: 'http://gamma.example/wet' },
		{ rank: 6, url: 'https://delta.example/too-many' },
	];
	const pages: Record<string, unknown> = {
		'https://alpha.example/boots': [{ url: 'https://alpha.example/boots', markdown: '# Boots\n\nWaterproof boots keep feet dry\\_always. Second sentence here.\n\n- [Link](https://x)' }],
		'https://beta.example/trails': [{ data: { text: `Trail guide ${'very '.repeat(40)}long! Next.` } }],
		'http://gamma.example/wet': 'Wet trails need grip? Yes.',
	};

	it('searches, fetches up to 3 distinct URLs in one turn, then answers with each page\'s first sentence', async () => {
		const tools = [LEADS, SEARCH, FETCH];
		const turn0 = await complete([SYSTEM, user], tools);
		const searchCall = call('call_0_0', 'Search_Web', { query: question });
		// The first *string* parameter of the search tool takes the question (page is a number).
		expect(turn0.body.choices[0].message.tool_calls).toEqual([searchCall]);

		const afterSearch = [SYSTEM, user, assistantCalls([searchCall]), toolResult('call_0_0', searchResults)];
		const turn1 = await complete(afterSearch, tools);
		const fetchCalls = [
			call('call_1_0', 'Fetch_Page', { url: 'https://alpha.example/boots' }),
			call('call_1_1', 'Fetch_Page', { url: 'https://beta.example/trails' }),
			call('call_1_2', 'Fetch_Page', { url: 'http://gamma.example/wet' }),
		];
		expect(turn1.body.choices[0].message).toEqual({ role: 'assistant', content: null, tool_calls: fetchCalls });
		expect(turn1.body.choices[0].finish_reason).toBe('tool_calls');

		const afterFetch = [
			...afterSearch,
			assistantCalls(fetchCalls),
			...fetchCalls.map((c) => toolResult(c.id, pages[(JSON.parse(c.function.arguments) as { url: string }).url])),
		];
		const turn2 = await complete(afterFetch, tools);
		const longSentence = `Trail guide ${'very '.repeat(40)}long!`;
		expect(longSentence.length).toBeGreaterThan(160);
		expect(turn2.body.choices[0].message.content).toBe(
			[
				`Question: ${question}`,
				'- https://alpha.example/boots: Waterproof boots keep feet dry_always.',
				`- https://beta.example/trails: ${longSentence.slice(0, 157).trimEnd()}...`,
				'- http://gamma.example/wet: Wet trails need grip?',
			].join('\n'),
		);
		expect(turn2.body.choices[0].finish_reason).toBe('stop');
	});

	it('finds the search tool by description when no name mentions it, and never uses it as the page tool', async () => {
		const finder = tool('Finder', 'Runs a web search; results page by page', { q: { type: 'string' } });
		const { body } = await complete([user], [finder]);
		expect(body.choices[0].message.tool_calls).toEqual([call('call_0_0', 'Finder', { q: question })]);
		const next = await complete([user, assistantCalls([call('call_0_0', 'Finder', { q: question })]), toolResult('call_0_0', searchResults)], [finder]);
		expect(next.body.choices[0].message).toEqual({ role: 'assistant', content: `Question: ${question}\nNo pages were fetched.` });
	});

	it.each([
		['no search tool', [user], [FETCH, LEADS]],
		['a search tool without a string parameter', [user], [tool('Search', 'search', { page: { type: 'number' } })]],
		['no URL in the search results', [user, assistantCalls([call('call_0_0', 'Search_Web', { query: question })]), toolResult('call_0_0', [{ title: 'nothing' }])], [SEARCH, FETCH]],
		['search results that are not JSON', [user, assistantCalls([call('call_0_0', 'Search_Web', { query: question })]), toolResult('call_0_0', 'https://alpha.example/x')], [SEARCH, FETCH]],
	])('%s: straight to the final answer', async (_label, messages, tools) => {
		const { body } = await complete(messages, tools);
		expect(body.choices[0]).toEqual({
			index: 0,
			message: { role: 'assistant', content: `Question: ${question}\nNo pages were fetched.` },
			finish_reason: 'stop',
			logprobs: null,
		});
	});
});
