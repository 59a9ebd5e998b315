import type { Operation } from '../../../shared/execution/operation';
import { ID_KINDS } from '../../transport/vocabulary';
import { scraperId } from '../../descriptions/ids';
import { cancelBulkWork } from './common';

const SCRAPER_ID = scraperId('The scraper whose bulk jobs to stop: every URL of its bulk jobs that has not started yet is canceled');

export const bulkCancelAllOfScraper: Operation = {
	value: 'cancelAllOfScraper',
	name: 'Cancel All Pending of Scraper',
	action: 'Cancel all pending bulk URLs of scraper',
	description: 'Cancel the pending URLs of every bulk job of one scraper; URLs already running finish normally',
	properties: [...SCRAPER_ID.properties],
	async execute(itemIndex, call) {
		const id = SCRAPER_ID.read(this, itemIndex);
		return await cancelBulkWork(call, `/api/v1/scrapers-bulks/${encodeURIComponent(id)}/cancel`, { kind: ID_KINDS.scraper, id }, itemIndex);
	},
};
