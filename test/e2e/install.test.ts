/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end test in plain Node: it runs a real n8n process and a local npm registry, and reads the files they write */
// Which "install by name" path works against a registry other than npmjs.org, on an n8n without a license:
// - Settings > Community Nodes > Install (POST /rest/community-packages) refuses: n8n's installer passes
//   `--registry=<N8N_COMMUNITY_PACKAGES_REGISTRY>` to npm and, for anything but https://registry.npmjs.org, needs
//   the enterprise license feature feat:communityNodes:customRegistry (CommunityPackagesService.getNpmRegistry).
// - The manual install n8n documents for self-hosted n8n (`npm install <name>` in ~/.n8n/nodes, restart) works:
//   n8n loads both packages at start. Settings > Community Nodes does not list them: it lists what its own
//   installer recorded in the database.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { N8nInstance, freePort } from '../../scripts/demo/n8n';
import { isInstalled, runtimeFor } from '../../scripts/demo/runtime';
import { useRegistry, versionsUnderTest } from './support';

const OWNER = { email: 'install-test@example.com', password: 'InstallTest1', firstName: 'Install', lastName: 'Test' };
const OUR_TYPES = [
	'n8n-nodes-scraper-service-x402.scraperGateway',
	'n8n-nodes-scraper-service-x402.scraperGatewayTool',
	'n8n-nodes-scraper-service.scraperBulkTrigger',
	'n8n-nodes-scraper-service.scraperMarketplace',
	'n8n-nodes-scraper-service.scraperMarketplaceTool',
	'n8n-nodes-scraper-service.scraperPlatform',
	'n8n-nodes-scraper-service.scraperPlatformTool',
	'n8n-nodes-scraper-service.scraperRunTrigger',
];

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
		const nodesDir = path.join(n8n.n8nFolder, 'nodes');
		expect(existsSync(path.join(nodesDir, 'node_modules')) ? readdirSync(path.join(nodesDir, 'node_modules')) : []).toEqual([]);
		expect(await get('/rest/community-packages')).toEqual({ data: [] });
		expect(await ourLoadedTypes()).toEqual([]);
	});

	test('the manual install by name (npm install in ~/.n8n/nodes, restart) works: n8n loads both packages', async () => {
		await n8n.stop();
		const installed = await n8n.installFromRegistry(
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
