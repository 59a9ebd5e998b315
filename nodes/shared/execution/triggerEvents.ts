import type { INodeExecutionData, INodeProperties, INodePropertyOptions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withDisplay } from './operation';

/**
 * One event of a service's trigger (n8n's own service triggers offer their events the same way): its parameters and
 * its poll, so a later event joins the trigger without a new node.
 */
export interface TriggerEvent {
	value: string;
	name: string;
	description: string;
	properties: INodeProperties[];
	poll: (ctx: IPollFunctions) => Promise<INodeExecutionData[][] | null>;
}

const EVENT = 'event';

/** The Event selector followed by each event's parameters, shown for it alone. */
export function describeEvents(events: TriggerEvent[]): INodeProperties[] {
	const firstEvent: string = events[0].value;
	const selector: INodeProperties = {
		displayName: 'Event',
		name: EVENT,
		type: 'options',
		noDataExpression: true,
		required: true,
		// Listed alphabetically, as n8n lists them; the default stays the first declared.
		options: events
			.map((event): INodePropertyOptions => ({ name: event.name, value: event.value, description: event.description }))
			.sort((x, y) => x.name.localeCompare(y.name)),
		default: firstEvent,
	};
	const own = events.flatMap((event) => event.properties.map((property) => withDisplay(property, { [EVENT]: [event.value] })));
	return [selector, ...own];
}

/** One poll of the event the trigger is set to. */
export async function pollEvent(ctx: IPollFunctions, events: TriggerEvent[]): Promise<INodeExecutionData[][] | null> {
	const chosen = ctx.getNodeParameter(EVENT, events[0].value) as string;
	const event = events.find(({ value }) => value === chosen);
	if (!event) {
		const known = events.map(({ name }) => `'${name}'`).join(', ');
		throw new NodeOperationError(ctx.getNode(), `Event '${chosen}' is not one this trigger offers`, {
			description: `Choose one of ${known} in the trigger's Event field.`,
		});
	}
	return await event.poll(ctx);
}
