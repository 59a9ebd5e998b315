import type { DateTime } from 'luxon';
import type { IExecuteFunctions } from 'n8n-workflow';

import { field, rules, validatorFor } from '../../../shared/input/fields';
import type { Values } from '../../../shared/input/fieldSets';

/** The window both analytics operations report on, each date in the workflow's time zone. */
export const START_DATE = field(
	{
		displayName: 'Start Date',
		name: 'startDate',
		type: 'dateTime',
		required: true,
		default: '',
		description: "Start of the window, in the workflow's time zone (sent to the service in UTC)",
	},
	rules.dateTime,
);

export const END_DATE = field(
	{
		displayName: 'End Date',
		name: 'endDate',
		type: 'dateTime',
		required: true,
		default: '',
		description: "End of the window, in the workflow's time zone (sent to the service in UTC)",
	},
	rules.dateTime,
);

/**
 * The window as the service reads it, each date under its field's name as `yyyy-MM-dd HH:mm:ss` in UTC; the end must
 * come after the start. `values` holds both dates, read and checked.
 */
export function dateRangeQuery(ctx: IExecuteFunctions, itemIndex: number, values: Values): { startDate: string; endDate: string } {
	const start = values.get(START_DATE);
	const end = values.get(END_DATE);
	validatorFor(ctx, itemIndex).range(start, end, START_DATE.label, END_DATE.label);
	return { startDate: toServiceUtc(start), endDate: toServiceUtc(end) };
}

/** `yyyy-MM-dd HH:mm:ss` in UTC, the format the platform's analytics and bandwidth endpoints read. */
function toServiceUtc(date: DateTime): string {
	return date.toUTC().toFormat('yyyy-MM-dd HH:mm:ss');
}
