import type { IDataObject } from 'n8n-workflow';

import { additionalFields, FROM_OPTIONS, movedToOptions, optionsCollection, readMoved } from '../../../shared/descriptions/collections';
import type { Operation } from '../../../shared/execution/operation';
import { asRecords, splitIntoItems } from '../../../shared/output/records';
import { platformRequest } from '../../transport/api';
import { InputValidator } from '../../../shared/input/validation';
import { dateRangeProperties, readDateRange } from './common';

const splitMoved = movedToOptions({
	displayName: 'Split Into Items',
	name: 'split',
	type: 'boolean',
	default: false,
	description: 'Whether to output one item per status (PENDING, RUNNING, … with its count) instead of one summary item',
});

export const analyticsGetStatusSummary: Operation = {
	value: 'getStatusSummary',
	name: 'Get Status Summary',
	action: 'Get analytics status summary of domain',
	description: 'Count scrapes of a domain by status over a time window, with success rate, pace and latency',
	properties: [
		{
			displayName: 'Domain',
			name: 'domain',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. example.com',
			description: 'The website domain to report on',
		},
		...dateRangeProperties,
		additionalFields([
			{
				displayName: 'Action',
				name: 'action',
				type: 'string',
				default: '',
				description: 'Only count runs of this custom scraper action',
			},
			{
				displayName: 'API Token Name',
				name: 'apiTokenName',
				type: 'string',
				// The token's name, not the token. n8n's verification scanner requires every parameter named like a
				// token to be masked, and renaming it would drop the filter from saved workflows.
				typeOptions: { password: true },
				default: '',
				description: 'Only count requests made with the token of this name (the name given when it was created)',
			},
		]),
		splitMoved.legacy,
		optionsCollection([splitMoved.option], { displayOptions: { show: FROM_OPTIONS } }),
	],
	async execute(itemIndex, call) {
		const v = new InputValidator(this.getNode(), itemIndex);
		const domain = v.requiredString(this.getNodeParameter('domain', itemIndex), 'Domain');
		if (/^https?:\/\//i.test(domain) || domain.includes('/')) {
			v.fail('Domain', `"${domain}" is a URL, not a domain`, 'Enter only the domain, e.g. example.com.');
		}
		const qs: IDataObject = { domain, ...readDateRange(this, itemIndex) };
		const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const action = v.optionalString(additional.action, 'Action');
		if (action !== undefined) qs.action = action;
		const apiTokenName = v.optionalString(additional.apiTokenName, 'API Token Name');
		if (apiTokenName !== undefined) qs.apiTokenName = apiTokenName;
		const split = v.boolean(readMoved(this, 'split', itemIndex, false), 'Split Into Items');

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
