/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the repository's example workflow with Node's fs */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { Workflow } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';

import { loadPackage, NodeTypes } from '../../harness';

import { CHANGE_PERIOD_MS } from '../../simulator/platform/changingPages';
import { useWatchHosts, WatchTrigger } from './helpers';

/**
 * Example 12 as a user activates it: its trigger's own parameters on the simulator's changing product page, and its
 * sheet columns (the Set node's expressions) read from each item the trigger emits.
 */

const ctx = useWatchHosts();
const workflow = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'examples', '12-page-changed-to-sheet-rows.json'), 'utf8')) as { nodes: INode[] };
const [trigger, sheet] = workflow.nodes;

/** Each column of the Set node, its expression evaluated by n8n's own expression engine on the item as `$json`. */
function sheetRow(json: IDataObject): Record<string, unknown> {
	const { assignments } = sheet.parameters.assignments as { assignments: Array<{ name: string; value: string }> };
	// The expressions read only `$json`: a workflow of the trigger alone (our package's types) gives them their context.
	const { nodes } = loadPackage();
	const { expression } = new Workflow({ nodes: [trigger], connections: {}, active: false, nodeTypes: new NodeTypes(nodes) });
	const evaluate = (value: string) => expression.getParameterValue(value, null, 0, 0, trigger.name, [{ json }], 'manual', {});
	return Object.fromEntries(assignments.map(({ name, value }) => [name, evaluate(value)]));
}

describe('example 12: when a product page changes -> spreadsheet rows', () => {
	it('records on activation, then one row per change with the price, the stock and the changed lines', async () => {
		// n8n's poll times are the schedule, not a parameter the trigger reads.
		const parameters = Object.fromEntries(Object.entries(trigger.parameters).filter(([name]) => name !== 'pollTimes')) as IDataObject;
		const watch = new WatchTrigger(ctx, parameters);
		expect(await watch.poll()).toEqual([]);
		const rows: Array<Record<string, unknown>> = [];
		for (let period = 1; period <= 3; period++) {
			ctx.platform.clock.advance(CHANGE_PERIOD_MS);
			rows.push(...(await watch.poll()).map((item) => sheetRow(item.json)));
		}
		// The price moves every period; the stock runs out every third one.
		expect(rows).toHaveLength(3);
		for (const row of rows) {
			expect(row.Page).toBe(parameters.url);
			expect(row.Price).toEqual(expect.any(Number));
			expect(Number.isNaN(row.Price)).toBe(false);
			expect(['yes', 'no']).toContain(row['In Stock']);
			expect(String(row.Added)).toMatch(/\$\d/);
			expect(row['Tokens Used']).toEqual(expect.any(Number));
		}
		expect(new Set(rows.map((row) => row.Price)).size).toBeGreaterThan(1);
		expect(rows.map((row) => row['In Stock'])).toContain('no');
	});
});
