// Bad input, generated: for every operation of Scraper Platform and Scraper Marketplace and every parameter it
// shows, values that break the parameter's rule must fail with an error naming the field (its display name) and the
// rule, before anything is sent; values drawn the same way that keep the rule must pass validation. This file: Scraper
// Platform's operations, the counterexamples found and the credentials' fields; Scraper Marketplace's operations are
// in badInputMarketplace.test.ts and badInputLeads.test.ts (apart only so that they run in parallel), what they share
// in badInputCases.ts and badInputOperations.ts.
import fc from 'fast-check';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { runNode } from '../../harness';
import type { RunResult } from '../../harness';
import { MARKETPLACE_DEMO_TOKEN } from '../../simulator/marketplace';
import { PLATFORM_DEMO_TOKEN } from '../../simulator/platform';
import { describeOperations, INVALID_RUNS, useBadInput, VALID_RUNS } from './badInputCases';
import { isPlatform, OPERATIONS } from './badInputOperations';
import type { OperationCase } from './badInputOperations';
import { withValue } from './generate';

const ctx = useBadInput('Scraper Platform operations, counterexamples, credential fields');

describeOperations(ctx, OPERATIONS.filter(isPlatform));

/** Counterexamples fast-check found (each was accepted, and sent, before the fix): kept as fixed cases. */
const FOUND: Array<{ op: [string, string, string]; path: [string] | [string, string]; stored: unknown; label: string }> = [
	{ op: ['scraperPlatform', 'bulk', 'start'], path: ['scraperId'], stored: '00000000-0000-1000-8000-000000000000x', label: 'Scraper ID' },
	{ op: ['scraperPlatform', 'result', 'getMany'], path: ['simplify'], stored: '={{ [true] }}', label: 'Simplify' },
	{ op: ['scraperPlatform', 'result', 'getMany'], path: ['filters', 'endAt'], stored: '={{ false }}', label: 'To' },
	{ op: ['scraperMarketplace', 'result', 'getMany'], path: ['options', 'split'], stored: '={{ "yes" }}', label: 'Split Into Items' },
	{ op: ['scraperMarketplace', 'realEstatePortal', 'createAndRun'], path: ['locations'], stored: '={{ [{}] }}', label: 'Locations' },
	{ op: ['scraperPlatform', 'bulk', 'start'], path: ['options', 'maxWaitSeconds'], stored: 2_592_000, label: 'Max Wait (Seconds)' },
	{ op: ['scraperPlatform', 'bulk', 'start'], path: ['options', 'pollIntervalSeconds'], stored: 2_592_000, label: 'Poll Interval (Seconds)' },
];

describe('counterexamples found, as fixed cases', () => {
	it.each(FOUND.map((f): [string, (typeof FOUND)[number]] => [`${f.op.join(' ')} ${f.path.join('.')} = ${JSON.stringify(f.stored)}`, f]))('%s is refused, nothing sent', async (_name, found) => {
		const op = OPERATIONS.find((o) => o.node === found.op[0] && o.resource === found.op[1] && o.operation === found.op[2]) as OperationCase;
		const before = ctx.requestsSeen();
		const result = await ctx.run(op, withValue(op.baseline, found.path, found.stored));
		expect(ctx.requestsSeen() - before).toBe(0);
		expect(result?.error?.message).toMatch(new RegExp(`^Invalid '${found.label.replace(/[()]/g, '\\$&')}'`));
	});
});

describe('credential fields', () => {
	const insertAt = (text: string, at: number, bad: string) => `${text.slice(0, at % (text.length + 1))}${bad}${text.slice(at % (text.length + 1))}`;
	const controls = fc.constantFrom('\n', '\r', '\t', '\u0000', '\u001b', '\u007f');
	const badTokens = fc.oneof(
		fc.constantFrom('', '   '),
		fc.tuple(fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/), fc.nat(), controls).map(([token, at, bad]) => insertAt(token, at, bad)),
		fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/).map((token) => ` ${token}`),
		fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/).map((token) => `${token} `),
	);
	const badBaseUrls = (good: () => string) =>
		fc.oneof(
			fc.constantFrom('', '  ', 'not a url', 'ftp://127.0.0.1/', 'file:///etc', 'localhost:4010', '//127.0.0.1:4010'),
			fc.constantFrom('?page=1', '#top').map((suffix) => `${good()}/${suffix}`),
			fc.tuple(fc.nat(), fc.oneof(controls, fc.constant('\\'))).map(([at, bad]) => insertAt(good(), 7 + (at % 10), bad)),
		);
	const cases = [
		{
			credential: 'Scraper Platform API',
			type: 'scraperPlatformApi',
			node: 'scraperPlatform',
			parameters: { resource: 'account', operation: 'get' },
			token: PLATFORM_DEMO_TOKEN,
			url: () => ctx.platform().url,
		},
		{
			credential: 'Scraper Marketplace API',
			type: 'scraperMarketplaceApi',
			node: 'scraperMarketplace',
			parameters: { resource: 'result', operation: 'getMany', returnAll: false, limit: 1 },
			token: MARKETPLACE_DEMO_TOKEN,
			url: () => ctx.marketplace().url,
		},
	];

	async function runWith(c: (typeof cases)[number], data: ICredentialDataDecryptedObject): Promise<RunResult> {
		return await runNode({ nodeType: c.node, parameters: c.parameters as never, credentials: { [c.type]: data } });
	}

	it.each(cases)('$credential: a bad API Token or Base URL is refused naming the credential and the field; nothing is sent', async (c) => {
		const field = fc.oneof(
			badTokens.map((apiToken) => ({ field: 'API Token', data: { apiToken, baseUrl: c.url() } })),
			badBaseUrls(c.url).map((baseUrl) => ({ field: 'Base URL', data: { apiToken: c.token, baseUrl } })),
		);
		await fc.assert(
			fc.asyncProperty(field, async ({ field: label, data }) => {
				ctx.totals.invalidCases++;
				ctx.totals.parameters.add(`${c.type}.${label}`);
				const before = ctx.requestsSeen();
				const result = await runWith(c, data);
				const sent = ctx.requestsSeen() - before;
				ctx.totals.requestsFromInvalid += sent;
				expect(sent).toBe(0);
				expect(result.error?.message).toMatch(new RegExp(`^Invalid '${label}' in the '${c.credential}' credential: `));
				expect(result.error?.description).toContain(`Open the credential (${c.credential})`);
			}),
			{ numRuns: INVALID_RUNS * 4 },
		);
	});

	it.each(cases)('$credential: a well-formed token and Base URL are sent (an unknown token then gets the 401 advice)', async (c) => {
		await fc.assert(
			fc.asyncProperty(fc.stringMatching(/^[A-Za-z0-9_.-]{8,40}$/), fc.boolean(), async (apiToken, trailingSlash) => {
				ctx.totals.validCases++;
				const result = await runWith(c, { apiToken, baseUrl: `${c.url()}${trailingSlash ? '/' : ''}` });
				expect(result.error?.message ?? '').not.toMatch(/^Invalid '/);
				expect(result.error?.message).toMatch(/did not accept the (API )?token/);
			}),
			{ numRuns: VALID_RUNS * 3 },
		);
	});
});
