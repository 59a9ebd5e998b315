/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- end-to-end test in plain Node: it runs a real n8n process and a local npm registry, reads the files they write, and drives chromium */
// Which "install by name" path works against a registry other than npmjs.org, on an n8n without a license:
// - Settings > Community Nodes > Install (POST /rest/community-packages) refuses: n8n's installer passes
//   `--registry=<N8N_COMMUNITY_PACKAGES_REGISTRY>` to npm and, for anything but https://registry.npmjs.org, needs
//   the enterprise license feature feat:communityNodes:customRegistry (CommunityPackagesService.getNpmRegistry).
//   In the editor (chromium, as a user does it) the install form stays open and n8n shows the refusal as an
//   error toast.
// - The manual install n8n documents for self-hosted n8n (`npm install <name>` in ~/.n8n/nodes, restart) works:
//   n8n loads both packages at start. Settings > Community Nodes does not list them: it lists what its own
//   installer recorded in the database.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { sleep } from 'n8n-workflow';
import type { Locator, Page } from 'playwright-core';

import { N8nInstance } from '../../scripts/demo/n8n';
import { freePort } from '../../scripts/demo/ports';
import { isInstalled, runtimeFor } from '../../scripts/demo/runtime';
import { SCREENSHOTS, launchChromium } from './infra/browser';
import { installFromRegistry } from './infra/registry/install-by-name';
import { useRegistry, versionsUnderTest } from './support';

const OWNER = { email: 'install-test@example.com', password: 'InstallTest1', firstName: 'Install', lastName: 'Test' };
const OUR_TYPES = [
	'n8n-nodes-scraper-service-x402.scraperGateway',
	'n8n-nodes-scraper-service-x402.scraperGatewayTool',
	'n8n-nodes-scraper-service.scraperBulkTrigger',
	'n8n-nodes-scraper-service.scraperMarketplace',
	'n8n-nodes-scraper-service.scraperMarketplaceTool',
	'n8n-nodes-scraper-service.scraperMarketplaceTrigger',
	'n8n-nodes-scraper-service.scraperPlatform',
	'n8n-nodes-scraper-service.scraperPlatformTool',
	'n8n-nodes-scraper-service.scraperPlatformTrigger',
	'n8n-nodes-scraper-service.scraperRunTrigger',
];

/** Waits for the page's transitions to end (a modal fading in, a toast sliding in), so a screenshot shows them done. */
async function settled(page: Page): Promise<void> {
	await page.evaluate(async () => {
		type Running = { finished: Promise<unknown>; effect: { getComputedTiming: () => { endTime?: number | string } } | null };
		const { document } = globalThis as unknown as { document: { getAnimations: () => Running[] } };
		const finite = document.getAnimations().filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
		// A transition Vue cancels (the element left) rejects `finished`: it has ended all the same.
		await Promise.all(finite.map(async (a) => await a.finished.then(undefined, () => undefined)));
	});
}

/** Waits until `locator` lies wholly inside the viewport and has stopped moving (two equal boxes 100 ms apart). */
async function stillInView(page: Page, locator: Locator): Promise<void> {
	const width = page.viewportSize()?.width ?? 0;
	let last = '';
	for (let i = 0; i < 50; i++) {
		const box = await locator.boundingBox();
		const now = JSON.stringify(box);
		if (box && box.x >= 0 && box.x + box.width <= width && now === last) return;
		last = now;
		await sleep(100);
	}
	throw new Error(`still moving or out of view after 5 s: ${last}`);
}

const notLicensed = (name: string) =>
	`Error loading package "${name}" :Your license does not allow for feat:communityNodes:customRegistry. ` +
	'To enable feat:communityNodes:customRegistry, please upgrade to a license that supports this feature.';

const served = useRegistry();

