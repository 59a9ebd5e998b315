import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { field } from '../input/fields';

/** The largest page the service's listings serve. */
const MAX_PAGE_SIZE = 100;

/** n8n's usual pair for listings: Return All, or a Limit shown only when Return All is off. */
export const RETURN_ALL = field({
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
});

export const LIMIT = field({
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show: { returnAll: [false] } },
});

/** Return All and Limit; `limitDefault` where a listing's pages are small or costly (a search). */
export function returnAllProperties(limitDefault = LIMIT.property.default as number): INodeProperties[] {
	return [RETURN_ALL.property, { ...LIMIT.property, default: limitDefault }];
}

interface ListingLimit {
	returnAll: boolean;
	/** Infinity with Return All. */
	limit: number;
	/** The page size to ask for: the user's, but never more than the limit needs. */
	pageSize: number;
}

/** Reads Return All and Limit, checked; `pageSize` is the caller's own page size field, checked by it (100 if unset). */
export function readListingLimit(ctx: IExecuteFunctions, itemIndex: number, pageSize: number | undefined): ListingLimit {
	const returnAll = RETURN_ALL.read(ctx, itemIndex);
	const limit = returnAll ? Infinity : LIMIT.read(ctx, itemIndex);
	return { returnAll, limit, pageSize: Math.min(pageSize ?? MAX_PAGE_SIZE, limit) };
}
