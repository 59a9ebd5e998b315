import type { INodeProperties } from 'n8n-workflow';

import { idParameter, INTEGER_ID_PATTERN, locatorProperty, locatorValue } from '../../shared/descriptions/locator';
import { Field } from '../../shared/input/fields';
import type { Rule } from '../../shared/input/fields';
import { MARKETPLACE_VERSIONS } from '../versions';

/** What a section C id parameter is; each operation says what it does with the record (`describedAs`). */
interface IdSpec {
	name: string;
	displayName: string;
	description: string;
	/** The `listSearch` method of the node (methods/listSearch.ts) that lists the choices. */
	searchListMethod: string;
	/** An example id, shown after "e.g.". */
	example: string;
}

/** A whole number of at least 1: picked from the list, typed By ID, or (before version 2) a number field. */
const wholeId: Rule<number> = (v, value, label) => v.integer(locatorValue(value), label, { min: 1 });

/**
 * A section C id: a whole number typed, or picked from a list the node reads from the service. Each one is declared
 * once (below) and read as a field whatever shape the workflow's version stores it in; `property` is the resource
 * locator alone (for a node that never had a version 1, or an entry of a collection), `properties` both shapes.
 */
export class IdField extends Field<number, number> {
	constructor(private readonly spec: IdSpec) {
		super(locatorProperty({ ...spec, idPattern: INTEGER_ID_PATTERN }), wholeId);
	}

	/** The same id, described for one operation: what it does with the record, and where its id is found. */
	describedAs(description: string): IdField {
		return new IdField({ ...this.spec, description });
	}

	/** An operation's parameter: version 1's number field, and from version 2 the resource locator. */
	get properties(): INodeProperties[] {
		return idParameter({
			...this.spec,
			idPattern: INTEGER_ID_PATTERN,
			legacy: { type: 'number', default: 0, typeOptions: { minValue: 1, numberPrecision: 0 } },
			since: MARKETPLACE_VERSIONS.locator,
		});
	}
}

export const SCRAPER_ID = new IdField({
	displayName: 'Scraper ID',
	name: 'scraperId',
	description: "A scraper of the account: pick it from the list, or enter its ID, e.g. the 'scraper_id' of a Create and Run output",
	searchListMethod: 'searchScrapers',
	example: '101',
});

export const SCRAPING_RUN_ID = new IdField({
	displayName: 'Scraping Run ID',
	name: 'scrapingRunId',
	description: "A scraping run: pick it from the list, or enter its ID, e.g. the 'scraping_run_id' of a Create and Run or Result > Get Many output",
	searchListMethod: 'searchScrapingRuns',
	example: '5001',
});

export const RESULT_ID = new IdField({
	displayName: 'Result ID',
	name: 'resultId',
	description: "A result: pick it from the list, or enter its ID, e.g. the 'id' of a Result > Get Many output",
	searchListMethod: 'searchResults',
	example: '90001',
});
