import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { NodeCall } from '../../shared/execution/call';
import type { TriggerEvent } from '../../shared/execution/triggerEvents';
import { checkPage } from './check';
import type { CheckedPage } from './check';
import { lineDiff } from './lineDiff';
import { meetsOnlyWhen, ONLY_WHEN, pageChangedProperties, readWatchParameters } from './properties';
import type { WatchParameters } from './properties';
import { hashOf, keptPart, record, recordedFor, stateOf } from './state';
import type { WatchState } from './state';

/**
 * Page Changed: each poll fetches one page and starts the workflow when its text changed since the last poll. The
 * first poll of a URL only records it; a failed check records nothing (check.ts), so it is never a change.
 */

/** The item of one check against what was recorded: what changed, when, and what the fetch used. */
function changeItem(recorded: WatchState | undefined, page: CheckedPage, checkedAt: string): IDataObject {
	const changed = recorded !== undefined && recorded.hash !== hashOf(page.text);
	const kept = keptPart(page.text);
	const lines = changed ? lineDiff(recorded.text, kept, { before: recorded.truncated, after: kept !== page.text }) : { diff: '', addedLines: [], removedLines: [] };
	return {
		url: page.url,
		changed,
		text: page.text,
		previousText: recorded?.text ?? null,
		...lines,
		checkedAt,
		previousCheckedAt: recorded?.checkedAt ?? null,
		textSource: page.textSource,
		// The previous text and the diff cover the kept part of a longer page; its change was found by the whole text's hash.
		truncated: kept !== page.text || recorded?.truncated === true,
		...page.usage,
	};
}

/** What Fetch Test Event adds: what an active poll would do with this check. */
function testNote(recorded: WatchState | undefined, item: IDataObject, fires: boolean): string {
	if (!recorded) return 'Nothing is recorded for this URL yet: the first poll after activation records this text and starts nothing.';
	if (item.changed !== true) return `The page has not changed since it was checked at ${recorded.checkedAt}: a poll would start nothing.`;
	if (!fires) return `The page changed, but not as ${ONLY_WHEN.label} asks: a poll would record it and start nothing.`;
	return 'The page changed since it was last checked: a poll would start the workflow with this item.';
}

function fires(params: WatchParameters, recorded: WatchState | undefined, item: IDataObject, page: CheckedPage): boolean {
	return recorded !== undefined && item.changed === true && meetsOnlyWhen(params, recorded.text, page.text);
}

export async function pollPageChanged(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const params = readWatchParameters(ctx);
	const staticData = ctx.getWorkflowStaticData('node');
	const recorded = recordedFor(staticData, params.url);
	const page = await checkPage(new NodeCall(ctx), params);
	const checkedAt = new Date().toISOString();
	const item = changeItem(recorded, page, checkedAt);
	const starts = fires(params, recorded, item, page);
	// The editor's Fetch Test Event: one fetch, the state untouched.
	if (ctx.getMode() === 'manual') return [[{ json: { ...item, note: testNote(recorded, item, starts) } }]];
	// Every successful check is recorded, a change Only When leaves out too: it never starts the workflow later.
	record(staticData, stateOf(params.url, page.text, checkedAt));
	return starts ? [[{ json: item }]] : null;
}

export const pageChangedEvent: TriggerEvent = {
	value: 'pageChanged',
	name: 'Page Changed',
	description: "A web page's text changed since the last poll: once per change, with a line diff. Each poll fetches the page once.",
	properties: pageChangedProperties,
	poll: pollPageChanged,
};
