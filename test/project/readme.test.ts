/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the repository's own documentation with Node's fs */
// The READMEs are the packages' npm pages and what n8n's reviewers read before they verify a community package:
// written for users, with the service's links, install, credentials, operations, examples, troubleshooting and
// compatibility, and links that lead somewhere. Developer material lives in CONTRIBUTING.md and docs/.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties, INodePropertyOptions, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { loadPackage } from '../harness';

const ROOT = path.resolve(__dirname, '../..');
const REPOSITORY = 'https://github.com/scraper-service/n8n-nodes-scraper-service';
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const core = JSON.parse(read('package.json'));
const x402 = JSON.parse(read('x402/package.json'));

const DOCS = [
	'README.md',
	'CONTRIBUTING.md',
	'CHANGELOG.md',
	'x402/README.md',
	...readdirSync(path.join(ROOT, 'docs'))
		.filter((file) => file.endsWith('.md'))
		.map((file) => `docs/${file}`),
];

/** The text outside fenced code blocks (code shows commands and output, not links). */
function prose(markdown: string): string {
	return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** GitHub's anchor for a heading: its text, lower case, without punctuation, spaces as hyphens. */
function slug(heading: string): string {
	const text = heading
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/[`*]/g, '')
		.trim()
		.toLowerCase();
	return text.replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** Every anchor a file offers: its headings (duplicates numbered as GitHub numbers them) and `<a id>` / `<a name>`. */
function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
		const base = slug(heading);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	for (const [, id] of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id);
	return anchors;
}

/** Markdown link targets and bare URLs outside code. */
function linksOf(markdown: string): string[] {
	const text = prose(markdown).replace(/`[^`\n]*`/g, '');
	const targets = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
	const withoutLinks = text.replace(/\]\([^)]*\)/g, ']');
	const bare = [...withoutLinks.matchAll(/\b(?:https?|ftp):\/\/[^\s)>\]"'`]+/g)].map((m) => m[0].replace(/[.,;:]+$/, ''));
	return [...targets, ...bare];
}

/** What is wrong with a link from `file`, or undefined when it leads to a repository file, an anchor or an https page. */
function linkProblem(file: string, target: string): string | undefined {
	if (/^http:\/\//.test(target)) return 'not https';
	const inRepository = target.startsWith(`${REPOSITORY}/blob/main/`) || target.startsWith(`${REPOSITORY}/tree/main/`);
	if (/^https:\/\//.test(target) && !inRepository) {
		return /^https:\/\/(localhost|127\.|0\.0\.0\.0|\[::1\])/.test(target) ? 'a local address' : undefined;
	}
	if (!inRepository && /^[a-z][a-z0-9+.-]*:/i.test(target)) return 'not an https page or a repository file';
	const [pathPart, fragment] = target.split('#');
	const resolved = inRepository
		? path.join(ROOT, decodeURIComponent(pathPart.slice(`${REPOSITORY}/blob/main/`.length)))
		: pathPart === ''
			? path.join(ROOT, file)
			: path.resolve(path.dirname(path.join(ROOT, file)), decodeURIComponent(pathPart));
	if (path.relative(ROOT, resolved).startsWith('..')) return 'outside the repository';
	if (!existsSync(resolved)) return 'no such file in the repository';
	if (fragment !== undefined && resolved.endsWith('.md') && statSync(resolved).isFile()) {
		if (!anchorsOf(readFileSync(resolved, 'utf8')).has(fragment)) return `no heading or anchor "#${fragment}" in ${path.relative(ROOT, resolved)}`;
	}
	return undefined;
}

/** The body of the `## title` section (up to the next level-2 heading). */
function section(markdown: string, title: string): string {
	const start = markdown.search(new RegExp(`^## ${title}\\s*$`, 'm'));
	if (start < 0) return '';
	const rest = markdown.slice(start).split('\n').slice(1).join('\n');
	const end = rest.search(/^## /m);
	return end < 0 ? rest : rest.slice(0, end);
}

/** Prose as one line, bold marks left out, so a check does not depend on where a line wraps. */
const flat = (text: string) => text.replace(/\*\*/g, '').replace(/\s+/g, ' ');

/** The command lines of the shell code blocks (```bash) of a text, comments left out. */
function commandLines(markdown: string): string[] {
	return [...markdown.matchAll(/^```(?:bash|sh|shell)\n([\s\S]*?)^```/gm)].flatMap((m) =>
		m[1]
			.split('\n')
			.map((line) => line.replace(/\s+#.*$/, '').trim())
			.filter((line) => line !== '' && !line.startsWith('#')),
	);
}

/** `Resource > Operation` for every operation a node offers, from its built description (every version). */
function operationsOf(node: INodeType): string[] {
	const described = node as INodeType & { nodeVersions?: Record<number, INodeType> };
	const descriptions: INodeTypeDescription[] = described.nodeVersions
		? Object.values(described.nodeVersions).map((version) => version.description)
		: [node.description];
	const found = new Set<string>();
	for (const description of descriptions) {
		const properties = description.properties as INodeProperties[];
		const resources = properties
			.filter((p) => p.name === 'resource')
			.flatMap((p) => (p.options ?? []) as INodePropertyOptions[]);
		for (const property of properties.filter((p) => p.name === 'operation')) {
			for (const value of (property.displayOptions?.show?.resource ?? []) as string[]) {
				const resource = resources.find((r) => r.value === value);
				for (const operation of (property.options ?? []) as INodePropertyOptions[]) found.add(`${resource?.name ?? value} > ${operation.name}`);
			}
		}
	}
	return [...found];
}

const readme = read('README.md');
const headings = [...prose(readme).matchAll(/^(#{2,3}) (.+)$/gm)].map((m) => `${m[1]} ${m[2].trim()}`);

describe('README.md, for users', () => {
	it('names MrScraper with its website, dashboard (sign-up, API tokens) and documentation', () => {
		expect(readme).toMatch(/MrScraper/);
		for (const url of ['https://mrscraper.com', 'https://app.mrscraper.com', 'https://docs.mrscraper.com']) {
			expect(linksOf(readme)).toContain(url);
		}
	});

	it('has the sections a user looks for', () => {
		for (const expected of [
			'## Installation',
			'### n8n Cloud',
			'### Self-hosted n8n',
			'## Credentials',
			'### Scraper Platform API',
			'### Scraper Marketplace API',
			'### x402 Wallet',
			'## Nodes',
			'### Scraper Platform',
			'### Scraper Marketplace',
			'### Scraper Platform Trigger',
			'### Scraper Marketplace Trigger',
			'### Scraper Gateway',
			'## Example workflows',
			'## Troubleshooting',
			'## Compatibility',
			'## Development',
			'## License',
		]) {
			expect(headings).toContain(expected);
		}
	});

	it('says how each credential authenticates and where its token comes from', () => {
		const credentials = flat(section(readme, 'Credentials'));
		expect(credentials).toMatch(/x-api-token/);
		expect(credentials).toMatch(/Authorization: Bearer/);
		expect(credentials).toMatch(/Base URL/);
		expect(credentials).toMatch(/`atk_`/);
		expect(credentials).toMatch(/shown once/i);
		expect(credentials).toMatch(/https:\/\/app\.mrscraper\.com/);
	});

	it('installs the core on n8n Cloud and self-hosted, and the x402 package on self-hosted n8n only', () => {
		const installation = flat(section(readme, 'Installation'));
		expect(installation).toMatch(/Nodes panel/);
		expect(installation).toMatch(/Settings > Community Nodes/);
		expect(installation).toMatch(/`n8n-nodes-scraper-service`/);
		expect(installation).toMatch(/`n8n-nodes-scraper-service-x402`/);
		expect(installation).toMatch(/n8n Cloud cannot install it/);
	});

	it('lists every operation of the Platform and Marketplace nodes as Resource > Operation (and x402/README.md the Gateway\'s)', () => {
		const { nodes } = loadPackage();
		const checked: Array<[string, string]> = [
			[`${core.name}.scraperPlatform`, 'README.md'],
			[`${core.name}.scraperMarketplace`, 'README.md'],
			[`${x402.name}.scraperGateway`, 'x402/README.md'],
		];
		for (const [type, file] of checked) {
			const node = nodes.get(type);
			expect(node).toBeDefined();
			const operations = operationsOf(node as INodeType);
			expect(operations.length).toBeGreaterThan(1);
			const text = read(file);
			const missing = operations.filter((operation) => !text.includes(`| ${operation} |`));
			expect({ file, missing }).toEqual({ file, missing: [] });
		}
	});

	it('links every example workflow, one line each', () => {
		const examples = readdirSync(path.join(ROOT, 'examples')).filter((file) => file.endsWith('.json'));
		expect(examples.length).toBeGreaterThan(0);
		const rows = section(readme, 'Example workflows')
			.split('\n')
			.filter((line) => line.startsWith('| ['));
		for (const example of examples) expect(rows.filter((row) => row.includes(`(examples/${example})`))).toHaveLength(1);
	});

	it('troubleshoots 401, 403 (permission and "Token limit exceeded"), 404, 422, 429, time-outs and creates never repeated', () => {
		const troubleshooting = flat(section(readme, 'Troubleshooting'));
		for (const pattern of [/401/, /403/, /Token limit exceeded/, /404/, /422/, /429/, /Max Wait/, /waitTimedOut/, /started work/, /never repeats/]) {
			expect(troubleshooting).toMatch(pattern);
		}
	});

	it('keeps the compatibility it claims: n8n 1.121 or later, tested on 2.8.4 and 2.41.1', () => {
		const compatibility = section(readme, 'Compatibility');
		expect(compatibility).toMatch(/\| 1\.121 or later \|/);
		expect(compatibility).toMatch(/\| 2\.8\.4 \| 20 \|/);
		expect(compatibility).toMatch(/\| 2\.41\.1 \| 24 \|/);
	});

	it('gives a newcomer exactly two commands, the demo and the tests, both scripts of package.json, and links CONTRIBUTING.md', () => {
		const development = section(readme, 'Development');
		const commands = commandLines(development);
		expect(commands).toEqual(['npm ci && npm start', 'npm ci && npm test']);
		for (const command of commands) {
			const script = /^npm ci && npm (?:run )?(\S+)$/.exec(command)?.[1] as string;
			expect(core.scripts[script]).toBeDefined();
		}
		expect(linksOf(development)).toContain('CONTRIBUTING.md');
		expect(commandLines(section(read('CONTRIBUTING.md'), 'Setup: two commands'))).toEqual(commands);
	});

	it('is the package page of the core: starts with its name and ships beside LICENSE.md', () => {
		expect(readme.split('\n')[0]).toBe(`# ${core.name}`);
		expect(existsSync(path.join(ROOT, 'LICENSE.md'))).toBe(true);
		expect(linksOf(section(readme, 'License'))).toContain('LICENSE.md');
	});
});

describe('the documentation files', () => {
	it.each(DOCS)('%s links only to repository files (and their headings) or https pages', (file) => {
		const problems = linksOf(read(file))
			.map((target) => [target, linkProblem(file, target)])
			.filter(([, problem]) => problem !== undefined);
		expect(problems).toEqual([]);
	});

	it.each(DOCS)('%s names no path of the machine it was written on', (file) => {
		expect(read(file)).not.toMatch(/\/work\/|\/home\/|\/root\//);
	});

	it('the anchors the nodes and credentials link to (documentationUrl, codex resources, homepages) exist in README.md', () => {
		const anchors = anchorsOf(readme);
		const sources = [
			...['credentials', 'nodes', 'x402/credentials', 'x402/nodes'].flatMap((dir) =>
				(readdirSync(path.join(ROOT, dir), { recursive: true }) as string[])
					.filter((file) => /\.(ts|json)$/.test(file))
					.map((file) => `${dir}/${file}`),
			),
			'package.json',
			'x402/package.json',
		];
		const linked = new Set<string>();
		for (const source of sources) {
			const escaped = REPOSITORY.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
			for (const [, anchor] of read(source).matchAll(new RegExp(`${escaped}#([\\w-]+)`, 'g'))) linked.add(anchor);
		}
		expect(linked.size).toBeGreaterThan(3);
		expect([...linked].filter((anchor) => anchor !== 'readme' && !anchors.has(anchor))).toEqual([]);
	});

	it(`CHANGELOG.md keeps a changelog: Unreleased, then ${core.version} (the version of both packages)`, () => {
		const changelog = read('CHANGELOG.md');
		expect(x402.version).toBe(core.version);
		const versions = [...changelog.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)].map((m) => m[1]);
		expect(versions[0]).toBe('Unreleased');
		expect(versions).toContain(core.version);
		expect(changelog).toMatch(/Keep a Changelog/);
	});

	it('x402/README.md is the x402 package\'s own page: its name, the price, self-hosted only, its credential', () => {
		const page = read('x402/README.md');
		expect(page.split('\n')[0]).toBe(`# ${x402.name}`);
		expect(page).toMatch(/0\.01 USDC/);
		expect(page).toMatch(/x402 version 2/);
		expect(page).toMatch(/self-hosted/i);
		for (const heading of ['## Why self-hosted only', '## Install', '## Credential: x402 Wallet', '## Spending limit', '## Payment policy', '## Receipts', '## As an AI Agent tool', '## Troubleshooting', '## License']) {
			expect(page.split('\n')).toContain(heading);
		}
		expect(existsSync(path.join(ROOT, 'x402/LICENSE.md'))).toBe(true);
	});
});
