/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end test in plain Node: it runs a real n8n process and writes the workflows it imports */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { CREDENTIAL_REFS, demoCredentials } from '../../scripts/demo/credentials';
import { N8nInstance } from '../../scripts/demo/n8n';
import type { ExecuteResult, N8nRun } from '../../scripts/demo/n8n-run';
import { REPO_ROOT } from '../../scripts/demo/pack';
import { isInstalled, runtimeFor } from '../../scripts/demo/runtime';
import { PLATFORM_DEMO_TOKEN, PRICE_ATOMIC, startSimulator, type RunningSimulator } from '../simulator/index';
import { nodeOutput } from './examples/workflows';
import { tarballsUnderTest, versionsUnderTest } from './support';

/**
 * n8n's own AI Agent (3.1) and OpenAI Chat Model, in a real n8n, driving our nodes as tools. The model is the
 * simulator's scripted Chat Completions endpoint; payments are real on the local chain.
 */

interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: number[];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
}
interface Workflow {
	id: string;
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, Record<string, Array<Array<{ node: string; type: string; index: number }>>>>;
	[key: string]: unknown;
}

const EXAMPLE_7 = path.join(REPO_ROOT, 'examples', '07-ai-agent-paid-research-to-sheet-rows.json');
const X402_TOOL = 'n8n-nodes-scraper-service-x402.scraperGatewayTool';
const PLATFORM_TOOL = 'n8n-nodes-scraper-service.scraperPlatformTool';
const CHEAP_WALLET = { id: 'scrWalletCheap01', name: 'x402 Wallet (demo chain, max 0.005 USDC)' };

function example7(): Workflow {
	return JSON.parse(readFileSync(EXAMPLE_7, 'utf8')) as Workflow;
}

/** Example 7 with only its Fetch Page tool (so every payment is a page), under another id. */
function fetchOnlyAgent(id: string, change: (fetch: WorkflowNode) => void): Workflow {
	const wf = example7();
	wf.id = id;
	wf.name = `e2e agent: ${id}`;
	wf.versionId = `6c1e2a10-0e2e-4000-8000-${Buffer.from(id).toString('hex').slice(-12).padStart(12, '0')}`;
	wf.nodes = wf.nodes.filter((n) => n.name !== 'Search Web');
	delete wf.connections['Search Web'];
	const fetch = wf.nodes.find((n) => n.name === 'Fetch Page');
	if (!fetch) throw new Error('example 7 has no Fetch Page node');
	change(fetch);
	return wf;
}

/** An agent with two Scraper Platform tools: list results, then read one by the id the model picked. */
function platformAgent(): Workflow {
	const wf = example7();
	wf.id = 'scrE2eAgentPlat';
	wf.name = 'e2e agent: platform tools';
	wf.versionId = '6c1e2a10-0e2e-4000-8000-00000000a9a7';
	const platform = { scraperPlatformApi: CREDENTIAL_REFS.scraperPlatformApi };
	const keep = wf.nodes.filter((n) => ["When clicking 'Execute workflow'", 'Question', 'Research Agent', 'Chat Model'].includes(n.name));
	wf.nodes = [
		...keep,
		{
			id: '6c1e2a10-0e2e-4a07-9a07-000000000101',
			name: 'List Results',
			type: PLATFORM_TOOL,
			typeVersion: 3,
			position: [520, 240],
			// The model reads only what it needs: each result's ID, status and URL.
			parameters: { resource: 'result', operation: 'getMany', returnAll: false, limit: 3, toolOutput: 'selected', toolFields: ['status', 'url'] },
			credentials: platform,
		},
		{
			id: '6c1e2a10-0e2e-4a07-9a07-000000000102',
			name: 'Get Result',
			type: PLATFORM_TOOL,
			typeVersion: 3,
			position: [700, 240],
			parameters: {
				resource: 'result',
				operation: 'get',
				resultId: { __rl: true, mode: 'id', value: "={{ $fromAI('resultId', 'ID of the result to read', 'string') }}" },
			},
			credentials: platform,
		},
	];
	wf.connections = {
		"When clicking 'Execute workflow'": wf.connections["When clicking 'Execute workflow'"],
		Question: wf.connections.Question,
		'Chat Model': wf.connections['Chat Model'],
		'List Results': { ai_tool: [[{ node: 'Research Agent', type: 'ai_tool', index: 0 }]] },
		'Get Result': { ai_tool: [[{ node: 'Research Agent', type: 'ai_tool', index: 0 }]] },
	};
	return wf;
}

function expectSuccess(result: ExecuteResult): N8nRun {
	const error = result.run?.data.resultData.error;
	if (result.code !== 0 || !result.run || error) {
		const why = error ? `${error.message ?? 'error'} in ${result.run?.data.resultData.lastNodeExecuted}` : `exit ${result.code}`;
		throw new Error(`n8n execute failed (${why})\n${result.stdout.slice(-6000)}\n${result.stderr.slice(-3000)}`);
	}
	return result.run;
}

