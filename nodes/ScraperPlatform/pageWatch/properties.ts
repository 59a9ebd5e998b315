import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';

import { optionsCollection } from '../../shared/descriptions/collections';
import { field, rules } from '../../shared/input/fields';
import { collection, readFields, Request } from '../../shared/input/fieldSets';
import {
	BLOCK_RESOURCES,
	BROWSER_RENDERING,
	COUNTRY,
	FETCH_QUERY,
	HOME_PAGE,
	HTML,
	MARKDOWN,
	MAX_RETRIES,
	PAGE_URL,
	PROXY_COUNTRY,
	SUPER_MODE,
	TIMEOUT,
	TOKEN_CAP,
	WAIT_FOR_SELECTOR,
	WAIT_UNTIL,
} from '../pageFetch/fields';

/** Page Changed's parameters: the page (Page > Fetch's URL and the options that matter for watching it), and Only When. */

const URL_FIELD = PAGE_URL.with({
	description: 'Public http(s) page to watch, e.g. a product page. Local and private addresses are refused before anything is sent.',
	hint: 'Each poll fetches this page once and uses plan tokens, as Page > Fetch does: poll less often to spend less',
});

export const ONLY_WHEN_VALUES = ['anyChange', 'contains', 'noLongerContains'] as const;
export type OnlyWhen = (typeof ONLY_WHEN_VALUES)[number];

export const ONLY_WHEN = field(
	{
		displayName: 'Only When',
		name: 'onlyWhen',
		type: 'options',
		default: 'anyChange',
		options: [
			{ name: 'Any Change', value: 'anyChange', description: "Start the workflow whenever the page's text changed" },
			{ name: 'Contains Text', value: 'contains', description: 'Start it only when the changed page contains the text' },
			{ name: 'No Longer Contains Text', value: 'noLongerContains', description: 'Start it only when the text was on the page and is gone' },
		],
		description: 'Which changes start the workflow. A change that does not meet this is still recorded, so it never starts the workflow later.',
	},
	rules.oneOf(ONLY_WHEN_VALUES),
);

/** Shown for the two conditions that look for a text; required there. */
const WATCHED_TEXT = field({
	displayName: 'Text',
	name: 'text',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. In stock',
	displayOptions: { show: { onlyWhen: ['contains', 'noLongerContains'] } },
	description: 'The text to look for in the page, ignoring upper and lower case',
});

/** What matters for watching a page; not the HTML, Markdown, screenshot or cookies switches (the text is always asked for). */
const WATCH_OPTIONS = [TIMEOUT, COUNTRY, BROWSER_RENDERING, WAIT_FOR_SELECTOR, HOME_PAGE, BLOCK_RESOURCES, MAX_RETRIES, TOKEN_CAP, PROXY_COUNTRY, WAIT_UNTIL, SUPER_MODE];
const OPTIONS = collection(optionsCollection, WATCH_OPTIONS);
const QUERY = new Request([URL_FIELD, ...WATCH_OPTIONS]);

/** Markdown and HTML are both asked for, as Page > Fetch asks with its switches on: the Markdown is compared when given. */
const ASK_TEXT: IDataObject = { [FETCH_QUERY.keyOf(HTML)]: true, [FETCH_QUERY.keyOf(MARKDOWN)]: true };

export const pageChangedProperties: INodeProperties[] = [URL_FIELD.property, ONLY_WHEN.property, WATCHED_TEXT.property, OPTIONS.property];

export interface WatchParameters {
	url: string;
	onlyWhen: OnlyWhen;
	/** The text Only When looks for; undefined for Any Change. */
	text?: string;
	/** The fetch's query, as Page > Fetch sends it. */
	query: IDataObject;
	timeoutSeconds?: number;
}

/** Reads and checks every parameter before any request. */
export function readWatchParameters(ctx: IPollFunctions): WatchParameters {
	const values = readFields(ctx, 0, [URL_FIELD, ONLY_WHEN, OPTIONS]);
	const onlyWhen = values.get(ONLY_WHEN);
	return {
		url: values.get(URL_FIELD),
		onlyWhen,
		text: onlyWhen === 'anyChange' ? undefined : WATCHED_TEXT.read(ctx),
		query: { ...QUERY.body(values), ...ASK_TEXT },
		timeoutSeconds: values.of(TIMEOUT),
	};
}

const includes = (text: string, sought: string): boolean => text.toLowerCase().includes(sought.toLowerCase());

/** Whether a change from `before` to `after` meets Only When (case-insensitive). */
export function meetsOnlyWhen(params: Pick<WatchParameters, 'onlyWhen' | 'text'>, before: string, after: string): boolean {
	const sought = params.text ?? '';
	if (params.onlyWhen === 'contains') return includes(after, sought);
	if (params.onlyWhen === 'noLongerContains') return includes(before, sought) && !includes(after, sought);
	return true;
}
