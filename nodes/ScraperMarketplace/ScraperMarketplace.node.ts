import { NodeConnectionTypes } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { describeResources, routeOperation } from '../shared/operation';
import type { Resource } from '../shared/operation';
import { jobBoardScrape } from './actions/jobBoard/scrape';
import { leadCreateAndRunSearch } from './actions/lead/createAndRunSearch';
import { leadCreateAndRunSocial } from './actions/lead/createAndRunSocial';
import { pdfCreateAndRun } from './actions/pdf/createAndRun';
import { realEstatePortalCreateAndRun } from './actions/realEstatePortal/createAndRun';
import { resultGetMany } from './actions/result/getMany';
import { scraperRun } from './actions/scraper/run';
import { scrapingRunGetHtml } from './actions/scrapingRun/getHtml';
import { searchScrapers, searchScrapingRuns } from './listSearch';

const resources: Resource[] = [
	{ value: 'jobBoard', name: 'Job Board', operations: [jobBoardScrape] },
	{ value: 'lead', name: 'Lead', operations: [leadCreateAndRunSearch, leadCreateAndRunSocial] },
	{ value: 'pdf', name: 'PDF', operations: [pdfCreateAndRun] },
	{ value: 'realEstatePortal', name: 'Real Estate Portal', operations: [realEstatePortalCreateAndRun] },
	{ value: 'result', name: 'Result', operations: [resultGetMany] },
	{ value: 'scraper', name: 'Scraper', operations: [scraperRun] },
	{ value: 'scrapingRun', name: 'Scraping Run', operations: [scrapingRunGetHtml] },
];

export class ScraperMarketplace implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scraper Marketplace',
		name: 'scraperMarketplace',
		icon: { light: 'file:../../icons/scraper.svg', dark: 'file:../../icons/scraper.dark.svg' },
		group: ['transform'],
		// 2: id fields became resource locators (From list / By ID); version 1 workflows keep their number fields.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Scrape job boards, real estate listings, PDF files and leads with ready-made scrapers, and read their results',
		defaults: { name: 'Scraper Marketplace' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'scraperMarketplaceApi', required: true }],
		properties: describeResources(resources, 'jobBoard'),
	};

	methods = {
		listSearch: { searchScrapers, searchScrapingRuns },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await routeOperation(this, resources);
	}
}