const agentAnswer = (run: N8nRun) => String(nodeOutput(run, 'Research Agent')[0]?.json.output ?? '');
const pageUrls = (n: number) => Array.from({ length: n }, (_, i) => `https://research.example.org/heat-pumps/${i + 1}`);
const budgetSentence = 'Budget reached: 5 pages paid, 0.05 USDC; nothing more was signed. This workflow may spend at most 0.05 USDC per run: answer with what you have.';

describe.each(versionsUnderTest())('n8n %s: the AI Agent uses our nodes as tools', (version) => {
	let sim: RunningSimulator;
	let n8n: N8nInstance;
	let workflows: string;
	const payer = () => sim.info.chain.demoWallet.address as `0x${string}`;

	beforeAll(async () => {
		const runtime = await runtimeFor(version);
		if (!isInstalled(runtime)) throw new Error(`n8n ${version} is not installed in ${runtime.dir}: run \`npm run test:e2e\`, which installs it first.`);
		sim = await startSimulator();
		sim.platform.seedResults(PLATFORM_DEMO_TOKEN, 4);
		n8n = new N8nInstance({ runtime, userFolder: mkdtempSync(path.join(os.tmpdir(), `n8n-e2e-agent-${version}-`)) });
		for (const tarball of tarballsUnderTest()) await n8n.installCommunityPackage(tarball);
		const credentials = demoCredentials(sim.info);
		const wallet = credentials.find((c) => c.type === 'x402WalletApi');
		if (!wallet) throw new Error('no demo wallet credential');
		await n8n.importCredentials([...credentials, { ...wallet, ...CHEAP_WALLET, data: { ...wallet.data, maxPricePerRequest: 0.005 } }]);
		workflows = mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-agent-workflows-'));
		const variants = [
			example7(),
			fetchOnlyAgent('scrE2eAgentBudget', () => undefined),
			fetchOnlyAgent('scrE2eAgentRefuse', (fetch) => {
				fetch.credentials = { x402WalletApi: CHEAP_WALLET };
			}),
			platformAgent(),
		];
		for (const wf of variants) writeFileSync(path.join(workflows, `${wf.id}.json`), JSON.stringify(wf));
		await n8n.importWorkflows(workflows);
	});

	afterAll(async () => {
		await sim?.close();
		if (n8n) rmSync(n8n.userFolder, { recursive: true, force: true });
		if (workflows) rmSync(workflows, { recursive: true, force: true });
	});

	beforeEach(() => {
		sim.model.reset();
		sim.gateway.server.log.clear();
		sim.platform.server.log.clear();
	});

	test('example 7: the agent searches, reads the 3 pages it picked (paid and settled once each) and ends in one sheet row per page', async () => {
		// The example wires our gateway node in as n8n offers it to an agent: the `...Tool` type.
		expect(example7().nodes.filter((n) => n.type === X402_TOOL).map((n) => n.name)).toEqual(['Search Web', 'Fetch Page']);
		const before = await sim.gateway.balanceOf(payer());
		const settledBefore = sim.gateway.settlements.length;
		const run = expectSuccess(await n8n.execute('scrExample07Agent'));

		// What the model was offered: our two tools, described with what they return and cost, and the arguments.
		const offered = sim.model.requests[0].tools?.map((t) => ({ name: t.function.name, description: t.function.description, args: Object.keys((t.function.parameters as { properties?: object })?.properties ?? {}) }));
		expect(offered?.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
			{ name: 'Fetch_Page', description: 'Fetch page as Markdown (0.01 USDC per page, paid from wallet) in Scraper Gateway', args: ['url'] },
			{ name: 'Search_Web', description: 'Search web for titles, links and snippets (0.01 USDC per search, paid from wallet) in Scraper Gateway', args: ['query'] },
		]);

		// The search the model asked for, then the three pages it chose from the results.
		const searches = sim.gateway.server.log.for('POST /api/service/webSearch').filter((r) => r.headers['payment-signature']);
		expect(searches.map((r) => (r.body as { query: string }).query)).toEqual(['Which heat pumps work best in cold climates?']);
		const searchResult = JSON.parse(sim.model.requests[1].messages.find((m) => m.role === 'tool')?.content as string) as Array<{ results: Array<{ url: string }> }>;
		const chosen = searchResult[0].results.slice(0, 3).map((r) => r.url);
		const fetches = sim.gateway.server.log.for('POST /api/service/scraperAPI').filter((r) => r.headers['payment-signature']);
		expect(fetches.map((r) => (r.body as { url: string }).url).sort()).toEqual([...chosen].sort());
		for (const r of fetches) expect(r.body).toEqual({ url: (r.body as { url: string }).url, html: false, screenshot: false });

		// On chain: 4 payments of 0.01 USDC, each settled once.
		const settlements = sim.gateway.settlements.slice(settledBefore);
		expect(settlements).toHaveLength(4);
		expect(new Set(settlements.map((s) => s.transaction)).size).toBe(4);
		expect(await sim.gateway.balanceOf(payer())).toBe(before - 4n * PRICE_ATOMIC);

		// One row per page, its receipt from the tool (not the model's text), its summary from the agent's answer.
		const rows = nodeOutput(run, 'Rows for Sheet');
		expect(rows.map((r) => Object.keys(r.json))).toEqual(chosen.map(() => ['Question', 'Page URL', 'Summary', 'Paid (USDC)', 'Transaction']));
		expect(rows.map((r) => r.json['Page URL']).sort()).toEqual([...chosen].sort());
		for (const row of rows) {
			const settlement = settlements.find((s) => s.target === row.json['Page URL']);
			expect(row.json).toMatchObject({ Question: 'Which heat pumps work best in cold climates?', 'Paid (USDC)': 0.01, Transaction: settlement?.transaction });
			expect(String(row.json.Summary).length).toBeGreaterThan(10);
			expect(agentAnswer(run)).toContain(`- ${String(row.json['Page URL'])}: ${String(row.json.Summary)}`);
		}
	});

	test('Max Total Spend 0.05 USDC, a model that asks for 20 pages: exactly 5 paid, the budget sentence for the other 15, the execution succeeds with the answer', async () => {
		const urls = pageUrls(20);
		sim.model.setScript([{ toolCalls: urls.map((url) => ({ tool: 'Fetch_Page', arguments: { url } })) }, { answer: 'What I could read:\n{{toolResults}}' }]);
		const before = await sim.gateway.balanceOf(payer());
		const settledBefore = sim.gateway.settlements.length;
		const run = expectSuccess(await n8n.execute('scrE2eAgentBudget'));

		const settlements = sim.gateway.settlements.slice(settledBefore);
		expect(settlements).toHaveLength(5);
		expect(new Set(settlements.map((s) => s.target)).size).toBe(5);
		for (const s of settlements) expect(urls).toContain(s.target);
		expect(await sim.gateway.balanceOf(payer())).toBe(before - 5n * PRICE_ATOMIC);
		const signed = sim.gateway.server.log.for('POST /api/service/scraperAPI').filter((r) => r.headers['payment-signature']);
		expect(signed).toHaveLength(5);

		// The model got 20 tool answers: 5 pages with receipts, 15 budget sentences.
		const toolMessages = sim.model.toolMessages();
		expect(toolMessages).toHaveLength(20);
		const answers = toolMessages.map((m) => (JSON.parse(m) as Array<Record<string, unknown>>)[0]);
		expect(answers.filter((a) => a.payment)).toHaveLength(5);
		expect(answers.filter((a) => a.response === budgetSentence)).toHaveLength(15);
		const answer = agentAnswer(run);
		expect(answer.startsWith('What I could read:')).toBe(true);
		expect(answer.split(budgetSentence).length - 1).toBe(15);
	});

	test('a price above the credential maximum reaches the agent as a sentence, with nothing signed', async () => {
		sim.model.setScript([{ toolCalls: pageUrls(2).map((url) => ({ tool: 'Fetch_Page', arguments: { url } })) }, { answer: '{{toolResults}}' }]);
		const before = await sim.gateway.balanceOf(payer());
		const settledBefore = sim.gateway.settlements.length;
		const run = expectSuccess(await n8n.execute('scrE2eAgentRefuse'));

		expect(sim.gateway.server.log.entries.filter((r) => r.headers['payment-signature'])).toHaveLength(0);
		expect(sim.gateway.settlements.length).toBe(settledBefore);
		expect(await sim.gateway.balanceOf(payer())).toBe(before);
		const toolMessages = sim.model.toolMessages();
		expect(toolMessages).toHaveLength(2);
		for (const message of toolMessages) {
			const [answer] = JSON.parse(message) as Array<{ response: string }>;
			expect(answer.response).toMatch(/^Payment refused, nothing was signed: .*0\.005 USDC.*do not call it again in this run/);
		}
		expect(agentAnswer(run)).toContain('Payment refused, nothing was signed');
	});

	test('Platform tools: Result > Get by the id the model read from the previous tool output', async () => {
		sim.model.setScript([
			{ toolCalls: [{ tool: 'List_Results', arguments: {} }] },
			{ toolCalls: [{ tool: 'Get_Result', arguments: { resultId: { fromLastToolResult: '1.id' } } }] },
			{ answer: '{{lastToolResult}}' },
		]);
		const run = expectSuccess(await n8n.execute('scrE2eAgentPlat'));
		const listed = JSON.parse(sim.model.requests[1].messages.find((m) => m.role === 'tool')?.content as string) as Array<{ id: string; status: string }>;
		expect(listed).toHaveLength(3);
		// Output: Selected Fields, status and URL: the ID and those two, nothing else.
		for (const result of listed) expect(Object.keys(result).sort()).toEqual(['id', 'status', 'url']);
		const reads = sim.platform.server.log.for('GET /api/v1/results/:id');
		expect(reads.map((r) => r.path)).toEqual([`/api/v1/results/${listed[1].id}`]);
		const [read] = JSON.parse(agentAnswer(run)) as Array<{ id: string; status: string }>;
		expect(read).toMatchObject({ id: listed[1].id, status: listed[1].status });
		// Output: Simplified (the default): at most ten fields, no file paths.
		expect(Object.keys(read).length).toBeLessThanOrEqual(10);
		expect(read).not.toHaveProperty('htmlPath');
	});
});
