import { NodeConnectionTypes } from 'n8n-workflow';
import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';

import { pollBulkTrigger } from './poll';
import { triggerProperties } from './properties';

export class ScraperBulkTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scraper Bulk Trigger',
		name: 'scraperBulkTrigger',
		icon: { light: 'file:../../icons/scraper.svg', dark: 'file:../../icons/scraper.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["scraperId"] ? "Bulk jobs of " + $parameter["scraperId"] : "Any bulk job"}}',
		description: 'Starts the workflow when a bulk job of the Scraper Platform completes',
		defaults: { name: 'Scraper Bulk Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'scraperPlatformApi', required: true }],
		properties: triggerProperties,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollBulkTrigger(this);
	}
}
