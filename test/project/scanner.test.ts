/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- builds and packs the repository's own package with Node's fs and child_process */
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- runs npm, tar and n8n's scanner on the repository's own files */
// n8n verifies a community package for n8n Cloud only if its scanner passes on the published tarball and on the
// source its npm provenance points at. This builds and packs the core package from a copy of the repository's
// files, as the publish workflow does, and runs the scanner's own `analyzePackage` on both legs, offline.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** The libraries n8n Cloud lets a verified package import at run time (n8n provides them). */
const ALLOWED_RUNTIME_IMPORTS = ['n8n-workflow', 'lodash', 'moment', 'p-limit', 'luxon', 'zod', 'crypto'];

interface ScanResult {
	passed: boolean;
	message: string | null;
	errors: number | null;
	warnings: number;
	details: string;
}

function scan(dir: string, leg: 'tarball' | 'source'): ScanResult {
	// Without jest's NODE_ENV=test: n8n's lint plugin switches some rules to test fixtures when it is set.
	const env = { ...process.env };
	delete env.NODE_ENV;
	const out = execFileSync(process.execPath, [path.join(__dirname, 'scan-package.mjs'), dir, leg], {
		cwd: ROOT,
		env,
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
	});
	return JSON.parse(out.trim().split('\n').pop() as string) as ScanResult;
}

function filesUnder(dir: string): string[] {
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

describe("n8n's verification scanner on the core package", () => {
	let work: string;
	let unpacked: string;
	let tarballFiles: string[];

	beforeAll(() => {
		work = mkdtempSync(path.join(os.tmpdir(), 'scraper-scan-'));
		// What the publish workflow builds from: the package's own files, with the repository's node_modules.
		const source = path.join(work, 'source');
		mkdirSync(source);
		for (const entry of ['package.json', 'tsconfig.json', 'README.md', 'LICENSE.md', 'nodes', 'credentials', 'icons']) {
			cpSync(path.join(ROOT, entry), path.join(source, entry), { recursive: true });
		}
		symlinkSync(path.join(ROOT, 'node_modules'), path.join(source, 'node_modules'), 'dir');
		execFileSync(path.join(ROOT, 'node_modules/.bin/n8n-node'), ['build'], { cwd: source, stdio: 'pipe' });
		execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: source, stdio: 'pipe' });
		const tarball = readdirSync(work).find((file) => file.endsWith('.tgz')) as string;
		// As the scanner unpacks a download.
		unpacked = path.join(work, 'package');
		mkdirSync(unpacked);
		execFileSync('tar', ['-xzf', path.join(work, tarball), '-C', unpacked, '--strip-components=1']);
		tarballFiles = filesUnder(unpacked);
	}, 180_000);

	afterAll(() => {
		if (work) rmSync(work, { recursive: true, force: true });
	});

	it('passes the tarball leg (every **/*.js and package.json) with 0 errors', () => {
		const result = scan(unpacked, 'tarball');
		expect(result.details).toBe('');
		expect(result).toMatchObject({ passed: true, errors: 0 });
	}, 120_000);

	it('passes the source leg (package.json and {nodes,credentials}/**/*.{js,ts,json}) with 0 errors', () => {
		const result = scan(ROOT, 'source');
		expect(result.details).toBe('');
		expect(result).toMatchObject({ passed: true, errors: 0 });
	}, 120_000);

	it('ships only our own compiled code: one .js per TypeScript source, no bundled library', () => {
		const scripts = tarballFiles.filter((file) => file.endsWith('.js'));
		expect(scripts.length).toBeGreaterThan(10);
		const withoutSource = scripts.filter((file) => !existsSync(path.join(ROOT, file.replace(/^dist\//, '').replace(/\.js$/, '.ts'))));
		expect(withoutSource).toEqual([]);
		expect(tarballFiles.filter((file) => /node_modules|LEGAL\.txt$/.test(file))).toEqual([]);
		expect(tarballFiles.filter((file) => !/^(dist\/(nodes|credentials|icons)\/|package\.json$|README\.md$|LICENSE\.md$)/.test(file))).toEqual([]);
	});

	it('imports at run time only our own files and what n8n Cloud allows', () => {
		const imported = new Set<string>();
		for (const file of tarballFiles.filter((f) => f.endsWith('.js'))) {
			const code = readFileSync(path.join(unpacked, file), 'utf8');
			for (const match of code.matchAll(/require\("([^"]+)"\)/g)) {
				if (!match[1].startsWith('.')) imported.add(match[1]);
			}
		}
		expect([...imported].filter((name) => !ALLOWED_RUNTIME_IMPORTS.includes(name))).toEqual([]);
		expect(imported.has('n8n-workflow')).toBe(true);
	});

	it('has no inline eslint-disable in nodes/ or credentials/ (the scanner ignores them)', () => {
		const sources = [...filesUnder(path.join(ROOT, 'nodes')).map((f) => `nodes/${f}`), ...filesUnder(path.join(ROOT, 'credentials')).map((f) => `credentials/${f}`)];
		const disabled = sources.filter((file) => readFileSync(path.join(ROOT, file), 'utf8').includes('eslint-disable'));
		expect(disabled).toEqual([]);
	});
});
