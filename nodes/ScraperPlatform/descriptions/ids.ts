import type { INodeProperties } from 'n8n-workflow';

import { idParameter, locatorValue, UUID_PATTERN } from '../../shared/descriptions/locator';
import { Field, isEmpty } from '../../shared/input/fields';
import { PLATFORM_VERSIONS } from '../versions';

/**
 * The Platform's ids as resource locators (From list, By ID), shown by the node's operations and the Platform Trigger,
 * and read back checked: every id here is a uuid. Each id is declared once below (name, display name, picker); an
 * operation takes its field, puts `properties` (both shapes) in its parameters and reads it like any other field.
 */

const UUID_EXAMPLE = '3f2b9c1e-8a4d-4e6f-9b2a-1c3d5e7f9a0b';

interface IdSpec {
	name: string;
	displayName: string;
	searchListMethod: string;
	description: string;
	/** Required unless said (the Platform Trigger's Scraper ID filter is optional). */
	required?: boolean;
	/** The node's version that made it a resource locator (the node's, unless said: the Platform Trigger has its own). */
	since?: number;
}

/**
 * An id parameter as a field: `properties` are its two shapes (version 1's text field, the resource locator after),
 * `property` the locator. Its value is the locator's (picked or typed) or version 1's text, checked as a uuid; an
 * optional one left empty reads as undefined.
 */
export class PlatformId<T extends string | undefined = string> extends Field<T, T> {
	readonly properties: INodeProperties[];

	constructor(spec: IdSpec) {
		const required = spec.required ?? true;
		const properties = idParameter({
			name: spec.name,
			displayName: spec.displayName,
			description: spec.description,
			required,
			searchListMethod: spec.searchListMethod,
			idPattern: UUID_PATTERN,
			example: UUID_EXAMPLE,
			legacy: { type: 'string', default: '' },
			since: spec.since ?? PLATFORM_VERSIONS.locator,
		});
		super(properties[properties.length - 1], (v, value, label) => {
			const id = locatorValue(value);
			return (!required && isEmpty(id) ? undefined : v.uuid(id, label)) as T;
		});
		this.properties = properties;
	}
}

/** Scraper ID: the operations' (described for each), and the Platform Trigger's optional filter. */
const SCRAPER = { name: 'scraperId', displayName: 'Scraper ID', searchListMethod: 'searchScrapers' } as const;

export const scraperId = (description: string): PlatformId => new PlatformId({ ...SCRAPER, description });

/** The Platform Trigger's Scraper ID: an optional filter, a locator from the trigger's own version `since`. */
export const optionalScraperId = (description: string, since: number): PlatformId<string | undefined> =>
	new PlatformId<string | undefined>({ ...SCRAPER, description, required: false, since });

export const BULK_ID = new PlatformId({
	name: 'bulkId',
	displayName: 'Bulk Job ID',
	searchListMethod: 'searchBulkJobs',
	description: 'The bulk job: pick it from the list, or its ID from the output of Bulk > Start',
});

export const RESULT_ID = new PlatformId({ name: 'resultId', displayName: 'Result ID', searchListMethod: 'searchResults', description: 'The result record' });
