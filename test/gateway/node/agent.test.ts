import type { IDataObject } from 'n8n-workflow';

import { allText, newExecutionId, runNode } from '../../harness';
import { runAgent } from '../../harness/agent';
import type { AgentTool, ToolCall } from '../../harness/agent';
import { balances, FETCH_ROUTE, PRICE, requestsSince, SEARCH_ROUTE, signedRequests, walletCredential } from '../support';
import { GatewaySimulator } from '../../simulator/gateway';

/**
 * The Scraper Gateway as an AI Agent's tool, through n8n-core's engine requests (the path of n8n's AI Agent 3.x:
 * one run of the tool node per call, each with its own context). Payments are real: signed, settled on the local
 * chain, balances read from it.
 */

let sim: GatewaySimulator;

beforeAll(async () => {
	sim = await GatewaySimulator.start({ testWalletCount: 4 });
});

afterAll(async () => {
	await sim?.close();
});

afterEach(() => {
	sim.setRequirementOverride(undefined);
});

const FETCH_TOOL = 'Fetch Page';
const SEARCH_TOOL = 'Search Web';

function fetchTool(options: IDataObject = {}, extra: Partial<AgentTool> = {}): AgentTool {
	return {
		name: FETCH_TOOL,
		nodeType: 'scraperGateway',
		parameters: { resource: 'page', operation: 'fetch', url: "={{ $fromAI('url', 'Address of the page to read', 'string') }}", options: options as AgentTool['parameters'] },
		...extra,
	};
}

const searchTool: AgentTool = {
	name: SEARCH_TOOL,
	nodeType: 'scraperGateway',
	parameters: { resource: 'search', operation: 'web', query: "={{ $fromAI('query', 'What to search for', 'string') }}" },
};

const pages = (n: number, from = 0): ToolCall[] =>
	Array.from({ length: n }, (_, i) => ({ tool: FETCH_TOOL, input: { url: `https://research.example.org/page-${from + i + 1}` } }));

const budgetSentence = (paid: number, limit: string) =>
	`Budget reached: ${paid} ${paid === 1 ? 'page' : 'pages'} paid, ${limit} USDC; nothing more was signed. This workflow may spend at most ${limit} USDC per run: answer with what you have.`;

