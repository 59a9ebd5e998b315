import type { DateTime } from 'luxon';
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputValidator } from '../../../shared/input/validation';

export const dateRangeProperties: INodeProperties[] = [
	{
		displayName: 'Start Date',
		name: 'startDate',
		type: 'dateTime',
		required: true,
		default: '',
		description: 'Start of the window, in the workflow\'s time zone (sent to the service in UTC)',
	},
	{
		displayName: 'End Date',
		name: 'endDate',
		type: 'dateTime',
		required: true,
		default: '',
		description: 'End of the window, in the workflow\'s time zone (sent to the service in UTC)',
	},
];

/** The window as the service reads it: `yyyy-MM-dd HH:mm:ss` in UTC. */
export function readDateRange(ctx: IExecuteFunctions, itemIndex: number): { startDate: string; endDate: string } {
	const v = new InputValidator(ctx.getNode(), itemIndex);
	const timezone = ctx.getTimezone();
	const start = v.dateTime(ctx.getNodeParameter('startDate', itemIndex), 'Start Date', timezone);
	const end = v.dateTime(ctx.getNodeParameter('endDate', itemIndex), 'End Date', timezone);
	v.range(start, end, 'Start Date', 'End Date');
	return { startDate: toServiceUtc(start), endDate: toServiceUtc(end) };
}

/** `yyyy-MM-dd HH:mm:ss` in UTC, the format the platform's analytics and bandwidth endpoints read. */
function toServiceUtc(date: DateTime): string {
	return date.toUTC().toFormat('yyyy-MM-dd HH:mm:ss');
}
