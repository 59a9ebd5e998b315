import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { SpendRecord, SpendStore } from './ledger';

/**
 * Where an execution keeps what it has spent, beyond the process that spent it: n8n's flow context
 * (`getContext('flow')`), which lives in the execution's own data. n8n saves that data when an execution waits
 * (a Wait node past 65 s, a form, an approval) and restores it wherever the execution resumes: on another queue-mode
 * worker, in the main process, after a restart. Every node of the execution reads the same flow context, so every
 * Scraper Gateway node (and tool) of it counts against one Max Total Spend per paying wallet.
 */

/** The flow context's entry: one record per paying wallet (lower case). */
const KEY = 'scraperGatewaySpend';

function readRecord(value: unknown): SpendRecord | undefined {
	if (!value || typeof value !== 'object') return undefined;
	const { committed, payments } = value as Partial<SpendRecord>;
	if (typeof committed !== 'string' || !/^\d+$/.test(committed)) return undefined;
	const counts = Object.entries(payments && typeof payments === 'object' ? payments : {}).filter((entry): entry is [string, number] => Number.isInteger(entry[1]));
	return { committed, payments: Object.fromEntries(counts) };
}

/** The store of `payer`'s spend in this execution; undefined where n8n gives the node no execution data. */
export function executionSpend(ctx: IExecuteFunctions, payer: string): SpendStore | undefined {
	let flow: IDataObject;
	try {
		flow = ctx.getContext('flow');
	} catch {
		// A node run outside an execution (n8n's own tests of a node) has none: the spend stays in this process.
		return undefined;
	}
	const wallet = payer.toLowerCase();
	const records = () => (flow[KEY] && typeof flow[KEY] === 'object' ? (flow[KEY] as IDataObject) : {});
	return {
		read: () => readRecord(records()[wallet]),
		write: (record) => {
			flow[KEY] = { ...records(), [wallet]: { ...record } };
		},
	};
}
