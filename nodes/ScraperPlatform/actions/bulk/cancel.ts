import type { Operation } from '../../../shared/execution/operation';
import { ID_KINDS } from '../../transport/vocabulary';
import { BULK_ID } from '../../descriptions/ids';
import { cancelBulkWork } from './common';

export const bulkCancel: Operation = {
	value: 'cancel',
	name: 'Cancel One Job',
	action: 'Cancel one bulk job',
	description: "Cancel the URLs of one bulk job that are still pending; URLs already running finish normally, the scraper's other jobs go on",
	properties: [...BULK_ID.properties],
	async execute(itemIndex, call) {
		const id = BULK_ID.read(this, itemIndex);
		return await cancelBulkWork(call, `/api/v1/scrapers-bulks/result/${encodeURIComponent(id)}/cancel`, { kind: ID_KINDS.bulkJob, id }, itemIndex);
	},
};
