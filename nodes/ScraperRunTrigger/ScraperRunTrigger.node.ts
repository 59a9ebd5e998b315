import { NodeConnectionTypes } from 'n8n-workflow';
import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';

import { searchScrapers } from '../ScraperMarketplace/methods/listSearch';
import { pollRunTrigger } from '../ScraperMarketplace/trigger/poll';
import { triggerProperties } from '../ScraperMarketplace/trigger/properties';

export class ScraperRunTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scraper Run Trigger',
		name: 'scraperRunTrigger',
		icon: { light: 'file:../../icons/scraper.svg', dark: 'file:../../icons/scraper.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["output"] === "records" ? "One item per record" : "One item per run"}}',
		description: 'Starts the workflow when a scraping run of the Scraper Marketplace finishes, e.g. a scheduled one',
		defaults: { name: 'Scraper Run Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'scraperMarketplaceApi', required: true }],
		properties: triggerProperties,
	};

	methods = {
		listSearch: { searchScrapers },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollRunTrigger(this);
	}
}
