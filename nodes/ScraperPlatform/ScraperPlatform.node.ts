import { NodeConnectionTypes } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { describeResources, routeOperation } from '../shared/execution/operation';
import type { Resource } from '../shared/execution/operation';
import { accountGet } from './actions/account/get';
import { aiScraperCreateAndRun } from './actions/aiScraper/createAndRun';
import { aiScraperRerun } from './actions/aiScraper/rerun';
import { analyticsGetProxyBandwidth } from './actions/analytics/getProxyBandwidth';
import { analyticsGetStatusSummary } from './actions/analytics/getStatusSummary';
import { bulkCancel } from './actions/bulk/cancel';
import { bulkCancelAllOfScraper } from './actions/bulk/cancelAllOfScraper';
import { bulkGet } from './actions/bulk/get';
import { bulkRetryFailed } from './actions/bulk/retryFailed';
import { bulkStart } from './actions/bulk/start';
import { manualScraperRerun } from './actions/manualScraper/rerun';
import { pageFetch } from './actions/page/fetch';
import { resultGet } from './actions/result/get';
import { resultGetLatest } from './actions/result/getLatest';
import { resultGetMany } from './actions/result/getMany';
import { searchGoogle } from './actions/search/google';
import { searchBulkJobs, searchResults, searchScrapers } from './methods/listSearch';
import { PLATFORM_VERSIONS } from './versions';

const resources: Resource[] = [
	{ value: 'account', name: 'Account', operations: [accountGet] },
	{ value: 'aiScraper', name: 'AI Scraper', operations: [aiScraperCreateAndRun, aiScraperRerun] },
	{ value: 'analytics', name: 'Analytics', operations: [analyticsGetStatusSummary, analyticsGetProxyBandwidth] },
	{ value: 'bulk', name: 'Bulk', operations: [bulkStart, bulkGet, bulkCancel, bulkCancelAllOfScraper, bulkRetryFailed] },
	{ value: 'manualScraper', name: 'Manual Scraper', operations: [manualScraperRerun] },
	{ value: 'page', name: 'Page', operations: [pageFetch] },
	{ value: 'result', name: 'Result', operations: [resultGet, resultGetLatest, resultGetMany] },
	{ value: 'search', name: 'Search', operations: [searchGoogle] },
];

export class ScraperPlatform implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scraper Platform',
		name: 'scraperPlatform',
		icon: { light: 'file:../../icons/scraper.svg', dark: 'file:../../icons/scraper.dark.svg' },
		group: ['transform'],
		// Each version after 1 changed a stored parameter's shape: versions.ts says which and why.
		version: [1, 2, 3, 3.1, 3.2],
		defaultVersion: 3.2,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Fetch pages, search Google, create and rerun AI scrapers, run bulk jobs, and read results and analytics',
		defaults: { name: 'Scraper Platform' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'scraperPlatformApi', required: true }],
		properties: describeResources(resources, 'aiScraper', PLATFORM_VERSIONS.options),
	};

	methods = {
		listSearch: { searchScrapers, searchBulkJobs, searchResults },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await routeOperation(this, resources, { optionsSince: PLATFORM_VERSIONS.options });
	}
}
