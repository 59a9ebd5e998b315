import { deleteRecord } from '../../transport/api';
import { SUBJECT } from '../../transport/vocabulary';
import type { Operation } from '../../../shared/execution/operation';
import { integerIdOf, marketplaceIdParameter } from '../common';

export const scrapingRunDelete: Operation = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete scraping run',
	description: 'Remove a scraping run and all its results from your account for good',
	properties: [
		...marketplaceIdParameter(
			'scrapingRunId',
			'Scraping Run ID',
			'searchScrapingRuns',
			"The scraping run to remove with its results: pick it from the list, or enter its ID, e.g. the 'scraping_run_id' of a Result > Get Many output",
			'5001',
		),
	],
	parallel: true,
	async execute(itemIndex, call) {
		const id = integerIdOf(this, 'scrapingRunId', 'Scraping Run ID', itemIndex);
		await deleteRecord(call, SUBJECT.scrapingRun, id, itemIndex);
		return [{ json: { deleted: true, id } }];
	},
};