describe.each(versionsUnderTest())('n8n %s: installing our packages by name from a local registry, unlicensed', (version) => {
	let n8n: N8nInstance;
	let cookie: string;

	/** Starts n8n (ready once its REST API answers JSON), signs in as the owner (created on the first start). */
	async function startAndSignIn(): Promise<void> {
		await n8n.start();
		await n8n.setupOwner(OWNER);
		cookie = await n8n.login(OWNER.email, OWNER.password);
	}

	async function get<T>(route: string): Promise<T> {
		const res = await fetch(`${n8n.baseUrl}${route}`, { headers: { cookie } });
		if (!res.ok) throw new Error(`GET ${route}: ${res.status} ${await res.text()}`);
		return (await res.json()) as T;
	}

	const ourLoadedTypes = async () =>
		(await get<Array<{ name: string }>>('/types/nodes.json'))
			.map((t) => t.name)
			.filter((name) => name.startsWith('n8n-nodes-scraper-service'))
			.sort();

	/** What n8n's installer left in <n8n folder>/nodes/node_modules (nothing, when it refused). */
	const nodesInstalled = () => {
		const modules = path.join(n8n.n8nFolder, 'nodes', 'node_modules');
		return existsSync(modules) ? readdirSync(modules) : [];
	};

	/** The editor's sign-in page, as a user fills it in. */
	async function signInToEditor(page: Page): Promise<void> {
		await page.goto(n8n.baseUrl);
		await page.waitForURL(/\/signin/);
		await page.locator('input[name="emailOrLdapLoginId"]').fill(OWNER.email);
		await page.locator('input[name="password"]').fill(OWNER.password);
		await page.locator('[data-test-id="form-submit-button"]').click();
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
	}

	beforeAll(async () => {
		const runtime = await runtimeFor(version);
		if (!isInstalled(runtime)) throw new Error(`n8n ${version} is not installed in ${runtime.dir}: run \`npm run test:e2e\`, which installs it first.`);
		n8n = new N8nInstance({
			runtime,
			userFolder: mkdtempSync(path.join(os.tmpdir(), `n8n-install-${version}-`)),
			port: await freePort(),
			// Where n8n's own installer (Settings > Community Nodes) would fetch packages from.
			env: { N8N_COMMUNITY_PACKAGES_REGISTRY: served.registry.url.replace(/\/$/, '') },
		});
		await startAndSignIn();
	});

	afterAll(async () => {
		await n8n?.stop();
		if (n8n) rmSync(n8n.userFolder, { recursive: true, force: true });
	});

	test('Settings > Community Nodes > Install refuses the local registry: the custom registry is a licensed feature', async () => {
		const before = served.registry.received().length;
		for (const { name } of served.published) {
			const res = await fetch(`${n8n.baseUrl}/rest/community-packages`, {
				method: 'POST',
				headers: { cookie, 'content-type': 'application/json' },
				body: JSON.stringify({ name }),
			});
			expect({ status: res.status, body: await res.json() }).toEqual({ status: 500, body: { code: 500, message: notLicensed(name) } });
		}
		// n8n refused before asking the registry anything, and installed nothing.
		expect(served.registry.received().slice(before)).toEqual([]);
		expect(nodesInstalled()).toEqual([]);
		expect(await get('/rest/community-packages')).toEqual({ data: [] });
		expect(await ourLoadedTypes()).toEqual([]);
	});

	test('in the editor, Settings > Community Nodes > Install shows the refusal and installs nothing', async () => {
		const name = served.published[0].name;
		expect(name).toBe('n8n-nodes-scraper-service');
		const before = served.registry.received().length;
		const shots = path.join(SCREENSHOTS, version);
		mkdirSync(shots, { recursive: true });
		const profile = mkdtempSync(path.join(os.tmpdir(), 'chromium-profile-'));
		const context = await launchChromium(profile);
		try {
			const page = context.pages()[0] ?? (await context.newPage());
			const shot = async (file: string) => {
				await settled(page);
				await page.screenshot({ path: path.join(shots, `${file}.png`) });
			};
			await signInToEditor(page);
			await page.goto(`${n8n.baseUrl}/settings`);
			await page.getByRole('menuitem', { name: 'Community nodes' }).click();
			await page.getByRole('button', { name: 'Install a community node' }).click();
			const form = page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: 'Install community nodes' }) });
			await form.getByPlaceholder('e.g. n8n-nodes-chatwork').fill(name);
			await form.getByText('I understand the risks of installing unverified code from a public source.').click();
			expect(await form.getByRole('checkbox').isChecked()).toBe(true);
			const install = form.getByRole('button', { name: 'Install', exact: true });
			expect(await install.isEnabled()).toBe(true);
			await shot('20-community-nodes-install-form');

			await install.click();
			// n8n answers 500 (not 400, which the form would show under the name): an error toast, the form stays open.
			const toast = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Error installing new package' }) });
			await toast.waitFor();
			// The toast slides in and the button stops spinning: shoot once both are still.
			await page.getByRole('button', { name: 'Install', exact: true }).waitFor();
			await stillInView(page, toast);
			await shot('21-community-nodes-install-refused');
			expect((await toast.getByRole('paragraph').innerText()).trim()).toBe(notLicensed(name));
			expect(await page.getByRole('alert').count()).toBe(1);
			await install.waitFor();
			expect(await install.isEnabled()).toBe(true);
			expect(await form.getByPlaceholder('e.g. n8n-nodes-chatwork').inputValue()).toBe(name);

			// The page, loaded again, still lists no package.
			await page.reload();
			await page.getByRole('button', { name: 'Install a community node' }).waitFor();
			expect(await page.getByText('Supercharge your workflows with community nodes').isVisible()).toBe(true);
			expect(await page.locator('[data-test-id="community-package-card"]').count()).toBe(0);
		} finally {
			await context.close();
			rmSync(profile, { recursive: true, force: true });
		}
		// n8n refused before asking the registry anything, and installed nothing.
		expect(served.registry.received().slice(before)).toEqual([]);
		expect(nodesInstalled()).toEqual([]);
		expect(await get('/rest/community-packages')).toEqual({ data: [] });
		expect(await ourLoadedTypes()).toEqual([]);
	});

	test('the manual install by name (npm install in ~/.n8n/nodes, restart) works: n8n loads both packages', async () => {
		await n8n.stop();
		const installed = await installFromRegistry(
			n8n,
			served.published.map((p) => p.name),
			served.registry.url,
		);
		expect(installed.map(({ name, version: v }) => ({ name, version: v }))).toEqual(served.published.map(({ name, version: v }) => ({ name, version: v })));
		await startAndSignIn();
		expect(await ourLoadedTypes()).toEqual(OUR_TYPES);
		// Settings > Community Nodes lists what its own installer recorded: packages installed by hand are not
		// listed there (update or remove them with npm).
		expect(await get('/rest/community-packages')).toEqual({ data: [] });
	});
});
