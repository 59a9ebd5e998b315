/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- test code in plain Node: it reads BAD_INPUT_RUNS, prints its totals and rethrows the harness's own errors */
// Bad input for the paid gateway, generated: every parameter of Page > Fetch and Search > Web and every field of the
// x402 Wallet credential, broken, must fail naming the field before anything is signed: no request at the gateway,
// no signature, no settlement, no balance change.
import fc from 'fast-check';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { runNode } from '../../harness';
import { expectNothingLeft, runTraced, useGateway, walletCredential } from '../support';
import type { RunTrace } from '../support';
import { invalidValues, parameterCases, validValues, withValue } from '../../shared/input/generate';
import type { ParameterCase, Rule } from '../../shared/input/generate';

const INVALID_RUNS = Number(process.env.BAD_INPUT_RUNS ?? 25);

const gw = useGateway({ testWalletCount: 1 });

const totals = { invalidCases: 0, validCases: 0, parameters: new Set<string>(), requests: 0, signatures: 0, settlements: 0 };

afterAll(() => {
	process.stdout.write(
		`bad input (gateway): ${totals.invalidCases} invalid and ${totals.validCases} valid generated cases over ${totals.parameters.size} parameters and credential fields; requests ${totals.requests}, signatures ${totals.signatures}, settlements ${totals.settlements}\n`,
	);
});

function expectNothingLeftCounted(trace: RunTrace) {
	totals.requests += trace.requests;
	totals.signatures += trace.signatures;
	totals.settlements += trace.settlements;
	expectNothingLeft(trace);
}

const RULES: Record<string, Rule> = {
	url: { kind: 'url', list: false, required: true },
	proxyCountry: { kind: 'countryCode' },
	country: { kind: 'countryCode' },
	maxTotalSpend: { kind: 'decimal', min: 0 },
	// Seconds; a fraction is accepted (rounded to milliseconds).
	deadline: { kind: 'decimal', min: 1, max: 3600 },
};

const OPERATIONS = [
	{ resource: 'page', operation: 'fetch', baseline: { url: 'https://example.com/pricing', additionalFields: {}, options: {} } },
	{ resource: 'search', operation: 'web', baseline: { query: 'n8n x402 pay per request', additionalFields: {}, options: {} } },
];

