/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- end-to-end test in plain Node: it runs the demo (a fixed command) as a child process and drives chromium */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { BrowserContext, Dialog, Page } from 'playwright-core';
import { createPublicClient, http, parseAbi } from 'viem';

import type { INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { ScraperPlatformTrigger } from '../../nodes/ScraperPlatform/ScraperPlatformTrigger.node';
import { ScraperMarketplace } from '../../nodes/ScraperMarketplace/ScraperMarketplace.node';
import { ScraperPlatform } from '../../nodes/ScraperPlatform/ScraperPlatform.node';
import { ScraperMarketplaceTrigger } from '../../nodes/ScraperMarketplace/ScraperMarketplaceTrigger.node';
import { ScraperGateway } from '../../x402/nodes/ScraperGateway/ScraperGateway.node';
import { cleanEnv } from '../../scripts/demo/commands';
import { CREDENTIAL_REFS } from '../../scripts/demo/credentials';
import { killGroup } from '../../scripts/demo/groups';
import { ManagedProcess } from '../../scripts/demo/managed-process';
import { REPO_ROOT } from '../../scripts/demo/pack';
import { freePort, portInUse } from '../../scripts/demo/ports';
import type { SimulatorInfo } from '../simulator/index';
import { PRICE_ATOMIC } from '../simulator/index';
import { SCREENSHOTS, launchChromium } from './infra/browser';
import { isAlive } from './infra/queue/procfs';
import { versionsUnderTest } from './support';

/** Every action of a node as the node creator lists it, and the first-declared operation of each resource. */
function actionsOf(description: INodeTypeDescription): { all: string[]; onePerResource: Array<{ resource: string; operation: string; action: string }> } {
	const resources = (description.properties.find((p) => p.name === 'resource')?.options ?? []) as INodePropertyOptions[];
	const selectors = description.properties.filter((p) => p.name === 'operation');
	const all = selectors.flatMap((p) => (p.options as INodePropertyOptions[]).map((o) => String(o.action)));
	const onePerResource = selectors.map((p) => {
		const resource = resources.find((r) => r.value === p.displayOptions?.show?.resource?.[0])?.name ?? '';
		const operation = (p.options as INodePropertyOptions[]).find((o) => o.value === p.default) as INodePropertyOptions;
		return { resource, operation: operation.name, action: String(operation.action) };
	});
	return { all, onePerResource };
}
const ACTION_NODES = [new ScraperPlatform(), new ScraperMarketplace(), new ScraperGateway()].map((node) => ({ name: node.description.displayName, ...actionsOf(node.description) }));
/** What "scraper" finds in the node creator: the nodes with actions; each trigger is listed inside its node's panel. */
const NODE_NAMES = ACTION_NODES.map(({ name }) => name).sort();

/** The node creator's entry for a trigger's event: "On " and the event's name in lower case. */
const eventEntry = (event: string) => `On ${event.toLowerCase()}`;
/**
 * Each trigger: the node whose panel lists it, its events' entries, and the parameters its form always shows for its
 * first event (shown by no condition but that event; not a notice or a collection).
 */
const TRIGGER_NODES = [
	{ service: 'Scraper Platform', node: new ScraperPlatformTrigger() },
	{ service: 'Scraper Marketplace', node: new ScraperMarketplaceTrigger() },
].map(({ service, node: { description } }) => {
	const event = description.properties[0];
	const events = (event.options ?? []) as INodePropertyOptions[];
	const first = events.find((option) => option.value === event.default) as INodePropertyOptions;
	const shownFor = (p: (typeof description.properties)[number]) =>
		!p.displayOptions || (Object.keys(p.displayOptions.show ?? {}).join() === 'event' && !p.displayOptions.hide && p.displayOptions.show?.event?.includes(first.value));
	return {
		service,
		name: description.displayName,
		entries: events.map((option) => eventEntry(option.name)),
		firstEntry: eventEntry(first.name),
		fields: description.properties
			.filter((p) => shownFor(p) && ['options', 'boolean', 'string', 'number', 'resourceLocator', 'fixedCollection'].includes(p.type))
			.map((p) => p.displayName),
	};
});
const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** Each node's icon is served from its own package: the Gateway from the x402 package, the rest from the core. */
const iconPath = (node: string) =>
	`/icons/${node === 'Scraper Gateway' ? 'n8n-nodes-scraper-service-x402' : 'n8n-nodes-scraper-service'}/dist/icons/scraper.svg`;

interface DemoReady {
	url: string;
	email: string;
	password: string;
	n8nPid: number;
	simulatorPid: number;
	simulator: SimulatorInfo;
}

/** The browser test runs on the first version under test (the demo's n8n) unless E2E_BROWSER_VERSIONS says more. */
const browserVersions = (process.env.E2E_BROWSER_VERSIONS ?? versionsUnderTest()[0]).split(',').filter(Boolean);

/** Whether `text` is one whole JSON document. */
function parsesAsJson(text: string): boolean {
	try {
		JSON.parse(text);
		return true;
	} catch {
		return false;
	}
}

/** Reads until `ok` holds or the time is up; returns the last value read (the assertion comes after). */
async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let value = await read();
	while (!ok(value) && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 200));
		value = await read();
	}
	return value;
}

