import { NodeConnectionTypes } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { describeResources, routeOperation } from '../shared/execution/operation';
import type { Resource } from '../shared/execution/operation';
import { jobBoardScrape } from './actions/jobBoard/scrape';
import { leadCreateAndRunSearch } from './actions/lead/createAndRunSearch';
import { leadCreateAndRunSocial } from './actions/lead/createAndRunSocial';
import { pdfCreateAndRun } from './actions/pdf/createAndRun';
import { realEstatePortalCreateAndRun } from './actions/realEstatePortal/createAndRun';
import { resultDelete } from './actions/result/delete';
import { resultGet } from './actions/result/get';
import { resultGetLatest } from './actions/result/getLatest';
import { resultGetMany } from './actions/result/getMany';
import { scraperGet } from './actions/scraper/get';
import { scraperGetMany } from './actions/scraper/getMany';
import { scraperRun } from './actions/scraper/run';
import { scrapingRunDelete } from './actions/scrapingRun/delete';
import { scrapingRunGet } from './actions/scrapingRun/get';
import { scrapingRunGetHtml } from './actions/scrapingRun/getHtml';
import { scrapingRunGetLatest } from './actions/scrapingRun/getLatest';
import { searchResults, searchScrapers, searchScrapingRuns } from './methods/listSearch';
import { MARKETPLACE_VERSIONS } from './versions';

const resources: Resource[] = [
	{ value: 'jobBoard', name: 'Job Board', operations: [jobBoardScrape] },
	{ value: 'lead', name: 'Lead', operations: [leadCreateAndRunSearch, leadCreateAndRunSocial] },
	{ value: 'pdf', name: 'PDF', operations: [pdfCreateAndRun] },
	{ value: 'realEstatePortal', name: 'Real Estate Portal', operations: [realEstatePortalCreateAndRun] },
	// Listed alphabetically by describeResources; the first declared is the default, which saved workflows omit: it
	// stays the resource's first operation (Get Many, Run, Get HTML), or a saved Get HTML would load as Delete.
	{ value: 'result', name: 'Result', operations: [resultGetMany, resultDelete, resultGet, resultGetLatest] },
	{ value: 'scraper', name: 'Scraper', operations: [scraperRun, scraperGet, scraperGetMany] },
	{ value: 'scrapingRun', name: 'Scraping Run', operations: [scrapingRunGetHtml, scrapingRunDelete, scrapingRunGet, scrapingRunGetLatest] },
];

export class ScraperMarketplace implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scraper Marketplace',
		name: 'scraperMarketplace',
		icon: { light: 'file:../../icons/scraper.svg', dark: 'file:../../icons/scraper.dark.svg' },
		group: ['transform'],
		// Each version after 1 changed a stored parameter's shape: versions.ts says which and why.
		version: [1, 2, 3],
		defaultVersion: 3,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Scrape job boards, real estate listings, PDF files and leads with ready-made scrapers, and read their results',
		defaults: { name: 'Scraper Marketplace' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'scraperMarketplaceApi', required: true }],
		properties: describeResources(resources, 'jobBoard', MARKETPLACE_VERSIONS.options),
	};

	methods = {
		listSearch: { searchScrapers, searchScrapingRuns, searchResults },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await routeOperation(this, resources, { optionsSince: MARKETPLACE_VERSIONS.options });
	}
}
