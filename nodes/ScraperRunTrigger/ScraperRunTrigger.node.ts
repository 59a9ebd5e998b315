import { NodeConnectionTypes } from 'n8n-workflow';
import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';

import { searchScrapers } from '../ScraperMarketplace/methods/listSearch';
import { pollRunTrigger } from '../ScraperMarketplace/trigger/poll';
import { triggerProperties } from '../ScraperMarketplace/trigger/properties';

/**
 * Replaced by the Scraper Marketplace Trigger's Scraping Run Finished event
 * (ScraperMarketplace/ScraperMarketplaceTrigger.node.ts), which n8n's node creator lists under the service. Kept,
 * hidden from the node creator, so saved workflows load and run as they were made, their state included. n8n's
 * scanner wants a node's file in a folder of its name unless it pairs with the folder's node, so it stays here.
 */
export class ScraperRunTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scraper Run Trigger',
		name: 'scraperRunTrigger',
		hidden: true,
		icon: { light: 'file:../../icons/scraper.svg', dark: 'file:../../icons/scraper.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["output"] === "records" ? "One item per record" : "One item per run"}}',
		description: 'Starts the workflow when a scraping run of the Scraper Marketplace finishes, e.g. a scheduled one (replaced by the Scraper Marketplace Trigger)',
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