describe.each(browserVersions)('the demo (n8n %s) in chromium', (version) => {
	let demo: ManagedProcess;
	let ready: DemoReady;
	let context: BrowserContext;
	let page: Page;
	const folders: string[] = [];
	const shots = path.join(SCREENSHOTS, version);
	const shot = async (name: string) => await page.screenshot({ path: path.join(shots, `${name}.png`) });
	/** Waits for the page's running animations (a panel sliding in), at most 2 s, so a screenshot shows where they end. */
	const settle = async () =>
		await page.evaluate(async () => {
			const doc = (globalThis as unknown as { document: { getAnimations: () => Array<{ finished: Promise<unknown> }> } }).document;
			const done = Promise.all(doc.getAnimations().map(async (animation) => await animation.finished.catch(() => undefined)));
			await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 2_000))]);
		});

	/** USDC balance on the demo's chain, read over its RPC like any wallet app would. */
	const balanceOf = async (address: string): Promise<bigint> => {
		const client = createPublicClient({ transport: http(ready.simulator.chain.rpcUrl) });
		return await client.readContract({
			address: ready.simulator.chain.tokenAddress as `0x${string}`,
			abi: parseAbi(['function balanceOf(address) view returns (uint256)']),
			functionName: 'balanceOf',
			args: [address as `0x${string}`],
		});
	};

	const openWorkflow = async (id: string) => {
		await page.goto(`${ready.url}/workflow/${id}`);
		await page.locator('[data-test-id="canvas-node"]').first().waitFor();
	};

	const visibleOptions = async () => (await page.locator('.el-select-dropdown__item:visible').allInnerTexts()).map((t) => t.trim()).filter(Boolean);

	/** Closes an open dropdown, then the node view, and waits until the canvas is usable again. */
	const closeNodeView = async () => {
		for (let i = 0; i < 3 && (await visibleOptions()).length > 0; i++) {
			await page.keyboard.press('Escape');
			await eventually(visibleOptions, (o) => o.length === 0, 2_000);
		}
		// n8n 2.x closes the node view with its close button, 1.x with "Back to canvas".
		await page.locator('[data-test-id="ndv-close-button"], [data-test-id="back-to-canvas"]').first().click();
		await page.locator('[data-test-id="node-parameters"]').waitFor({ state: 'hidden' });
	};

	/**
	 * In a workflow without a trigger, the panel of a service with one lists its triggers first and folds its actions
	 * under "Actions (n)": unfold them when `action` is not in sight yet (a click on an unfolded header would fold it).
	 */
	const unfoldActions = async (action: string) => {
		const item = page.locator('[data-test-id="item-iterator-item"]').filter({ hasText: action }).first();
		const header = page.getByText(/^Actions \(\d+\)$/).first();
		await Promise.race([item.waitFor(), header.waitFor()]);
		// The panel may still be rendering its list when the header shows: a click then would fold it. Click only
		// when the action stays out of sight, and again should that click have folded what was about to show.
		for (let clicks = 0; clicks < 2; clicks++) {
			const shown = await item.waitFor({ timeout: 2_000 }).then(
				() => true,
				() => false,
			);
			if (shown) return;
			await header.click();
		}
		await item.waitFor();
	};

	/** Opens a trigger of a saved workflow and runs its Fetch Test Event; returns the output panel and its item count. */
	const fetchTestEvent = async (workflowId: string, nodeName: string) => {
		await openWorkflow(workflowId);
		await page.locator(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`).dblclick();
		await page.locator('[data-test-id="node-execute-button"]').click();
		const output = page.locator('[data-test-id="output-panel"]');
		const count = output.locator('[data-test-id="ndv-items-count"]');
		await count.waitFor({ timeout: 60_000 });
		return { output, count: (await count.innerText()).trim() };
	};

	const runWorkflowInEditor = async (lastNodeItems: RegExp) => {
		await page.locator('[data-test-id="execute-workflow-button"]').click();
		// The last edge (after the final Set node) carries the item count once every node has run.
		await page.locator('[data-test-id="edge-label"]').last().filter({ hasText: lastNodeItems }).waitFor({ timeout: 120_000 });
	};

	beforeAll(async () => {
		mkdirSync(shots, { recursive: true });
		const userFolder = mkdtempSync(path.join(os.tmpdir(), `n8n-demo-e2e-${version}-`));
		const profile = mkdtempSync(path.join(os.tmpdir(), 'chromium-profile-'));
		folders.push(userFolder, profile);
		const port = await freePort();
		// The demo exactly as `npm start` runs it, on free ports and a fresh n8n folder so it cannot collide with a
		// demo the developer has running.
		const args = ['--import', 'tsx', 'scripts/demo/demo.ts', '--no-build', '--ready-json', `--port=${port}`, '--sim-ports=0,0,0,0', `--user-folder=${userFolder}`, `--n8n-version=${version}`];
		// Stopped as a terminal's Ctrl-C stops it: SIGINT to its process group; it has 60 s to stop what it started.
		demo = ManagedProcess.start('The demo', process.execPath, args, { cwd: REPO_ROOT, env: cleanEnv(), stopSignal: 'SIGINT', graceMs: 60_000 });
		const [, json] = await demo.waitForLog(/^DEMO_READY (.+)$/m, 540_000, 'say it is ready');
		ready = JSON.parse(json) as DemoReady;
		context = await launchChromium(profile);
		page = context.pages()[0] ?? (await context.newPage());
	});

	afterAll(async () => {
		await context?.close();
		// Safety net when the Ctrl-C test did not run or failed: the demo stops what it started on SIGINT; n8n and
		// the simulator run in process groups of their own, so they are ended here too should the demo not manage.
		await demo?.stop('SIGINT', 30_000);
		killGroup(ready?.n8nPid, 'SIGKILL');
		killGroup(ready?.simulatorPid, 'SIGKILL');
		for (const folder of folders) rmSync(folder, { recursive: true, force: true });
	});

	test('the demo prints the login, and it signs in to the editor', async () => {
		expect(demo.log).toContain(`Open:      ${ready.url}`);
		expect(demo.log).toContain(`Log in:    ${ready.email} / ${ready.password}`);
		await page.goto(ready.url);
		await page.waitForURL(/\/signin/);
		await page.locator('input[name="emailOrLdapLoginId"]').fill(ready.email);
		await page.locator('input[name="password"]').fill(ready.password);
		await shot('01-sign-in');
		await page.locator('[data-test-id="form-submit-button"]').click();
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
		await shot('02-signed-in');
	});

	test('the node panel finds the three Scraper nodes for "scraper" (no trigger apart), each with its icon', async () => {
		await openWorkflow('scrExample04Paid');
		await page.locator('[data-test-id="node-creator-plus-button"]').click();
		await page.locator('input[data-test-id="node-creator-search-bar"], [data-test-id="node-creator-search-bar"] input').first().fill('scraper');
		const items = page.locator('[data-test-id="item-iterator-item"]');
		await items.filter({ hasText: 'Scraper Platform' }).first().waitFor();
		const names = (await page.locator('[data-test-id="node-creator-item-name"]').allTextContents()).map((t) => t.trim());
		expect([...names].sort()).toEqual(NODE_NAMES);
		for (const name of NODE_NAMES) {
			const icon = items.filter({ hasText: name }).locator('img').first();
			expect(await icon.getAttribute('src')).toContain(iconPath(name));
			// Loaded from our packages, not a broken image.
			const width = await eventually(async () => await icon.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), (w) => w > 0);
			expect(width).toBeGreaterThan(0);
		}
		await shot('03-node-panel-scraper');
		await page.keyboard.press('Escape');
	});

	test("each Scraper node from the node creator: every action listed, and one operation of each resource opened", async () => {
		const searchFor = async (name: string) => {
			await page.locator('[data-test-id="node-creator-plus-button"]').click();
			await page.locator('input[data-test-id="node-creator-search-bar"], [data-test-id="node-creator-search-bar"] input').first().fill(name);
			await page.locator('[data-test-id="item-iterator-item"]').filter({ hasText: name }).first().click();
		};
		const items = page.locator('[data-test-id="item-iterator-item"]');
		const form = page.locator('[data-test-id="node-parameters"]');
		// Leaving a workflow with unsaved nodes may ask first: leave anyway.
		const leave = (dialog: Dialog) => void dialog.accept();
		page.on('dialog', leave);
		try {
			for (const node of ACTION_NODES) {
				await page.goto(`${ready.url}/workflow/new`);
				await searchFor(node.name);
				await unfoldActions(node.all[0]);
				const listed = await eventually(async () => (await items.allInnerTexts()).join('\n'), (text) => node.all.every((action) => text.includes(action)));
				for (const action of node.all) expect(listed).toContain(action);
				await settle();
				await shot(`13-actions-${slug(node.name)}`);
				await page.keyboard.press('Escape');
				for (const { resource, operation, action } of node.onePerResource) {
					await searchFor(node.name);
					await unfoldActions(action);
					await items.filter({ hasText: action }).first().click();
					await form.waitFor();
					expect(await page.locator('[data-test-id="parameter-input-resource"] input').inputValue()).toBe(resource);
					expect(await page.locator('[data-test-id="parameter-input-operation"] input').inputValue()).toBe(operation);
					await settle();
					await shot(`14-${slug(node.name)}-${slug(resource)}-${slug(operation)}`);
					await closeNodeView();
				}
			}
			await openWorkflow('scrExample04Paid');
		} finally {
			page.off('dialog', leave);
		}
	});

	test("searching \"Scraper\" in a new workflow: the Platform's and the Marketplace's panels each list their trigger and their actions", async () => {
		const items = page.locator('[data-test-id="item-iterator-item"]');
		const leave = (dialog: Dialog) => void dialog.accept();
		page.on('dialog', leave);
		try {
			for (const trigger of TRIGGER_NODES) {
				const actions = ACTION_NODES.find((node) => node.name === trigger.service)?.all ?? [];
				expect(actions.length).toBeGreaterThan(0);
				await page.goto(`${ready.url}/workflow/new`);
				await page.locator('[data-test-id="node-creator-plus-button"]').click();
				await page.locator('input[data-test-id="node-creator-search-bar"], [data-test-id="node-creator-search-bar"] input').first().fill('Scraper');
				await items.filter({ hasText: trigger.service }).first().click();
				const panel = page.locator('[data-test-id="node-creator"]');
				// The counts n8n puts on the two sections, then the actions unfolded.
				await panel.getByText(`Triggers (${trigger.entries.length})`, { exact: true }).waitFor();
				await panel.getByText(`Actions (${actions.length})`, { exact: true }).waitFor();
				await settle();
				await shot(`16-panel-${slug(trigger.service)}`);
				await unfoldActions(actions[0]);
				const listed = await eventually(
					async () => await panel.innerText(),
					(text) => [...trigger.entries, ...actions].every((entry) => text.includes(entry)),
				);
				for (const entry of [...trigger.entries, ...actions]) expect(listed).toContain(entry);
				// Not the empty panel n8n shows a service without triggers, offering Schedule and Webhook instead.
				expect(listed).not.toMatch(/No .* Triggers available/);
				await settle();
				await shot(`16-panel-${slug(trigger.service)}-actions`);
				await page.keyboard.press('Escape');
			}
		} finally {
			page.off('dialog', leave);
		}
	});

	test("each Scraper trigger from its service's panel: added as the first step, its form shows its parameters", async () => {
		const form = page.locator('[data-test-id="node-parameters"]');
		const leave = (dialog: Dialog) => void dialog.accept();
		page.on('dialog', leave);
		try {
			for (const trigger of TRIGGER_NODES) {
				expect(trigger.fields.length).toBeGreaterThan(0);
				await page.goto(`${ready.url}/workflow/new`);
				await page.locator('[data-test-id="node-creator-plus-button"]').click();
				await page.locator('input[data-test-id="node-creator-search-bar"], [data-test-id="node-creator-search-bar"] input').first().fill(trigger.service);
				const items = page.locator('[data-test-id="item-iterator-item"]');
				await items.filter({ hasText: trigger.service }).first().click();
				await items.filter({ hasText: trigger.firstEntry }).first().click();
				await form.waitFor();
				expect(await eventually(async () => await page.locator('[data-test-id="canvas-trigger-node"]').count(), (n) => n > 0)).toBe(1);
				const labels = await eventually(
					async () => (await form.locator('[data-test-id="input-label"]').allInnerTexts()).map((t) => t.split('\n')[0].trim()),
					(shown) => trigger.fields.every((field) => shown.includes(field)),
				);
				for (const field of trigger.fields) expect(labels).toContain(field);
				await settle();
				await shot(`15-${slug(trigger.name)}`);
				await closeNodeView();
			}
		} finally {
			// Whatever happened here, the tests after this one start from the paid example.
			await openWorkflow('scrExample04Paid');
			page.off('dialog', leave);
		}
	});

	test('the Gateway node opens with its parameter form and the demo wallet credential', async () => {
		await page.locator('[data-test-id="canvas-node"][data-node-name="Fetch Page (0.01 USDC each)"]').dblclick();
		const form = page.locator('[data-test-id="node-parameters"]');
		await form.waitFor();
		expect(await page.locator('[data-test-id="node-credentials-select"] input').inputValue()).toBe('x402 Wallet (demo chain)');
		expect(await page.locator('[data-test-id="parameter-input-resource"] input').inputValue()).toBe('Page');
		expect(await page.locator('[data-test-id="parameter-input-operation"] input').inputValue()).toBe('Fetch');
		expect((await page.locator('[data-test-id="parameter-input-url"]').innerText()).trim()).toBe('{{ $json.url }}');
		const switchOn = async (name: string) => ((await page.locator(`[data-test-id="parameter-input-${name}"] .el-switch`).getAttribute('class')) ?? '').includes('is-checked');
		expect(await switchOn('html')).toBe(false);
		expect(await switchOn('markdown')).toBe(true);
		expect(await switchOn('screenshot')).toBe(true);
		const labels = (await form.locator('[data-test-id="input-label"]').allInnerTexts()).map((t) => t.split('\n')[0].trim());
		expect(labels).toEqual(expect.arrayContaining(['Resource', 'Operation', 'URL', 'Additional Fields', 'HTML', 'Markdown', 'Screenshot', 'Options']));
		await shot('04-gateway-node-form');

		// n8n 2.x adds a collection's field with a button, 1.x with a select.
		const adders = async () => {
			const buttons = form.locator('[data-test-id="collection-parameter-add"]');
			return (await buttons.count()) > 0 ? buttons : form.locator('.collection-parameter .el-select');
		};
		await (await adders()).first().click();
		expect(await eventually(visibleOptions, (o) => o.includes('Wait Until'))).toEqual([
			'Block Resources',
			'Max Retries',
			'Proxy Country',
			'Return Cookies',
			'Super Mode',
			'Timeout (Seconds)',
			'Token Cap',
			'Wait for Selector',
			'Wait Until',
			'Warm Start',
		]);
		await shot('05-gateway-add-field');
		await page.keyboard.press('Escape');
		await eventually(visibleOptions, (o) => o.length === 0, 5_000);
		await (await adders()).last().click();
		expect(await eventually(visibleOptions, (o) => o.includes('Parallel Requests'))).toEqual([
			'Max Total Spend per Execution (USDC)',
			'Parallel Requests',
			'Response Deadline (Seconds)',
		]);
		await closeNodeView();
	});

	test('running the paid example in the editor pays 0.01 USDC per page on chain', async () => {
		const wallet = ready.simulator.chain.demoWallet.address;
		const before = await balanceOf(wallet);
		await runWorkflowInEditor(/^3 items$/);
		await shot('06-paid-run-in-editor');
		expect(await balanceOf(wallet)).toBe(before - 3n * PRICE_ATOMIC);
	});

	test('the Scraper Platform Trigger (example 6) fetches the bulk job example 2 completed as its test event', async () => {
		await openWorkflow('scrExample02Bulk');
		await runWorkflowInEditor(/^\d+ items?$/);
		const merged = Number((await page.locator('[data-test-id="edge-label"]').last().innerText()).match(/\d+/)?.[0]);
		await shot('07-bulk-run-in-editor');
		expect(merged).toBeGreaterThanOrEqual(4);

		const { output, count } = await fetchTestEvent('scrExample06Trig', 'When a Bulk Job Completes');
		expect(count).toBe(`${merged} items`);
		// The records themselves, with the job's id on each (the table renders a moment after the count).
		await output.locator('[data-test-id="ndv-data-container"]').getByText('bulkId', { exact: true }).first().waitFor();
		await shot('08-bulk-trigger-test-event');
		await closeNodeView();
	});

	test('a new Bulk > Start picks a demo manual scraper from the list and starts a job on it', async () => {
		await page.goto(`${ready.url}/workflow/new`);
		await page.locator('[data-test-id="node-creator-plus-button"]').click();
		await page.locator('input[data-test-id="node-creator-search-bar"], [data-test-id="node-creator-search-bar"] input').first().fill('Scraper Platform');
		const items = page.locator('[data-test-id="item-iterator-item"]');
		await items.filter({ hasText: 'Scraper Platform' }).first().click();
		await unfoldActions('Start bulk job');
		await items.filter({ hasText: 'Start bulk job' }).click();
		const form = page.locator('[data-test-id="node-parameters"]');
		await form.waitFor();
		// An action cannot start a workflow: n8n puts a Manual Trigger in front of it, which "Execute step" runs first.
		expect(await eventually(async () => await page.locator('[data-test-id="canvas-trigger-node"]').count(), (n) => n > 0)).toBe(1);
		// The demo has one Scraper Platform credential, so n8n selects it for a new node.
		const credential = async () => await page.locator('[data-test-id="node-credentials-select"] input').inputValue();
		expect(await eventually(credential, (name) => name !== '')).toBe(CREDENTIAL_REFS.scraperPlatformApi.name);
		expect(await page.locator('[data-test-id="parameter-input-scraperKind"] input').inputValue()).toBe('Manual');

		const locator = page.locator('[data-test-id="resource-locator-scraperId"]');
		expect(await locator.locator('[data-test-id="rlc-mode-selector"] input').inputValue()).toBe('From list');
		await locator.locator('[data-test-id="rlc-input"]').click();
		// The list comes from the service once the picker opens (n8n 2.8.4 renders no test id on the popover itself).
		const listed = page.locator('[data-test-id="rlc-item"]');
		const names = await eventually(async () => (await listed.allInnerTexts()).map((t) => t.trim()), (n) => n.length >= 3);
		// The popover slides in: let it settle so the screenshot shows the list, not a half-transparent overlap.
		await page
			.locator('[role="dialog"]')
			.filter({ has: listed })
			.evaluate(async (popover) => {
				const animations = (popover as unknown as { getAnimations: (o: { subtree: boolean }) => Array<{ finished: Promise<unknown> }> }).getAnimations({ subtree: true });
				await Promise.all(animations.map(async (animation) => await animation.finished));
			});
		await shot('09-bulk-start-pick-scraper');
		// The three demo manual scrapers, each once; the demo's three AI scrapers have no place in a manual bulk job.
		expect(names).toHaveLength(ready.simulator.demoManualScraperIds.length);
		expect(names.filter((name) => name.includes('AI scraper'))).toEqual([]);
		// Each named by the end of its id first, which stays while the URL of its newest result changes.
		for (const id of ready.simulator.demoManualScraperIds) {
			expect(names.filter((name) => name.startsWith(`…${id.slice(-8)} · `))).toHaveLength(1);
		}
		const picked = ready.simulator.demoManualScraperIds[1];
		const pickedName = names.find((name) => name.startsWith(`…${picked.slice(-8)} · `)) as string;
		await listed.filter({ hasText: pickedName }).click();
		expect(await locator.locator('[data-test-id="rlc-input"]').inputValue()).toBe(pickedName);
		await page.locator('[data-test-id="parameter-input-urls"] textarea').fill('https://shop.example.com/item/1\nhttps://shop.example.com/item/2');
		await shot('10-bulk-start-picked');

		await page.locator('[data-test-id="node-execute-button"]').click();
		const output = page.locator('[data-test-id="output-panel"]');
		await output.locator('[data-test-id="ndv-items-count"]').waitFor({ timeout: 60_000 });
		expect((await output.locator('[data-test-id="ndv-items-count"]').innerText()).trim()).toBe('1 item');
		// The JSON view puts each token on a line of its own: joining the lines gives the items back as JSON.
		await output.locator('[data-test-id="radio-button-json"]').click();
		// It renders progressively: read it until the whole document is there (it parses).
		const joined = await eventually(
			async () => (await output.locator('[data-test-id="ndv-data-container"]').innerText()).replace(/\n\s*/g, ''),
			(text) => text.includes('"scraperId"') && parsesAsJson(text),
		);
		// Simplify is on in a new node: the job's status and counts, flat.
		const records = JSON.parse(joined) as Array<{ scraperId: string; totalUrls: number; completed: boolean }>;
		expect(records).toHaveLength(1);
		expect(records[0].scraperId).toBe(picked);
		expect(records[0]).toMatchObject({ totalUrls: 2, completed: false });
		expect(records[0]).not.toHaveProperty('urlDetails');
		await shot('11-bulk-start-output');
		await closeNodeView();

		// Executing saved the new workflow, so n8n 2.8.4 lets the page go without asking; should a later n8n ask
		// (beforeunload), leave anyway so the tests after this one find a usable editor.
		const leave = (dialog: Dialog) => void dialog.accept();
		page.on('dialog', leave);
		try {
			await openWorkflow('scrExample04Paid');
		} finally {
			page.off('dialog', leave);
		}
	});

	test("a new Page > Fetch offers the vendor's options: Markdown, Screenshot, HTML, Proxy Country, Wait Until, Return Cookies, Super Mode", async () => {
		await page.goto(`${ready.url}/workflow/new`);
		await page.locator('[data-test-id="node-creator-plus-button"]').click();
		await page.locator('input[data-test-id="node-creator-search-bar"], [data-test-id="node-creator-search-bar"] input').first().fill('Scraper Platform');
		const items = page.locator('[data-test-id="item-iterator-item"]');
		await items.filter({ hasText: 'Scraper Platform' }).first().click();
		await unfoldActions('Fetch page as HTML, Markdown or screenshot');
		await items.filter({ hasText: 'Fetch page as HTML, Markdown or screenshot' }).click();
		const form = page.locator('[data-test-id="node-parameters"]');
		await form.waitFor();
		expect(await page.locator('[data-test-id="parameter-input-operation"] input').inputValue()).toBe('Fetch');
		// n8n 2.x adds a collection's field with a button, 1.x with a select; Options is this operation's one collection.
		const buttons = form.locator('[data-test-id="collection-parameter-add"]');
		await ((await buttons.count()) > 0 ? buttons : form.locator('.collection-parameter .el-select')).first().click();
		const offered = await eventually(visibleOptions, (o) => o.includes('Super Mode'));
		expect(offered).toEqual(expect.arrayContaining(['HTML', 'Markdown', 'Proxy Country', 'Return Cookies', 'Screenshot', 'Super Mode', 'Wait Until', 'Country', 'Timeout (Seconds)']));
		// Sorted by name, as n8n's guidelines ask of an Options collection.
		const named = offered.filter((name) => name !== 'Parallel Requests');
		expect(named).toEqual([...named].sort((a, b) => a.localeCompare(b)));
		await shot('11b-page-fetch-options');
		await page.keyboard.press('Escape');
		await closeNodeView();
	});

	test("the Scraper Marketplace Trigger (example 8) fetches the demo's scheduled scraper's newest finished run as its test event", async () => {
		const { output, count } = await fetchTestEvent('scrExample08Runs', 'When a Scraping Run Finishes');
		// One item per listing of that run (the portal scraper's runs have several), each with the run's ids.
		const items = Number(count.match(/\d+/)?.[0]);
		expect(items).toBeGreaterThan(1);
		await output.locator('[data-test-id="radio-button-json"]').click();
		const json = await eventually(
			async () => await output.locator('[data-test-id="ndv-data-container"]').innerText(),
			(text) => text.includes('"scraping_run_id"'),
		);
		// The JSON view renders only the lines in sight: check the first record's ids, not the whole list.
		const compact = json.replace(/\s+/g, '');
		expect(compact).toMatch(/^\[\{"scraper_id":101,"scraping_run_id":\d+,"result_id":\d+/);
		await shot('12-run-trigger-test-event');
		await closeNodeView();
	});

	test("the Scraper Platform Trigger's Page Changed (example 12) fetches the page once as its test event and says what a poll would do", async () => {
		const { output, count } = await fetchTestEvent('scrExample12Page', 'When the Product Page Changes');
		expect(count).toBe('1 item');
		await output.locator('[data-test-id="radio-button-json"]').click();
		const json = await eventually(
			async () => (await output.locator('[data-test-id="ndv-data-container"]').innerText()).replace(/\n\s*/g, ''),
			(text) => text.includes('"note"') && parsesAsJson(text),
		);
		const [item] = JSON.parse(json) as Array<{ url: string; changed: boolean; text: string; note: string; tokenUsage: number }>;
		// Never activated: nothing recorded yet, so the test event shows what the first poll would record.
		expect(item).toMatchObject({ url: 'https://shop.example.com/sim-changing/desk-lamp', changed: false });
		expect(item.text).toMatch(/\$\d+\.\d\d/);
		expect(item.note).toMatch(/^Nothing is recorded for this URL yet/);
		expect(item.tokenUsage).toBeGreaterThan(0);
		await shot('17-page-changed-test-event');
		await closeNodeView();
	});

	test("the credential Test button names a malformed field in the node's words, and passes a good one", async () => {
		// What the Test button sends while the user edits the demo credential (the editor's own REST call, with its
		// browser id): the credential's id and the fields as typed, not saved.
		const testCredential = async (type: keyof typeof CREDENTIAL_REFS, data: Record<string, string>) =>
			await page.evaluate(
				async ({ type, data, id }) => {
					// Runs in the page: its storage holds the browser id n8n ties the session to.
					const storage = (globalThis as unknown as { localStorage: { getItem: (key: string) => string | null } }).localStorage;
					const response = await fetch('/rest/credentials/test', {
						method: 'POST',
						headers: { 'content-type': 'application/json', 'browser-id': storage.getItem('n8n-browserId') ?? '' },
						body: JSON.stringify({ credentials: { id, name: 'Probe', type, data } }),
					});
					// n8n 2.8 wraps the answer in `data`; later versions may not.
					const body = (await response.json()) as { data?: { status: string; message: string }; status?: string; message?: string };
					return { http: response.status, data: (body.data ?? body) as { status: string; message: string } };
				},
				{ type, data, id: CREDENTIAL_REFS[type].id },
			);
		const platform = { apiToken: ready.simulator.platformToken, baseUrl: ready.simulator.platformUrl };
		const good = await testCredential('scraperPlatformApi', platform);
		expect({ http: good.http, status: good.data.status }).toEqual({ http: 200, status: 'OK' });
		const badUrl = await testCredential('scraperPlatformApi', { ...platform, baseUrl: 'ftp://api.example.com' });
		expect(badUrl.data.status).toBe('Error');
		expect(badUrl.data.message).toMatch(/^Invalid 'Base URL' in the 'Scraper Platform API' credential: only http and https are allowed/);
		const marketplace = { apiToken: ready.simulator.marketplaceToken, baseUrl: ready.simulator.marketplaceUrl };
		expect((await testCredential('scraperMarketplaceApi', marketplace)).data.status).toBe('OK');
		const badToken = await testCredential('scraperMarketplaceApi', { ...marketplace, apiToken: `${marketplace.apiToken}\n` });
		expect(badToken.data.message).toMatch(/^Invalid 'API Token' in the 'Scraper Marketplace API' credential: it contains a line break/);
		expect(JSON.stringify([badUrl, badToken])).not.toContain(marketplace.apiToken);
	});

	test('Ctrl-C stops the demo and leaves nothing running (n8n, simulator, chain)', async () => {
		const rpcPort = Number(new URL(ready.simulator.chain.rpcUrl).port);
		const ports = [new URL(ready.url).port, ...[ready.simulator.platformUrl, ready.simulator.marketplaceUrl, ready.simulator.gatewayUrl, ready.simulator.modelUrl].map((u) => new URL(u).port)].map(Number);
		// What a terminal's Ctrl-C does: SIGINT to the demo's process group.
		await demo.stop();
		expect(demo.exit).toMatchObject({ code: 0, signal: null });
		expect(demo.log).toContain('Nothing left running.');
		expect(isAlive(ready.n8nPid)).toBe(false);
		expect(isAlive(ready.simulatorPid)).toBe(false);
		for (const port of [...ports, rpcPort]) expect(await portInUse(port)).toBe(false);
	});
});