describe('the spending limit holds across all tool calls of one agent run', () => {
	test('Max Total Spend 0.05 USDC, the model asks for 20 pages in two turns: exactly 5 are paid and settled once each, the other 15 get the budget sentence', async () => {
		const wallet = sim.testWallets[0];
		const before = await balances(sim, wallet.address);
		const logStart = sim.server.log.entries.length;
		const settlementsStart = sim.settlements.length;

		const result = await runAgent({
			credentials: walletCredential(sim, wallet),
			tools: [fetchTool({ maxTotalSpend: 0.05 })],
			// 3 calls, then 17 in one turn (parallel tool calls).
			turns: [pages(3), pages(17, 3)],
		});

		expect(result.error).toBeUndefined();
		expect(result.observations).toHaveLength(20);
		const paid = result.observations.filter((o) => o.output?.[0]?.payment);
		const refused = result.observations.filter((o) => o.output?.[0]?.response);
		expect(paid).toHaveLength(5);
		expect(refused).toHaveLength(15);
		for (const o of refused) expect(o.output).toEqual([{ response: budgetSentence(5, '0.05') }]);
		for (const o of result.observations) expect(o.error).toBeUndefined();

		// On chain: 5 x 0.01 USDC moved, one settlement per paid page, each a distinct transaction.
		const after = await balances(sim, wallet.address);
		expect(before.payer - after.payer).toBe(5n * PRICE);
		expect(after.payee - before.payee).toBe(5n * PRICE);
		const settlements = sim.settlements.slice(settlementsStart);
		expect(settlements).toHaveLength(5);
		expect(new Set(settlements.map((s) => s.transaction)).size).toBe(5);
		expect(paid.map((o) => (o.output?.[0].payment as IDataObject).transaction).sort()).toEqual(settlements.map((s) => s.transaction).sort());

		// The gateway saw exactly the URLs the model chose, each paid one once; nothing signed for the refused ones.
		const signed = signedRequests(sim, logStart);
		expect(signed).toHaveLength(5);
		expect(signed.map((r) => (r.body as IDataObject).url).sort()).toEqual(paid.map((o) => o.input.url).sort());
		expect(new Set(signed.map((r) => (r.body as IDataObject).url)).size).toBe(5);
		const asked = new Set(pages(20).map((c) => c.input.url));
		for (const r of requestsSince(sim, logStart)) expect(asked.has((r.body as IDataObject).url as string)).toBe(true);
	});

	test('tool calls running at the same time (agents that call tools in parallel) never both take the last of the budget', async () => {
		const wallet = sim.testWallets[1];
		const before = await balances(sim, wallet.address);
		const logStart = sim.server.log.entries.length;
		const executionId = newExecutionId();
		// 12 concurrent runs of the tool node in one execution, each its own context, as a parallel agent makes them.
		const runs = await Promise.all(
			pages(12).map(async (call) =>
				await runNode({
					nodeType: 'scraperGatewayTool',
					executionId,
					credentials: walletCredential(sim, wallet),
					parameters: { resource: 'page', operation: 'fetch', url: '={{ $json.url }}', options: { maxTotalSpend: 0.03 } },
					input: [call.input],
				}),
			),
		);
		for (const run of runs) expect(run.error).toBeUndefined();
		const outputs = runs.map((run) => run.items[0].json);
		expect(outputs.filter((json) => json.payment)).toHaveLength(3);
		const refused = outputs.filter((json) => json.response);
		expect(refused).toHaveLength(9);
		for (const json of refused) expect(json.response).toMatch(/^Budget reached: \d+ pages paid, 0\.0[123] USDC; nothing more was signed\./);
		const after = await balances(sim, wallet.address);
		expect(before.payer - after.payer).toBe(3n * PRICE);
		expect(signedRequests(sim, logStart)).toHaveLength(3);
	});

	test('each tool call pays under its own payment identifier, the same page too; a dropped answer is resent and counted once', async () => {
		const wallet = sim.testWallets[3];
		const before = await balances(sim, wallet.address);
		const settlementsStart = sim.settlements.length;
		const replaysStart = sim.replays.length;
		const same: ToolCall = { tool: FETCH_TOOL, input: { url: 'https://research.example.org/same' } };
		// The first settled answer never arrives: the tool sends the same payment once more and gets it.
		sim.setAfterSettleFault((_settled, index) => (index === 0 ? 'reset' : undefined));
		try {
			const result = await runAgent({
				credentials: walletCredential(sim, wallet),
				tools: [fetchTool({ maxTotalSpend: 0.03 })],
				// The same page twice at once, then once more and another page: the fourth call is over the budget.
				turns: [[same, same], [same, ...pages(1)]],
			});
			expect(result.error).toBeUndefined();
			const paid = result.observations.filter((o) => o.output?.[0]?.payment).map((o) => o.output?.[0].payment as IDataObject);
			expect(paid).toHaveLength(3);
			expect(result.observations.filter((o) => o.output?.[0]?.response)).toEqual([expect.objectContaining({ output: [{ response: budgetSentence(3, '0.03') }] })]);
			const settlements = sim.settlements.slice(settlementsStart);
			expect(settlements).toHaveLength(3);
			expect(new Set(paid.map((payment) => payment.paymentId)).size).toBe(3);
			expect(paid.map((payment) => payment.paymentId).sort()).toEqual(settlements.map((s) => s.paymentId).sort());
			expect(sim.replays.length - replaysStart).toBe(1);
			expect(before.payer - (await sim.balanceOf(wallet.address))).toBe(3n * PRICE);
		} finally {
			sim.setAfterSettleFault(undefined);
		}
	});

	test('another execution starts with its own budget', async () => {
		const wallet = sim.testWallets[2];
		const credentials = walletCredential(sim, wallet);
		const tools = [fetchTool({ maxTotalSpend: 0.01 })];
		const first = await runAgent({ credentials, tools, turns: [pages(2)] });
		const second = await runAgent({ credentials, tools, turns: [pages(2, 2)] });
		for (const result of [first, second]) {
			expect(result.observations.filter((o) => o.output?.[0]?.payment)).toHaveLength(1);
			expect(result.observations.filter((o) => o.output?.[0]?.response)).toEqual([
				expect.objectContaining({ output: [{ response: budgetSentence(1, '0.01') }] }),
			]);
		}
	});

	test('without Max Total Spend a tool still has a limit: 1 USDC per execution', async () => {
		// A dearer gateway (0.4 USDC) the credential accepts, so the default limit is reached in three calls.
		sim.setRequirementOverride({ amount: '400000' });
		const wallet = sim.testWallets[3];
		const before = await balances(sim, wallet.address);
		const result = await runAgent({
			credentials: walletCredential(sim, wallet, { maxPricePerRequest: 0.4 }),
			tools: [fetchTool()],
			turns: [pages(1), pages(1, 1), pages(1, 2)],
		});
		expect(result.error).toBeUndefined();
		expect(result.observations.map((o) => (o.output?.[0]?.payment as IDataObject | undefined)?.amount ?? o.output?.[0]?.response)).toEqual([
			'0.4',
			'0.4',
			'Budget reached: 2 pages paid, 0.8 USDC; nothing more was signed. This workflow may spend at most 1 USDC per run: answer with what you have.',
		]);
		const after = await balances(sim, wallet.address);
		expect(before.payer - after.payer).toBe(800_000n);
	});

	test('a search tool and a fetch tool paying from one wallet share the budget', async () => {
		const wallet = sim.testWallets[2];
		const before = await balances(sim, wallet.address);
		const result = await runAgent({
			credentials: walletCredential(sim, wallet),
			tools: [{ ...searchTool, parameters: { ...searchTool.parameters, options: { maxTotalSpend: 0.03 } } }, fetchTool({ maxTotalSpend: 0.03 })],
			turns: [[{ tool: SEARCH_TOOL, input: { query: 'heat pumps' } }], pages(4)],
		});
		expect(result.error).toBeUndefined();
		expect(result.observations.filter((o) => o.output?.[0]?.payment)).toHaveLength(3);
		expect(result.observations.filter((o) => o.output?.[0]?.response).map((o) => o.output?.[0]?.response)).toEqual([
			'Budget reached: 1 search and 2 pages paid, 0.03 USDC; nothing more was signed. This workflow may spend at most 0.03 USDC per run: answer with what you have.',
			'Budget reached: 1 search and 2 pages paid, 0.03 USDC; nothing more was signed. This workflow may spend at most 0.03 USDC per run: answer with what you have.',
		]);
		const after = await balances(sim, wallet.address);
		expect(before.payer - after.payer).toBe(3n * PRICE);
	});

	test('outside an agent the limit also spans every run of the node in one execution (a loop)', async () => {
		const wallet = sim.testWallets[0];
		const executionId = newExecutionId();
		const parameters = { resource: 'page', operation: 'fetch', url: '={{ $json.url }}', options: { maxTotalSpend: 0.03 } };
		const credentials = walletCredential(sim, wallet);
		const first = await runNode({ nodeType: 'scraperGateway', executionId, credentials, parameters, input: pages(2).map((c) => c.input) });
		expect(first.error).toBeUndefined();
		const second = await runNode({ nodeType: 'scraperGateway', executionId, credentials, parameters, input: pages(2, 2).map((c) => c.input), continueOnFail: true });
		expect(second.items[0].json.payment).toBeDefined();
		expect(second.items[1].json.error).toBe(
			'Spending limit reached, nothing was signed for this item: this item would cost 0.01 USDC and 0.03 USDC of the 0.03 USDC allowed per execution is already spent or committed [item 1]',
		);
		// Outside an agent a refusal stays an error (the item fails; here Continue On Fail keeps it as an item).
		expect(second.items[1].json.response).toBeUndefined();
	});
});

