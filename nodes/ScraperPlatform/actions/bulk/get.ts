import type { Operation } from '../../../shared/execution/operation';
import { getResult } from '../../transport/api';
import { ID_KINDS } from '../../transport/vocabulary';
import { bulkIdOf, bulkIdParameter } from '../../descriptions/ids';
import { bulkJobSimplifyProperties, bulkOptions, bulkOutputProperty, finishBulk, readBulkFinish, waitProperties } from './common';

export const bulkGet: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get bulk job',
	description: 'Get the status, summary counts, per-URL details and merged records of a bulk job',
	properties: [...bulkIdParameter, ...waitProperties, bulkOutputProperty, ...bulkJobSimplifyProperties, bulkOptions],
	parallel: true,
	async execute(itemIndex, call) {
		const id = bulkIdOf(this, itemIndex);
		const finish = readBulkFinish(this, itemIndex);
		return await finishBulk(call, await getResult(call, id, itemIndex, ID_KINDS.bulkJob), itemIndex, finish);
	},
};
