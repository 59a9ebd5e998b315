import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputValidator } from '../input/validation';

/** n8n's usual pair for listings: Return All, or a Limit shown only when Return All is off. */
export function returnAllProperties(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

interface ListingLimit {
	returnAll: boolean;
	/** Infinity with Return All. */
	limit: number;
	/** The page size to ask for: the user's, but never more than the limit needs. */
	pageSize: number;
}

/** Reads Return All, Limit and a page size (1..100) and checks them. */
export function readListingLimit(
	ctx: IExecuteFunctions,
	itemIndex: number,
	requestedPageSize: unknown,
): ListingLimit {
	const v = new InputValidator(ctx.getNode(), itemIndex);
	const returnAll = v.boolean(ctx.getNodeParameter('returnAll', itemIndex), 'Return All');
	const limit = returnAll ? Infinity : v.integer(ctx.getNodeParameter('limit', itemIndex), 'Limit', { min: 1 });
	const pageSize = v.integer(requestedPageSize ?? 100, 'Page Size', { min: 1, max: 100 });
	return { returnAll, limit, pageSize: Math.min(pageSize, limit) };
}