describe('a refusal reaches the agent as a sentence; the execution goes on', () => {
	test('a price above the credential maximum: nothing signed, the model is told why and not to call again', async () => {
		const wallet = sim.testWallets[1];
		const before = await balances(sim, wallet.address);
		const logStart = sim.server.log.entries.length;
		const result = await runAgent({
			credentials: walletCredential(sim, wallet, { maxPricePerRequest: 0.005 }),
			tools: [fetchTool({ maxTotalSpend: 0.05 })],
			turns: [pages(2)],
		});
		expect(result.error).toBeUndefined();
		expect(result.observations).toHaveLength(2);
		for (const o of result.observations) {
			const response = o.output?.[0]?.response as string;
			expect(Object.keys(o.output?.[0] ?? {})).toEqual(['response']);
			expect(response).toMatch(/^Payment refused, nothing was signed: .*0\.01 USDC.*0\.005 USDC/);
			expect(response).toContain('do not call it again in this run');
		}
		expect(signedRequests(sim, logStart)).toHaveLength(0);
		const after = await balances(sim, wallet.address);
		expect(after.payer).toBe(before.payer);
		// The key never reaches the model.
		expect(allText(result.observations).toLowerCase()).not.toContain(wallet.privateKey.slice(2).toLowerCase());
	});

	test('a URL the gateway must not fetch: the sentence names the field and the rule, nothing is sent', async () => {
		const logStart = sim.server.log.entries.length;
		const result = await runAgent({
			credentials: walletCredential(sim, sim.testWallets[2]),
			tools: [fetchTool()],
			turns: [[{ tool: FETCH_TOOL, input: { url: 'http://127.0.0.1/admin' } }]],
		});
		expect(result.error).toBeUndefined();
		expect(result.observations[0].output?.[0].response).toMatch(/^Invalid 'URL': "http:\/\/127\.0\.0\.1\/admin": .+\. .+/);
		expect(requestsSince(sim, logStart)).toHaveLength(0);
	});

	test('a page that failed upstream after a settled payment: the agent learns it, with the transaction, and goes on', async () => {
		const wallet = sim.testWallets[3];
		const before = await balances(sim, wallet.address);
		const settlementsStart = sim.settlements.length;
		const result = await runAgent({
			credentials: walletCredential(sim, wallet),
			tools: [fetchTool()],
			turns: [[{ tool: FETCH_TOOL, input: { url: 'https://research.example.org/sim-fail' } }], pages(1)],
		});
		expect(result.error).toBeUndefined();
		const [settlement] = sim.settlements.slice(settlementsStart, settlementsStart + 1);
		expect(result.observations[0].output).toEqual([
			{
				response: `The gateway charged 0.01 USDC (transaction ${settlement.transaction}, payer ${wallet.address}) but fetching https://research.example.org/sim-fail upstream failed: Upstream request failed: target answered HTTP 502 Bad Gateway (after 3 attempts). It is paid and will not be refunded; do not retry it: try another page or answer with what you have.`,
			},
		]);
		expect(result.observations[1].output?.[0].payment).toBeDefined();
		// Both calls paid once each, the failed one included; nothing paid twice.
		expect(sim.settlements.length - settlementsStart).toBe(2);
		expect(before.payer - (await balances(sim, wallet.address)).payer).toBe(2n * PRICE);
	});

	test('an error that is not a refusal still ends the execution, as n8n does for any tool (the payment outcome must reach the user)', async () => {
		const result = await runAgent({
			credentials: walletCredential(sim, sim.testWallets[2], { baseUrl: 'http://127.0.0.1:9' }),
			tools: [fetchTool()],
			turns: [pages(1)],
		});
		expect(result.error?.message).toMatch(/^Could not reach the gateway: .*; nothing was paid \[item 0\]$/);
	});
});

