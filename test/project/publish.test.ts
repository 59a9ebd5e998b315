/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the repository's own workflow and manifests with Node's fs */
// The publish workflow's shape, read as GitHub Actions reads it (YAML 1.2): n8n verifies a community package for
// n8n Cloud only when it was published from GitHub Actions with npm provenance. Both packages are published on a
// version tag, after lint and tests, by npm trusted publishing (OIDC), with a token only as a fallback.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const ROOT = path.resolve(__dirname, '../..');
const WORKFLOW_FILE = '.github/workflows/publish.yml';
const text = readFileSync(path.join(ROOT, WORKFLOW_FILE), 'utf8');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));
const core = readJson('package.json');
const x402 = readJson('x402/package.json');

type Env = Record<string, string | number | boolean>;

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	if?: string;
	with?: Record<string, string | number | boolean>;
	env?: Env;
	'working-directory'?: string;
}

interface Job {
	needs?: string | string[];
	permissions?: Record<string, string>;
	env?: Env;
	steps: Step[];
}

interface Workflow {
	on: Record<string, { tags?: string[]; branches?: string[] } | null>;
	permissions?: Record<string, string> | string;
	env?: Env;
	jobs: Record<string, Job>;
}

const workflow = parse(text) as Workflow;
const jobs = Object.entries(workflow.jobs);

/** npm reads trusted-publishing tokens from OIDC from this version on. */
const TRUSTED_PUBLISHING_NPM = [11, 5, 1];

const PUBLISHES = /\bnpm publish\b|\bn8n-node release\b/;
const publishes = (step: Step) => PUBLISHES.test(step.run ?? '');
const publishJobs = jobs.filter(([, job]) => job.steps.some(publishes));
const publishSteps = publishJobs.flatMap(([, job]) => job.steps.filter(publishes).map((step) => ({ job, step })));
const needsOf = (job: Job) => (job.needs === undefined ? [] : Array.isArray(job.needs) ? job.needs : [job.needs]);
const envOf = (job: Job, step: Step): Env => ({ ...workflow.env, ...job.env, ...step.env });
const inDirectory = (step: Step) => path.posix.normalize(step['working-directory'] ?? '.');

/** The lowest npm version an `npm install -g npm@<spec>` can install, or Infinity for a dist-tag like `latest`. */
function lowestVersion(spec: string): number[] {
	if (spec === 'latest' || spec === 'next') return [Infinity];
	const match = /^(?:\^|~|>=)?(\d+)(?:\.(\d+|x))?(?:\.(\d+|x))?$/.exec(spec);
	if (!match) throw new Error(`Unreadable npm version spec "${spec}"`);
	return match.slice(1).map((part) => (part === undefined || part === 'x' ? 0 : Number(part)));
}

function atLeast(version: number[], wanted: number[]): boolean {
	for (let i = 0; i < wanted.length; i++) {
		const have = version[i] ?? 0;
		if (have !== wanted[i]) return have > wanted[i];
	}
	return true;
}

