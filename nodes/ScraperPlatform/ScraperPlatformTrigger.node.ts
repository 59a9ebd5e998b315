import { NodeConnectionTypes } from 'n8n-workflow';
import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';

import { describeEvents, pollEvent } from '../shared/execution/triggerEvents';
import type { TriggerEvent } from '../shared/execution/triggerEvents';
import { searchScrapers } from './methods/listSearch';
import { pageChangedEvent } from './pageWatch/poll';
import { pollBulkTrigger } from './trigger/poll';
import { bulkJobTriggerProperties } from './trigger/properties';

const events: TriggerEvent[] = [
	{
		value: 'bulkJobCompleted',
		name: 'Bulk Job Completed',
		description: 'A bulk job finished every URL: once per job, with its merged records',
		// Born with Scraper ID as a resource locator.
		properties: bulkJobTriggerProperties(1),
		poll: pollBulkTrigger,
	},
	pageChangedEvent,
];

/** The watched page for Page Changed, the scraper (if any) for Bulk Job Completed. */
const SUBTITLE =
	'={{$parameter["event"] === "pageChanged" ? "Watching " + ($parameter["url"] || "a page") : ' +
	'(($parameter["scraperId"]?.value) ? "Bulk jobs of " + $parameter["scraperId"].value : "Any bulk job")}}';

/**
 * The Scraper Platform's trigger. Named after the Scraper Platform node with "Trigger" added, the rule by which n8n's
 * node creator lists a trigger in its service's panel beside the actions (docs/design.md).
 */
export class ScraperPlatformTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scraper Platform Trigger',
		name: 'scraperPlatformTrigger',
		icon: { light: 'file:../../icons/scraper.svg', dark: 'file:../../icons/scraper.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: SUBTITLE,
		description: 'Starts the workflow when a bulk job of the Scraper Platform completes or a watched web page changes',
		defaults: { name: 'Scraper Platform Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'scraperPlatformApi', required: true }],
		properties: describeEvents(events),
	};

	methods = {
		listSearch: { searchScrapers },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollEvent(this, events);
	}
}
