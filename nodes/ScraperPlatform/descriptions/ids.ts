import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { idParameter, readId, UUID_PATTERN } from '../../shared/descriptions/locator';
import { InputValidator } from '../../shared/input/validation';

/**
 * The Platform's ids as resource locators (From list, By ID), shown by the node's operations and the Bulk Trigger,
 * and read back checked: every id here is a uuid.
 */

const UUID_EXAMPLE = '3f2b9c1e-8a4d-4e6f-9b2a-1c3d5e7f9a0b';

/** A platform id parameter: a uuid typed, or picked from a list the node reads from the service. */
function platformIdParameter(
	name: string,
	displayName: string,
	searchListMethod: string,
	description: string,
	required = true,
): INodeProperties[] {
	return idParameter({
		name,
		displayName,
		description,
		required,
		searchListMethod,
		idPattern: UUID_PATTERN,
		example: UUID_EXAMPLE,
		legacy: { type: 'string', default: '' },
	});
}

/** Scraper ID, for the node's operations and the Bulk Trigger's filter (optional there). */
export const scraperIdParameter = (description: string, required = true): INodeProperties[] =>
	platformIdParameter('scraperId', 'Scraper ID', 'searchScrapers', description, required);

export const bulkIdParameter: INodeProperties[] = platformIdParameter(
	'bulkId',
	'Bulk Job ID',
	'searchBulkJobs',
	'The bulk job: pick it from the list, or its ID from the output of Bulk > Start',
);

export const resultIdParameter: INodeProperties[] = platformIdParameter('resultId', 'Result ID', 'searchResults', 'The result record');

/** A uuid id the user chose (picked or typed, any node version), checked before anything is sent. */
function uuidOf(ctx: IExecuteFunctions, name: string, label: string, itemIndex: number): string {
	return new InputValidator(ctx.getNode(), itemIndex).uuid(readId(ctx, name, itemIndex), label);
}

export const scraperIdOf = (ctx: IExecuteFunctions, itemIndex: number): string => uuidOf(ctx, 'scraperId', 'Scraper ID', itemIndex);
export const bulkIdOf = (ctx: IExecuteFunctions, itemIndex: number): string => uuidOf(ctx, 'bulkId', 'Bulk Job ID', itemIndex);
export const resultIdOf = (ctx: IExecuteFunctions, itemIndex: number): string => uuidOf(ctx, 'resultId', 'Result ID', itemIndex);