describe('the publish workflow (.github/workflows/publish.yml)', () => {
	it('runs only when a version tag is pushed', () => {
		expect(Object.keys(workflow.on)).toEqual(['push']);
		const push = workflow.on.push as { tags?: string[]; branches?: string[] };
		expect(push.branches).toBeUndefined();
		expect(push.tags?.length).toBeGreaterThan(0);
		for (const pattern of push.tags ?? []) expect(pattern).toMatch(/^v?\*\.\*\.\*$/);
	});

	it('publishes from one job, the only one allowed to mint an OIDC token (id-token: write)', () => {
		expect(publishJobs).toHaveLength(1);
		expect(typeof workflow.permissions === 'object' ? workflow.permissions['id-token'] : workflow.permissions).toBeUndefined();
		for (const [name, job] of jobs) {
			if (publishJobs.some(([publisher]) => publisher === name)) {
				expect(job.permissions).toEqual({ 'id-token': 'write', contents: 'read' });
			} else {
				expect(job.permissions?.['id-token']).toBeUndefined();
			}
		}
	});

	it('lints and tests (npm test) before anything is published', () => {
		expect(core.scripts.test).toMatch(/npm run lint/);
		expect(core.scripts.test).toMatch(/\bjest\b/);
		const runsTests = (job: Job) => job.steps.some((step) => /^npm test$/m.test(step.run ?? ''));
		for (const [, job] of publishJobs) {
			const firstPublish = job.steps.findIndex(publishes);
			const testedBefore = runsTests({ ...job, steps: job.steps.slice(0, firstPublish) });
			const testedByNeeds = needsOf(job).some((name) => workflow.jobs[name] && runsTests(workflow.jobs[name]));
			expect(testedBefore || testedByNeeds).toBe(true);
		}
	});

	it('publishes both packages: the core with `n8n-node release`, then x402/', () => {
		const coreSteps = publishSteps.filter(({ step }) => inDirectory(step) === '.');
		const x402Steps = publishSteps.filter(({ step }) => inDirectory(step) === 'x402');
		expect(coreSteps).toHaveLength(1);
		expect(x402Steps).toHaveLength(1);
		expect(publishSteps).toHaveLength(2);
		expect(coreSteps[0].step.run).toMatch(/\bn8n-node release\b/);
		expect(x402Steps[0].step.run).toMatch(/\bnpm publish\b/);
		// x402/dist is built by the core's build (`npm run build` builds both), which `n8n-node release` runs first.
		expect(core.scripts.build).toMatch(/npm run build --prefix x402/);
		const [, job] = publishJobs[0];
		expect(job.steps.indexOf(coreSteps[0].step)).toBeLessThan(job.steps.indexOf(x402Steps[0].step));
	});

	it('`n8n-node release` in GitHub Actions lints, builds and publishes with provenance (the installed @n8n/node-cli)', () => {
		const release = readFileSync(path.join(ROOT, 'node_modules/@n8n/node-cli/dist/commands/release.js'), 'utf8');
		const ci = release.slice(release.indexOf('if (isCI)'), release.indexOf('if (flags.publish)'));
		expect(release).toMatch(/process\.env\.GITHUB_ACTIONS/);
		expect(ci).toMatch(/\['run', 'lint'\]/);
		expect(ci).toMatch(/\['run', 'build'\]/);
		expect(ci).toMatch(/'npm', \['publish'\]/);
		expect(ci).toMatch(/RELEASE_MODE: 'true'/);
		expect(ci).toMatch(/NPM_CONFIG_PROVENANCE: 'true'/);
	});

	it('every `npm publish` asks for provenance and passes the `n8n-node prerelease` guard', () => {
		expect(core.scripts.prepublishOnly).toBe('n8n-node prerelease');
		expect(x402.scripts.prepublishOnly).toBe('n8n-node prerelease');
		const npmPublishes = publishSteps.filter(({ step }) => /\bnpm publish\b/.test(step.run ?? ''));
		expect(npmPublishes.length).toBeGreaterThan(0);
		for (const { job, step } of npmPublishes) {
			const env = envOf(job, step);
			expect(/--provenance\b/.test(step.run ?? '') || String(env.NPM_CONFIG_PROVENANCE) === 'true').toBe(true);
			expect(String(env.RELEASE_MODE)).toBe('true');
		}
	});

	it('uses an npm that supports trusted publishing (>= 11.5.1) before publishing', () => {
		for (const [, job] of publishJobs) {
			const firstPublish = job.steps.findIndex(publishes);
			const upgrades = job.steps
				.slice(0, firstPublish)
				.flatMap((step) => [...(step.run ?? '').matchAll(/npm (?:install|i) (?:-g|--global) npm@(\S+)/g)].map((m) => m[1].replace(/^['"]|['"]$/g, '')));
			expect(upgrades.length).toBeGreaterThan(0);
			for (const spec of upgrades) expect(atLeast(lowestVersion(spec), TRUSTED_PUBLISHING_NPM)).toBe(true);
		}
	});

	it('uses the NPM_TOKEN secret only as a fallback, in a step that runs only when it is set', () => {
		// Secrets appear only as the job's NPM_TOKEN variable.
		expect([...text.matchAll(/secrets\.(\w+)/g)].map((m) => m[1])).toEqual(['NPM_TOKEN']);
		expect(text).not.toMatch(/NODE_AUTH_TOKEN/);
		for (const [, job] of jobs) {
			for (const step of job.steps) {
				// setup-node's registry-url writes an _authToken line (a placeholder without a secret) that npm would use
				// instead of the OIDC exchange.
				if (step.uses?.startsWith('actions/setup-node')) expect(step.with?.['registry-url']).toBeUndefined();
				if (/NPM_TOKEN|_authToken/.test(step.run ?? '')) expect(step.if).toMatch(/NPM_TOKEN\s*!=\s*''/);
			}
		}
		for (const [, job] of publishJobs) {
			const tokenStep = job.steps.findIndex((step) => /_authToken/.test(step.run ?? ''));
			expect(tokenStep).toBeGreaterThanOrEqual(0);
			expect(tokenStep).toBeLessThan(job.steps.findIndex(publishes));
		}
	});

	it('refuses a tag that is not the version of both packages', () => {
		expect(x402.version).toBe(core.version);
		const [, job] = publishJobs[0];
		const check = job.steps.findIndex((step) => /GITHUB_REF_NAME/.test(step.run ?? '') && /x402\/package\.json/.test(step.run ?? ''));
		expect(check).toBeGreaterThanOrEqual(0);
		expect(check).toBeLessThan(job.steps.findIndex(publishes));
	});
});
