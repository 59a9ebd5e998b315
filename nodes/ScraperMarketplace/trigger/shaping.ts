import { NodeOperationError } from 'n8n-workflow';
import type { INode, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { getScrapingRun } from '../transport/api';
import { runItem, runRecordItems } from '../runs/output';
import { isFinished } from '../runs/track';
import type { TrackedRun } from '../runs/track';
import { RUN_STATUS } from '../transport/vocabulary';
import type { RunListRecord } from '../transport/vocabulary';
import { walkPages } from '../../shared/paging/pages';
import { PAGE_SIZE, serviceIO } from './io';
import { listedRun, runIdOf } from './listing';
import { wanted } from './properties';
import type { RunTriggerParameters } from './properties';
import type { NodeCall } from '../../shared/execution/call';

/** The editor's sample looks at this many pages of the newest results. */
const SAMPLE_PAGES = 3;

/** A finished run that triggers: at least one result succeeded, or Include Failed Runs is on. */
export function passes(run: TrackedRun, params: Pick<RunTriggerParameters, 'includeFailed'>): boolean {
	const everyResultFailed = run.results.every((r) => String(r.status).toLowerCase() !== RUN_STATUS.succeeded);
	return params.includeFailed || !everyResultFailed;
}

/** What a finished run emits, in the chosen shape. A poll's items come from no input item, so they carry no pairing. */
export function runItems(run: TrackedRun, params: Pick<RunTriggerParameters, 'output'>): INodeExecutionData[] {
	if (params.output === 'records') return runRecordItems(run, 0).map(({ json }) => ({ json }));
	return [{ json: runItem(run, true) }];
}

/** The error of a sample that found nothing: what was looked for, and how to get a run that matches. */
export function noSampleError(node: INode, params: Pick<RunTriggerParameters, 'scrapers' | 'includeFailed'>): NodeOperationError {
	const ofChosen = params.scrapers.size > 0 ? ' of the chosen scrapers' : '';
	const skipped = params.includeFailed ? '' : '; runs in which every result failed are skipped unless enabled in Options';
	return new NodeOperationError(node, `No finished scraping run${ofChosen} found yet`, {
		description:
			'Run a scraper (Scraper Marketplace node > Scraper > Run, or a scheduled scraper) and fetch again once its run has finished. ' +
			`The sample is the newest finished run among the ${SAMPLE_PAGES * PAGE_SIZE} newest results${skipped}. ` +
			'Check that the credential belongs to the account that runs the scrapers.',
	});
}

/** A finished run listed on a sample page, read whole (the page may have cut its results); none when it does not trigger. */
async function sampleRunItems(call: NodeCall<IPollFunctions>, id: number, listed: RunListRecord[], params: RunTriggerParameters): Promise<INodeExecutionData[]> {
	if (!isFinished(listed)) return [];
	const full = await getScrapingRun(call, id, 0);
	const run = listedRun(id, Array.isArray(full.results) ? full.results : listed);
	if (!isFinished(run.results) || !passes(run, params)) return [];
	return runItems(run, params);
}

/** A page's runs of the chosen scrapers, newest first, each with its results on the page. */
function runsOn(records: RunListRecord[], params: Pick<RunTriggerParameters, 'scrapers'>): Map<number, RunListRecord[]> {
	const runs = new Map<number, RunListRecord[]>();
	for (const record of records) {
		const id = runIdOf(record);
		if (id === undefined || !wanted(params, record.scraper_id)) continue;
		runs.set(id, [...(runs.get(id) ?? []), record]);
	}
	return runs;
}

/** The editor's "Fetch Test Event": the newest finished run that passes the filters, read whole; no state changes. */
export async function sampleItems(call: NodeCall<IPollFunctions>, params: RunTriggerParameters): Promise<INodeExecutionData[]> {
	const { ctx } = call;
	// A run met again on the next page (the listing shifted, or it straddles the pages) is tried once.
	const tried = new Set<number>();
	for await (const page of walkPages(serviceIO(call).readPage, 1)) {
		for (const [id, listed] of runsOn(page.records, params)) {
			if (tried.has(id)) continue;
			tried.add(id);
			const items = await sampleRunItems(call, id, listed, params);
			if (items.length > 0) return items;
		}
		if (page.count >= SAMPLE_PAGES) break;
	}
	throw noSampleError(ctx.getNode(), params);
}
