import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { optionsCollection, shownBefore, shownFrom } from '../descriptions/collections';
import { field, validatorFor } from '../input/fields';
import { RequestLimiter } from './concurrency';

/**
 * Parallel Requests, for operations whose items are independent: shown inside Options from the node's Options version
 * (before it, in a collection of its own), read once per execution from the first item.
 */

/** The most requests one node sends at once: the service's highest plan allows 100 per account. */
const MAX_PARALLEL_REQUESTS = 100;

const AUTO_DESCRIPTION =
	"Whether to find the account's limit by itself: start at 2, grow while answers succeed, halve when the service answers 429 (too many requests).";

const PARALLEL_DESCRIPTION = "Send several items' requests at once. Output order and pairing stay as the input's.";

const AUTO = field({
	displayName: 'Auto',
	name: 'auto',
	type: 'boolean',
	default: false,
	description: AUTO_DESCRIPTION,
});

const REQUESTS_AT_ONCE = field({
	displayName: 'Requests at Once',
	name: 'requests',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS, numberPrecision: 0 },
	default: 10,
	description: 'How many items to work on at once (1 to 100). Your plan sets how many the service accepts: free 10, pro 100.',
});

/** The two settings of Parallel Requests; `requestsDefault` is what a newly added setting shows. */
function parallelSettings(autoDescription: string, requestsDefault: number): INodeProperties[] {
	return [
		{ ...AUTO.property, description: autoDescription },
		{ ...REQUESTS_AT_ONCE.property, default: requestsDefault },
	];
}

/** Before the node's Options version: a collection of its own below the parameters. */
function legacyParallelProperty(optionsSince: number): INodeProperties {
	return {
		displayName: 'Parallel Requests',
		name: 'parallel',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: PARALLEL_DESCRIPTION,
		options: parallelSettings(`${AUTO_DESCRIPTION} Never above '${REQUESTS_AT_ONCE.label}', or 100 when that is not set.`, 1),
		displayOptions: { show: shownBefore(optionsSince) },
	};
}

/**
 * From the node's Options version: inside Options, as n8n's HTTP Request node keeps Batching. A fixed collection
 * always holds both settings, so Requests at Once is the ceiling of Auto too, and starts at the free plan's 10.
 */
const parallelOption: INodeProperties = {
	displayName: 'Parallel Requests',
	name: 'parallel',
	type: 'fixedCollection',
	placeholder: 'Add Parallel Requests',
	default: { settings: {} },
	description: PARALLEL_DESCRIPTION,
	options: [{ displayName: 'Parallel Requests', name: 'settings', values: parallelSettings(`${AUTO_DESCRIPTION} Never above '${REQUESTS_AT_ONCE.label}'.`, 10) }],
};

/** An operation's parameters with Parallel Requests where the node version keeps it. */
export function withParallel(properties: INodeProperties[], optionsSince: number): INodeProperties[] {
	const fromOptions = JSON.stringify(shownFrom(optionsSince)['@version']);
	const options = properties.find((p) => p.name === 'options' && JSON.stringify(p.displayOptions?.show?.['@version']) === fromOptions);
	const own = properties.map((p) =>
		p === options ? { ...p, options: [...(p.options as INodeProperties[]), parallelOption].sort((x, y) => x.displayName.localeCompare(y.displayName)) } : p,
	);
	const added: INodeProperties[] = options
		? []
		: [optionsCollection([parallelOption], { displayOptions: { show: shownFrom(optionsSince) } })];
	return [...own, ...added, legacyParallelProperty(optionsSince)];
}

/**
 * Parallel Requests as set (checked, never clamped), or undefined when the user set none; with it, the limiter every
 * request of the call takes a slot of: Auto adapts it to the account, a fixed number is a plain cap.
 */
export function readParallel(ctx: IExecuteFunctions, optionsSince: number): { max: number; limiter: RequestLimiter } | undefined {
	const path = ctx.getNode().typeVersion >= optionsSince ? 'options.parallel.settings' : 'parallel';
	const settings = ctx.getNodeParameter(path, 0, {}) as IDataObject;
	const v = validatorFor(ctx, 0);
	const auto = AUTO.from(v, settings) ?? false;
	const requests = REQUESTS_AT_ONCE.from(v, settings);
	if (requests === undefined && !auto) return undefined;
	const max = requests ?? MAX_PARALLEL_REQUESTS;
	return { max, limiter: new RequestLimiter(max, auto) };
}
