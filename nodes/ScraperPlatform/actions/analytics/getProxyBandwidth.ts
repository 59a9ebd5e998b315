import type { Operation } from '../../../shared/execution/operation';
import { readFields } from '../../../shared/input/fieldSets';
import { asRecords, splitIntoItems } from '../../../shared/output/records';
import { platformRequest } from '../../transport/api';
import { dateRangeQuery, END_DATE, START_DATE } from './common';

export const analyticsGetProxyBandwidth: Operation = {
	value: 'getProxyBandwidth',
	name: 'Get Proxy Bandwidth',
	action: 'Get analytics of proxy bandwidth per proxy user',
	description: 'Get the proxy bandwidth used per proxy username over a time window, one item per username',
	properties: [START_DATE.property, END_DATE.property],
	async execute(itemIndex, call) {
		const qs = dateRangeQuery(this, itemIndex, readFields(this, itemIndex, [START_DATE, END_DATE]));
		const response = await platformRequest<unknown>(
			call,
			{ method: 'GET', path: '/api/v1/proxies/user/requests-bandwidth', qs, idempotent: true },
			itemIndex,
		);
		// The rows may come bare or inside the usual envelope.
		const rows = Array.isArray(response) ? response : response.data;
		return splitIntoItems(asRecords(rows), itemIndex, { startDate: qs.startDate, endDate: qs.endDate });
	},
};