describe.each(OPERATIONS)('Scraper Gateway $resource > $operation', (op) => {
	const cases = parameterCases('scraperGateway', op.resource, op.operation, op.baseline, RULES).filter((c) => c.rule.kind !== 'skip');

	it.each(cases.map((c): [string, ParameterCase] => [c.path.join('.'), c]))('%s: a value that breaks its rule is refused before anything is signed', async (_name, parameter) => {
		totals.parameters.add(`${op.resource}.${op.operation}.${parameter.path.join('.')}`);
		await fc.assert(
			fc.asyncProperty(invalidValues(parameter.rule), async (drawn) => {
				totals.invalidCases++;
				let counted: RunTrace;
				try {
					counted = await runTraced(gw.sim, { resource: op.resource, operation: op.operation, ...withValue(op.baseline, parameter.path, drawn.stored) });
				} catch (error) {
					// n8n itself refuses a workflow whose required field is empty: nothing runs, nothing is signed.
					if ((error as Error).name === 'WorkflowHasIssuesError') return;
					throw error;
				}
				expectNothingLeftCounted(counted);
				expect(counted.result.error?.message ?? `no error for ${drawn.describe}`).toContain(`'${parameter.label}'`);
			}),
			{ numRuns: INVALID_RUNS },
		);
	});

	// Valid values are paid for (0.01 USDC each): a few per parameter, only where a value changes what is asked.
	const priced = cases.filter((c) => ['boolean', 'option'].includes(c.rule.kind) && validValues(c.rule));
	it.each(priced.map((c): [string, ParameterCase] => [c.path.join('.'), c]))('%s: a value that keeps its rule is accepted', async (_name, parameter) => {
		await fc.assert(
			fc.asyncProperty(validValues(parameter.rule) as fc.Arbitrary<{ stored: unknown }>, async (drawn) => {
				totals.validCases++;
				const { result } = await runTraced(gw.sim, { resource: op.resource, operation: op.operation, ...withValue(op.baseline, parameter.path, drawn.stored) });
				expect(result.error?.message ?? '').not.toMatch(/^Invalid '/);
			}),
			{ numRuns: 2 },
		);
	});
});

/** Counterexamples fast-check found (each was accepted and paid for before the fix): kept as fixed cases. */
describe('counterexamples found, as fixed cases', () => {
	it.each([
		['page fetch Response Deadline [1]', { resource: 'page', operation: 'fetch', url: 'https://example.com/', additionalFields: {}, options: { deadline: '={{ [1] }}' } }, 'Response Deadline (Seconds)'],
		['web search Split Into Items 0', { resource: 'search', operation: 'web', query: 'x402', additionalFields: {}, options: { split: '={{ 0 }}' } }, 'Split Into Items'],
	])('%s is refused before anything is signed', async (_name, parameters, label) => {
		const counted = await runTraced(gw.sim, parameters);
		expectNothingLeftCounted(counted);
		expect(counted.result.error?.message).toMatch(new RegExp(`^Invalid '${label.replace(/[()]/g, '\\$&')}'`));
	});
});

describe('a refused node-wide setting under Continue On Fail', () => {
	it('Parallel Requests 0: every input item gets its own error item, paired, and nothing is signed', async () => {
		const logStart = gw.sim.server.log.entries.length;
		const result = await runNode({
			nodeType: 'scraperGateway',
			credentials: walletCredential(gw.sim, gw.sim.testWallets[0]),
			parameters: { resource: 'page', operation: 'fetch', url: '={{ $json.url }}', additionalFields: {}, options: { parallelRequests: 0 } },
			input: [{ url: 'https://example.com/a' }, { url: 'https://example.com/b' }, { url: 'https://example.com/c' }],
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		result.items.forEach((item, i) => expect(item.json.error).toBe(`Invalid 'Parallel Requests': 0 is out of range from 1 to 10 [item ${i}]`));
		expect(gw.sim.server.log.entries.length - logStart).toBe(0);
	});
});

describe('x402 Wallet credential fields', () => {
	const hex = (length: number) => fc.stringMatching(new RegExp(`^[0-9a-fA-F]{${length}}$`));
	const fields: Array<{ label: string; values: fc.Arbitrary<ICredentialDataDecryptedObject> }> = [
		{
			label: 'Private Key',
			values: fc.oneof(
				fc.constantFrom('', '  ', '0x', 'not a key', `0x${'0'.repeat(64)}`, `0x${'f'.repeat(64)}`).map((privateKey) => ({ privateKey })),
				hex(64).map((h) => ({ privateKey: h })),
				fc.integer({ min: 1, max: 80 }).filter((n) => n !== 64).chain((n) => hex(n)).map((h) => ({ privateKey: `0x${h}` })),
				hex(63).map((h) => ({ privateKey: `0x${h}g` })),
			),
		},
		{
			label: 'Gateway Base URL',
			values: fc.constantFrom('', 'not a url', 'ftp://127.0.0.1/', 'http://user:pass@127.0.0.1:1/', 'javascript:alert(1)').map((baseUrl) => ({ baseUrl })),
		},
		{
			label: 'USDC Token Address',
			values: fc.oneof(fc.constantFrom('', '0x', '0x123', 'usdc').map((usdcAddress) => ({ usdcAddress })), hex(39).map((h) => ({ usdcAddress: `0x${h}` }))),
		},
		{
			label: 'Max Price per Request (USDC)',
			values: fc.oneof(fc.constantFrom(0, -0.01, Number.NaN, Number.POSITIVE_INFINITY, 'cheap').map((maxPricePerRequest) => ({ maxPricePerRequest })), fc.double({ max: -1e-9, noNaN: true }).map((maxPricePerRequest) => ({ maxPricePerRequest }))),
		},
		{
			label: 'Pinned Payee Address',
			values: fc.oneof(fc.constantFrom('0x', '0x123', 'me').map((payTo) => ({ payTo })), hex(41).map((h) => ({ payTo: `0x${h}` }))),
		},
	];

	it.each(fields.map((f): [string, (typeof fields)[number]] => [f.label, f]))('%s: a broken value is refused naming the field; nothing is signed', async (_label, field) => {
		totals.parameters.add(`x402WalletApi.${field.label}`);
		await fc.assert(
			fc.asyncProperty(field.values, async (overrides) => {
				totals.invalidCases++;
				const counted = await runTraced(gw.sim, { resource: 'page', operation: 'fetch', url: 'https://example.com/', additionalFields: {}, options: {} }, overrides);
				expectNothingLeftCounted(counted);
				expect(counted.result.error?.message).toContain(`'${field.label}'`);
				expect(counted.result.error?.message).toContain('x402 Wallet');
			}),
			{ numRuns: INVALID_RUNS },
		);
	});
});
