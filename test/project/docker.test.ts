/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the repository's Docker fragment and package manifests with Node's fs */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { N8N_NEXT } from '../../scripts/demo/runtime';

/**
 * docs/docker-compose.yml, the install by configuration the README shows: its environment is what n8n's
 * community-packages loader reads (n8n 2.41.1, instance-settings-loader: N8N_COMMUNITY_PACKAGES a JSON list of
 * {name, version?, checksum?} and nothing else), it names this repository's two packages at their current version,
 * and it enables what the x402 package needs. The install itself is not run here: n8n installs this way only from
 * registry.npmjs.org unless its license has the custom-registry feature, and the tests' registry is a local one.
 */

const ROOT = path.join(__dirname, '..', '..');
const compose = readFileSync(path.join(ROOT, 'docs', 'docker-compose.yml'), 'utf8');
const manifest = (dir: string) => JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')) as { name: string; version: string };

/** The `environment` entries of the fragment, `KEY: value` with the YAML quotes taken off. */
function environment(): Record<string, string> {
	const entries = [...compose.matchAll(/^ {6}(N8N_[A-Z_]+): (.+)$/gm)].map(([, key, raw]) => {
		const quoted = /^(['"])(.*)\1$/.exec(raw.trim());
		return [key, quoted ? quoted[2] : raw.trim()];
	});
	return Object.fromEntries(entries);
}

describe('docs/docker-compose.yml', () => {
	const env = environment();

	it('lets n8n install the community packages it lists, and unverified ones', () => {
		expect(env).toMatchObject({ N8N_COMMUNITY_PACKAGES_ENABLED: 'true', N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true', N8N_UNVERIFIED_PACKAGES_ENABLED: 'true' });
	});

	it('lists both packages of this repository at their current version, in the shape n8n accepts', () => {
		const listed = JSON.parse(env.N8N_COMMUNITY_PACKAGES) as unknown[];
		expect(listed).toEqual([manifest('.'), manifest('x402')].map(({ name, version }) => ({ name, version })));
		// n8n's schema is strict: any other key fails the start-up.
		for (const entry of listed) expect(Object.keys(entry as object).every((key) => ['name', 'version', 'checksum'].includes(key))).toBe(true);
	});

	it("uses n8n's image at the newest version the end-to-end suite tests", () => {
		expect(compose).toMatch(new RegExp(`^ {4}image: docker\\.n8n\\.io/n8nio/n8n:${N8N_NEXT.replace(/\./g, '\\.')}$`, 'm'));
	});
});
