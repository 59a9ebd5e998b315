import type { Operation } from '../../../shared/execution/operation';
import { getResult } from '../../transport/api';
import { ID_KINDS } from '../../transport/vocabulary';
import { BULK_ID } from '../../descriptions/ids';
import { bulkFinishProperties, bulkOptions, finishBulk, readBulkFinish } from './common';

export const bulkGet: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get bulk job',
	description: 'Get the status, summary counts, per-URL details and merged records of a bulk job',
	properties: [...BULK_ID.properties, ...bulkFinishProperties, bulkOptions.property],
	parallel: true,
	async execute(itemIndex, call) {
		const id = BULK_ID.read(this, itemIndex);
		const finish = readBulkFinish(this, itemIndex);
		return await finishBulk(call, await getResult(call, id, itemIndex, ID_KINDS.bulkJob), itemIndex, finish);
	},
};
