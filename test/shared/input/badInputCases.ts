/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- test code in plain Node: it reads BAD_INPUT_RUNS, prints its totals and rethrows the harness's own errors */
// Bad input, generated: what the files `badInput*.test.ts` share. For every operation of Scraper Platform and Scraper
// Marketplace and every parameter it shows, values that break the parameter's rule must fail with an error naming
// the field (its display name) and the rule, before anything is sent; values drawn the same way that keep the rule
// must pass validation. The operations are spread over several files only so that they run in parallel.
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../harness';
import type { RunResult } from '../../harness';
import { MARKETPLACE_DEMO_TOKEN, MarketplaceSimulator } from '../../simulator/marketplace';
import { PLATFORM_DEMO_TOKEN, PlatformSimulator } from '../../simulator/platform';
import { invalidValues, parameterCases, validValues, withValue } from './generate';
import type { ParameterCase } from './generate';
import type { OperationCase } from './badInputOperations';
import { PLATFORM_RULES } from './badInputOperations';

/** Runs per parameter: invalid values are cheap (nothing is sent), valid ones reach the simulator. */
export const INVALID_RUNS = Number(process.env.BAD_INPUT_RUNS ?? 25);
export const VALID_RUNS = 3;

/** One file's simulators (started before its tests, closed after them), its runs and its totals. */
export interface BadInputContext {
	platform: () => PlatformSimulator;
	marketplace: () => MarketplaceSimulator;
	/** Requests both simulators have received so far. */
	requestsSeen: () => number;
	/**
	 * Runs the operation; `undefined` when n8n itself refuses to start the workflow (a required field left empty or a
	 * value that hides a required one: the editor marks the field, and nothing runs).
	 */
	run: (op: OperationCase, parameters: IDataObject, stopAfterMs?: number) => Promise<RunResult | undefined>;
	/** Totals over the file, for the closing figures. */
	totals: { invalidCases: number; validCases: number; refusedByN8n: number; parameters: Set<string>; requestsFromInvalid: number };
}

/** Starts a Scraper Platform and a Scraper Marketplace simulator for the file and prints its totals at the end. */
export function useBadInput(what: string): BadInputContext {
	let platform: PlatformSimulator;
	let marketplace: MarketplaceSimulator;
	const totals = { invalidCases: 0, validCases: 0, refusedByN8n: 0, parameters: new Set<string>(), requestsFromInvalid: 0 };

	beforeAll(async () => {
		platform = new PlatformSimulator();
		marketplace = new MarketplaceSimulator();
		await Promise.all([platform.listen(), marketplace.listen()]);
	});

	afterAll(async () => {
		await Promise.all([platform?.close(), marketplace?.close()]);
		process.stdout.write(
			`bad input (${what}): ${totals.invalidCases} invalid and ${totals.validCases} valid generated cases over ${totals.parameters.size} parameters (${totals.refusedByN8n} refused by n8n's own required-field check before the node ran); requests caused by invalid ones: ${totals.requestsFromInvalid}\n`,
		);
	});

	const runOperation = async (op: OperationCase, parameters: IDataObject, stopAfterMs: number): Promise<RunResult> =>
		await runNode({
			nodeType: op.node,
			parameters: { resource: op.resource, operation: op.operation, ...parameters } as never,
			// One input item carrying a URL field, for Bulk > Start from all input items.
			input: [{ url: 'https://a.example.com/from-item' }],
			credentials:
				op.node === 'scraperPlatform'
					? { scraperPlatformApi: { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: platform.url } }
					: { scraperMarketplaceApi: { apiToken: MARKETPLACE_DEMO_TOKEN, baseUrl: marketplace.url } },
			// Nothing may wait in these files: a run that starts work is stopped (validation comes before any of it).
			cancelAfterMs: stopAfterMs,
		});

	return {
		platform: () => platform,
		marketplace: () => marketplace,
		requestsSeen: () => platform.server.log.entries.length + marketplace.server.log.entries.length,
		run: async (op, parameters, stopAfterMs = 2_000) => {
			try {
				return await runOperation(op, parameters, stopAfterMs);
			} catch (error) {
				if ((error as Error).name === 'WorkflowHasIssuesError') return undefined;
				throw error;
			}
		},
		totals,
	};
}

/**
 * For each operation: every parameter it shows, with values that break its rule (refused naming it, nothing sent)
 * and, where the rule can draw them, values that keep it (they pass validation).
 */
export function describeOperations(ctx: BadInputContext, operations: OperationCase[]): void {
	describe.each(operations)('$node $resource > $operation', (op) => {
		const cases = parameterCases(op.node, op.resource, op.operation, op.baseline, { ...(op.node === 'scraperPlatform' ? PLATFORM_RULES : {}), ...op.overrides });
		const checked = cases.filter((c) => c.rule.kind !== 'skip');

		if (checked.length === 0) {
			it('has no parameters to break', () => expect(cases).toEqual([]));
			return;
		}

		it.each(checked.map((c): [string, ParameterCase] => [c.path.join('.'), c]))('%s: a value that breaks its rule is refused, naming it, and nothing is sent', async (_name, parameter) => {
			ctx.totals.parameters.add(`${op.node}.${op.resource}.${op.operation}.${parameter.path.join('.')}`);
			await fc.assert(
				fc.asyncProperty(invalidValues(parameter.rule), async (drawn) => {
					ctx.totals.invalidCases++;
					const before = ctx.requestsSeen();
					const result = await ctx.run(op, withValue(op.baseline, parameter.path, drawn.stored));
					const sent = ctx.requestsSeen() - before;
					ctx.totals.requestsFromInvalid += sent;
					expect(sent).toBe(0);
					if (!result) {
						ctx.totals.refusedByN8n++;
						return;
					}
					expect(result.error?.message ?? `no error for ${drawn.describe}`).toContain(`'${parameter.label}'`);
					expect(result.error?.description ?? '').not.toBe('');
				}),
				{ numRuns: INVALID_RUNS },
			);
		});

		const withValid = checked.filter((c) => validValues(c.rule) !== undefined);
		if (withValid.length > 0) {
			it.each(withValid.map((c): [string, ParameterCase] => [c.path.join('.'), c]))('%s: a value that keeps its rule passes validation', async (_name, parameter) => {
				await fc.assert(
					fc.asyncProperty(validValues(parameter.rule) as fc.Arbitrary<{ stored: unknown; describe: string }>, async (drawn) => {
						ctx.totals.validCases++;
						const result = await ctx.run(op, withValue(op.baseline, parameter.path, drawn.stored), 300);
						// It may still fail at the service (an id that does not exist), but never as invalid input.
						expect(result).toBeDefined();
						expect(result?.error?.message ?? '').not.toMatch(/^Invalid '/);
					}),
					{ numRuns: VALID_RUNS },
				);
			});
		}
	});
}
