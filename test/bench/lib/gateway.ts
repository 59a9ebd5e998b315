import type { IDataObject } from 'n8n-workflow';

import { walletCredential } from '../../gateway/support';
import { runNode } from '../../harness';
import type { RunResult } from '../../harness';
import type { DevWallet, GatewaySimulator } from '../../simulator/gateway';

export const FETCH_ROUTE = 'POST /api/service/scraperAPI';

/** Runs the Scraper Gateway node (Page > Fetch by default) through the harness; a failed run is a broken benchmark. */
export async function runGateway(
	sim: GatewaySimulator,
	wallet: DevWallet,
	parameters: IDataObject,
	input: IDataObject[],
): Promise<RunResult> {
	const result = await runNode({
		nodeType: 'scraperGateway',
		parameters: parameters as never,
		credentials: walletCredential(sim, wallet),
		input,
	});
	if (result.error) throw new Error(`benchmark run failed: ${result.error.message}`);
	const failed = result.items.find((item) => item.json.error !== undefined);
	if (failed) throw new Error(`benchmark item failed: ${String(failed.json.error)}`);
	return result;
}

export const fetchParameters = (options: IDataObject = {}): IDataObject => ({
	resource: 'page',
	operation: 'fetch',
	url: '={{ $json.url }}',
	options,
});

/** Requests the gateway received since log index `from`: all, signed (carrying PAYMENT-SIGNATURE), and 402 answers. */
export function requestCounts(sim: GatewaySimulator, from: number): { total: number; signed: number; unpaid402: number } {
	const entries = sim.server.log.entries.slice(from);
	return {
		total: entries.length,
		signed: entries.filter((e) => typeof e.headers['payment-signature'] === 'string').length,
		unpaid402: entries.filter((e) => e.status === 402).length,
	};
}
