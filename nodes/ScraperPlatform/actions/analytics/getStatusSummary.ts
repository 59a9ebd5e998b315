import { additionalFields, optionsCollection } from '../../../shared/descriptions/collections';
import type { Operation } from '../../../shared/execution/operation';
import { field } from '../../../shared/input/fields';
import type { Rule } from '../../../shared/input/fields';
import { collection, Moved, readFields, Request } from '../../../shared/input/fieldSets';
import { asRecords, SPLIT_INTO_ITEMS, splitIntoItems } from '../../../shared/output/records';
import { platformRequest } from '../../transport/api';
import { FROM_OPTIONS, PLATFORM_VERSIONS } from '../../versions';
import { dateRangeQuery, END_DATE, START_DATE } from './common';

/** A host name: labels of letters, digits and hyphens, dot-separated, at most 253 characters. */
const HOST_NAME = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(\.(?!-)[a-z0-9-]{1,63})*$/;

/**
 * The domain sent: a domain as typed, or the host name of a page URL (with or without https://), as the vendor's
 * MCP server and CLI cut it (public facts, "Analytics"); anything else is refused, naming what it is.
 */
const domainRule: Rule<string> = (v, value, label) => {
	const text = v.requiredString(value, label);
	const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1]?.toLowerCase();
	const fix = 'Enter a domain such as example.com, or a page URL such as https://www.example.com/shop.';
	if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') v.fail(label, `"${text}" is not a web address (${scheme}:)`, fix);
	let host = '';
	try {
		host = new URL(scheme ? text : `https://${text}`).hostname;
	} catch {
		// Not a URL: refused below, as a host name that is not one.
	}
	if (!HOST_NAME.test(host)) v.fail(label, `"${text}" is not a domain`, fix);
	return host;
};

const DOMAIN = field(
	{
		displayName: 'Domain',
		name: 'domain',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. example.com',
		description: 'The website domain to report on',
		hint: 'A page URL is cut to its host name, as the service reads it: https://www.example.com/shop -> www.example.com',
	},
	domainRule,
);

const ACTION = field({
	displayName: 'Action',
	name: 'action',
	type: 'string',
	default: '',
	description: 'Only count runs of this custom scraper action',
});

const API_TOKEN_NAME = field({
	displayName: 'API Token Name',
	name: 'apiTokenName',
	type: 'string',
	// The token's name, not the token. n8n's verification scanner requires every parameter named like a token to be
	// masked, and renaming it would drop the filter from saved workflows.
	typeOptions: { password: true },
	default: '',
	description: 'Only count requests made with the token of this name (the name given when it was created)',
});

const ADDITIONAL = collection(additionalFields, [ACTION, API_TOKEN_NAME]);

const SPLIT = new Moved(
	SPLIT_INTO_ITEMS.with({ description: 'Whether to output one item per status (PENDING, RUNNING, … with its count) instead of one summary item' }),
	PLATFORM_VERSIONS.options,
);

const OPTIONS = collection((options) => optionsCollection(options, { displayOptions: { show: FROM_OPTIONS } }), [SPLIT]);

const QUERY = new Request([DOMAIN, ACTION, API_TOKEN_NAME]);

export const analyticsGetStatusSummary: Operation = {
	value: 'getStatusSummary',
	name: 'Get Status Summary',
	action: 'Get analytics status summary of domain',
	description: 'Count scrapes of a domain by status over a time window, with success rate, pace and latency',
	properties: [DOMAIN.property, START_DATE.property, END_DATE.property, ADDITIONAL.property, SPLIT.legacy, OPTIONS.property],
	async execute(itemIndex, call) {
		const values = readFields(this, itemIndex, [DOMAIN, START_DATE, END_DATE, ADDITIONAL]);
		const { domain, ...filters } = QUERY.body(values);
		// The window right after the domain, as the interface lists the query.
		const qs = { domain, ...dateRangeQuery(this, itemIndex, values), ...filters };
		const split = SPLIT.read(this, itemIndex) ?? false;

		const response = await platformRequest(call, { method: 'GET', path: '/api/v1/analytic/statuses', qs, idempotent: true }, itemIndex);
		const summary = response.data;
		if (!split) return [{ json: summary }];
		// Numeric strings are allowed by the interface: give spreadsheets numbers.
		const rows = asRecords(summary.data).map((row) => ({
			status: row.key,
			count: typeof row.value === 'string' && row.value.trim() !== '' && !Number.isNaN(Number(row.value)) ? Number(row.value) : row.value,
		}));
		return splitIntoItems(rows, itemIndex, { domain, startDate: qs.startDate, endDate: qs.endDate });
	},
};
