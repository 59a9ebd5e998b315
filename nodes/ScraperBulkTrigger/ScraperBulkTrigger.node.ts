import { NodeConnectionTypes } from 'n8n-workflow';
import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';

import { searchScrapers } from '../ScraperPlatform/methods/listSearch';
import { pollBulkTrigger } from '../ScraperPlatform/trigger/poll';
import { bulkJobTriggerProperties } from '../ScraperPlatform/trigger/properties';
import { BULK_TRIGGER_VERSIONS } from '../ScraperPlatform/versions';

/**
 * Replaced by the Scraper Platform Trigger's Bulk Job Completed event (ScraperPlatform/ScraperPlatformTrigger.node.ts),
 * which n8n's node creator lists under the service. Kept, hidden from the node creator, so saved workflows load and
 * run as they were made, their state included. n8n's scanner wants a node's file in a folder of its name unless it
 * pairs with the folder's node, so it stays here.
 */
export class ScraperBulkTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scraper Bulk Trigger',
		name: 'scraperBulkTrigger',
		hidden: true,
		icon: { light: 'file:../../icons/scraper.svg', dark: 'file:../../icons/scraper.dark.svg' },
		group: ['trigger'],
		// 2: Scraper ID became a resource locator (From list / By ID); version 1 workflows keep their text field.
		version: [1, 2],
		defaultVersion: 2,
		// The locator (version 2) keeps the id in `value`; version 1 stored the text itself.
		subtitle: '={{($parameter["scraperId"]?.value ?? $parameter["scraperId"]) ? "Bulk jobs of " + ($parameter["scraperId"]?.value ?? $parameter["scraperId"]) : "Any bulk job"}}',
		description: 'Starts the workflow when a bulk job of the Scraper Platform completes (replaced by the Scraper Platform Trigger)',
		defaults: { name: 'Scraper Bulk Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'scraperPlatformApi', required: true }],
		properties: bulkJobTriggerProperties(BULK_TRIGGER_VERSIONS.locator),
	};

	methods = {
		listSearch: { searchScrapers },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollBulkTrigger(this);
	}
}