describe('what the model sees', () => {
	test('each operation is described with what it returns and what it costs', async () => {
		const result = await runAgent({ credentials: walletCredential(sim, sim.testWallets[0]), tools: [fetchTool(), searchTool], turns: [] });
		expect(result.toolDescriptions).toEqual({
			[FETCH_TOOL]: 'Fetch page as Markdown (0.01 USDC per page, paid from wallet) in Scraper Gateway',
			[SEARCH_TOOL]: 'Search web for titles, links and snippets (0.01 USDC per search, paid from wallet) in Scraper Gateway',
		});
	});

	test('a page comes back as Markdown and its receipt: no HTML, no screenshot unless the user asks', async () => {
		const logStart = sim.server.log.entries.length;
		const result = await runAgent({
			credentials: walletCredential(sim, sim.testWallets[0]),
			tools: [fetchTool()],
			turns: [pages(1)],
		});
		const output = result.observations[0].output ?? [];
		expect(output).toHaveLength(1);
		expect(Object.keys(output[0])).toEqual(['url', 'markdown', 'payment']);
		expect(output[0].markdown).toMatch(/^# /);
		const sent = requestsSince(sim, logStart).filter((r) => r.route === FETCH_ROUTE);
		expect(sent.at(-1)?.body).toEqual({ url: 'https://research.example.org/page-1', html: false, screenshot: false });
	});

	test("Output Raw: the gateway's whole answer with its receipt; Selected Fields: the URL and only the fields chosen", async () => {
		const withOutput = (output: IDataObject): AgentTool => ({ ...fetchTool(), parameters: { ...fetchTool().parameters, ...output } as AgentTool['parameters'] });
		const raw = await runAgent({ credentials: walletCredential(sim, sim.testWallets[0]), tools: [withOutput({ toolOutput: 'raw' })], turns: [pages(1)] });
		const whole = raw.observations[0].output?.[0] ?? {};
		expect(whole).toMatchObject({ url: 'https://research.example.org/page-1', ok: true, markdown: expect.stringMatching(/^# /), payment: expect.any(Object) });
		expect(Object.keys(whole).length).toBeGreaterThan(5);
		const selected = await runAgent({
			credentials: walletCredential(sim, sim.testWallets[0]),
			tools: [withOutput({ toolOutput: 'selected', toolFields: ['tokenUsage'] })],
			turns: [pages(1)],
		});
		expect(selected.observations[0].output).toEqual([{ url: 'https://research.example.org/page-1', tokenUsage: expect.any(Number) }]);
	});

	test('HTML and a screenshot the user turned on are kept: the HTML in the answer, the screenshot as a file (never base64 text)', async () => {
		const result = await runAgent({
			credentials: walletCredential(sim, sim.testWallets[0]),
			tools: [{ ...fetchTool(), parameters: { ...fetchTool().parameters, additionalFields: { html: true, screenshot: true } } }],
			turns: [pages(1)],
		});
		const output = result.observations[0].output?.[0] ?? {};
		expect(Object.keys(output)).toEqual(['url', 'markdown', 'html', 'screenshot', 'payment']);
		expect(output.html).toMatch(/^<!doctype html>/i);
		expect(output.screenshot).toEqual(expect.objectContaining({ binaryProperty: 'screenshot', mimeType: 'image/jpeg' }));
		expect(JSON.stringify(output)).not.toMatch(/\/9j\//);
	});

	test('a search comes back as one item holding the result list, with the query the model chose', async () => {
		const logStart = sim.server.log.entries.length;
		const result = await runAgent({
			credentials: walletCredential(sim, sim.testWallets[0]),
			tools: [searchTool],
			turns: [[{ tool: SEARCH_TOOL, input: { query: 'solar panel efficiency 2026' } }]],
		});
		const output = result.observations[0].output ?? [];
		expect(output).toHaveLength(1);
		expect(output[0].query).toBe('solar panel efficiency 2026');
		expect((output[0].results as IDataObject[]).length).toBeGreaterThan(0);
		expect((output[0].payment as IDataObject).amount).toBe('0.01');
		const sent = requestsSince(sim, logStart).filter((r) => r.route === SEARCH_ROUTE);
		expect(sent.map((r) => (r.body as IDataObject).query)).toEqual(['solar panel efficiency 2026', 'solar panel efficiency 2026']);
	});
});
