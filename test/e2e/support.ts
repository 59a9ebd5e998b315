/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- end-to-end test support in plain Node: it reads the environment the e2e runner sets and files n8n wrote, and starts a local npm registry */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { DEMO_DIR } from '../../scripts/demo/pack';
import { N8N_STABLE } from '../../scripts/demo/runtime';
import { LocalRegistry, type PublishedPackage } from './infra/registry/local-registry';

/** n8n versions under test: set by `npm run test:e2e` (test/e2e/infra/runner.ts), default the stable one. */
export function versionsUnderTest(): string[] {
	return (process.env.E2E_N8N_VERSIONS ?? N8N_STABLE)
		.split(',')
		.map((v) => v.trim())
		.filter(Boolean);
}

/** The packed packages (core, then x402): E2E_TARBALLS, else the ones `npm run test:e2e` / `npm start` packed last. */
export function tarballsUnderTest(): string[] {
	const fromEnv = process.env.E2E_TARBALLS;
	if (fromEnv) return fromEnv.split(',');
	const dir = path.join(DEMO_DIR, 'pack');
	const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.tgz')).sort() : [];
	if (files.length !== 2) throw new Error('No packed packages: run `npm run test:e2e` (it builds and packs both first).');
	return files.map((file) => path.join(dir, file));
}

/**
 * The file behind a binary reference of an execution (`filesystem-v2:<path>`): n8n 2.x keeps binary data of
 * executions in <n8n folder>/storage (older layouts: binaryData).
 */
export function binaryFile(n8nFolder: string, id: string): string {
	const relative = id.replace(/^filesystem(-v2)?:/, '');
	for (const base of ['storage', 'binaryData']) {
		const file = path.join(n8nFolder, base, relative);
		if (existsSync(file)) return file;
	}
	throw new Error(`Binary data ${id} not found under ${n8nFolder}`);
}

/**
 * One local npm registry (Verdaccio) for a test file, serving the packed packages under test, published with
 * `npm publish` as they would be to npm: started before its tests, stopped after.
 */
export function useRegistry(): { registry: LocalRegistry; published: PublishedPackage[] } {
	const served = {} as { registry: LocalRegistry; published: PublishedPackage[] };
	beforeAll(async () => {
		Object.assign(served, await startRegistryWithPackages());
	});
	afterAll(async () => {
		await served.registry?.stop();
	});
	return served;
}

async function startRegistryWithPackages(tarballs = tarballsUnderTest()): Promise<{ registry: LocalRegistry; published: PublishedPackage[] }> {
	const registry = new LocalRegistry();
	await registry.start();
	const published: PublishedPackage[] = [];
	try {
		for (const tarball of tarballs) published.push(await registry.publish(tarball));
	} finally {
		// A failed publish leaves nothing running.
		if (published.length !== tarballs.length) await registry.stop();
	}
	return { registry, published };
}
