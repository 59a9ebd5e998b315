import { NodeConnectionTypes } from 'n8n-workflow';
import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';

import { describeEvents, pollEvent } from '../shared/execution/triggerEvents';
import type { TriggerEvent } from '../shared/execution/triggerEvents';
import { searchScrapers } from './methods/listSearch';
import { pollRunTrigger } from './trigger/poll';
import { triggerProperties } from './trigger/properties';

const events: TriggerEvent[] = [
	{
		value: 'scrapingRunFinished',
		name: 'Scraping Run Finished',
		description: 'A scraping run finished, e.g. a scheduled one: once per run, or once per record',
		properties: triggerProperties,
		poll: pollRunTrigger,
	},
];

/**
 * The Scraper Marketplace's trigger. Named after the Scraper Marketplace node with "Trigger" added, the rule by which
 * n8n's node creator lists a trigger in its service's panel beside the actions (docs/design.md).
 */
export class ScraperMarketplaceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scraper Marketplace Trigger',
		name: 'scraperMarketplaceTrigger',
		icon: { light: 'file:../../icons/scraper.svg', dark: 'file:../../icons/scraper.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["output"] === "records" ? "One item per record" : "One item per run"}}',
		description: 'Starts the workflow when a scraping run of the Scraper Marketplace finishes, e.g. a scheduled one',
		defaults: { name: 'Scraper Marketplace Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'scraperMarketplaceApi', required: true }],
		properties: describeEvents(events),
	};

	methods = {
		listSearch: { searchScrapers },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollEvent(this, events);
	}
}
