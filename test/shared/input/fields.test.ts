// The field mechanism of nodes/shared/input/fields.ts alone: what a declaration states is what is checked, named
// and sent. Reading runs on a minimal parameter context (a node, its version, its parameters): no request is involved.
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { additionalFields, optionsCollection } from '../../../nodes/shared/descriptions/collections';
import { field, rules } from '../../../nodes/shared/input/fields';
import { collection, Moved, readFields, Request } from '../../../nodes/shared/input/fieldSets';
import { PLATFORM_NODE } from '../fixtures';

/** n8n's parameter reads for one item of a node at `typeVersion`: the value stored, else the fallback, else n8n's error. */
function contextOf(parameters: IDataObject, typeVersion = 3): IExecuteFunctions {
	return {
		getNode: () => ({ ...PLATFORM_NODE, typeVersion }),
		getInputData: () => [{ json: {} }],
		getTimezone: () => 'Europe/Berlin',
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) => {
			const value = name.split('.').reduce<unknown>((at, key) => (at as IDataObject | undefined)?.[key], parameters);
			if (value !== undefined) return value;
			if (fallback !== undefined) return fallback;
			throw new Error(`Could not get parameter ${name}`);
		},
	} as unknown as IExecuteFunctions;
}

const PAGES = field({
	displayName: 'Max Pages',
	name: 'maxPages',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 5, numberPrecision: 0 },
	default: 2,
	description: 'Pages to follow',
});
const RATIO = field({ displayName: 'Ratio', name: 'ratio', type: 'number', typeOptions: { minValue: 0, maxValue: 1 }, default: 0.5, description: 'A share' });
const MODE = field({
	displayName: 'Mode',
	name: 'mode',
	type: 'options',
	options: [
		{ name: 'Cheap', value: 'cheap' },
		{ name: 'Super', value: 'super' },
	],
	default: 'cheap',
	description: 'How hard to try',
});
const NAME = field({ displayName: 'Scraper Name', name: 'scraperName', type: 'string', required: true, default: '', description: 'Its name' });
const NOTE = field({ displayName: 'Note', name: 'note', type: 'string', default: '', description: 'Optional text' });
const SITE = field({ displayName: 'Site', name: 'site', type: 'string', required: true, default: '', description: 'A page' }, rules.httpUrl);
const COUNTRY = field({ displayName: 'Proxy Country', name: 'proxyCountry', type: 'string', default: '', description: 'Two letters' }, rules.countryCode);
const FROM = field({ displayName: 'From', name: 'from', type: 'dateTime', default: '', description: 'A date' }, rules.dateTime);
const SWITCH = field({ displayName: 'Stream', name: 'stream', type: 'boolean', default: false, description: 'Whether to stream' });

describe('a field declared once', () => {
	it('checks what its declaration states: a whole number in range, a number, one of the options, text', () => {
		expect(PAGES.read(contextOf({ maxPages: '4' }), 0)).toBe(4);
		expect(() => PAGES.read(contextOf({ maxPages: 6 }), 0)).toThrow("Invalid 'Max Pages': 6 is out of range from 1 to 5");
		expect(() => PAGES.read(contextOf({ maxPages: 2.5 }), 0)).toThrow("Invalid 'Max Pages': it must be a whole number, got 2.5");
		expect(RATIO.read(contextOf({ ratio: 0.25 }), 0)).toBe(0.25);
		expect(() => RATIO.read(contextOf({ ratio: 2 }), 0)).toThrow("Invalid 'Ratio': 2 is out of range from 0 to 1");
		expect(MODE.read(contextOf({ mode: 'super' }), 0)).toBe('super');
		expect(() => MODE.read(contextOf({ mode: 'turbo' }), 0)).toThrow(`Invalid 'Mode': "turbo" is not one of cheap, super`);
		expect(SWITCH.read(contextOf({ stream: 'true' }), 0)).toBe(true);
		expect(() => SWITCH.read(contextOf({ stream: 'yes' }), 0)).toThrow("Invalid 'Stream': it must be true or false");
	});

	it('refuses a required field left empty and reads an optional one as not set, never as empty text', () => {
		expect(NAME.read(contextOf({ scraperName: '  Shop  ' }), 0)).toBe('Shop');
		expect(() => NAME.read(contextOf({ scraperName: ' ' }), 0)).toThrow("Invalid 'Scraper Name': it is required");
		expect(NOTE.read(contextOf({ note: '' }), 0)).toBeUndefined();
		// A parameter the workflow's version or display conditions do not show reads as its default.
		expect(PAGES.read(contextOf({}), 0)).toBe(2);
	});

	it('applies a named rule under its own label: a URL, a country code, a date in the workflow time zone', () => {
		expect(SITE.read(contextOf({ site: 'https://example.com/a b' }), 0)).toBe('https://example.com/a%20b');
		expect(() => SITE.read(contextOf({ site: 'ftp://example.com' }), 0)).toThrow("Invalid 'Site': only http and https URLs are allowed");
		expect(() => COUNTRY.read(contextOf({ proxyCountry: 'usa' }), 0)).toThrow("Invalid 'Proxy Country'");
		expect(FROM.read(contextOf({ from: '2026-01-31T14:00:00' }), 0)?.toISO()).toBe('2026-01-31T13:00:00.000Z');
	});

	it('is worded for one node without changing its name, label or rule', () => {
		const worded = PAGES.with({ default: 3, description: 'Listing pages' });
		expect(worded.property).toMatchObject({ displayName: 'Max Pages', name: 'maxPages', default: 3, description: 'Listing pages' });
		expect(() => worded.read(contextOf({ maxPages: 9 }), 0)).toThrow("Invalid 'Max Pages': 9 is out of range from 1 to 5");
	});

	it('cannot be declared without a rule its declaration states', () => {
		expect(() => field({ displayName: 'Schema', name: 'schema', type: 'json', default: '{}' } as INodeProperties)).toThrow('needs a named rule');
	});
});

describe('collections, moved fields and requests', () => {
	const OPTIONS = collection(optionsCollection, [PAGES, new Moved(NOTE, 3), COUNTRY]);

	it('builds the collection from its fields, sorted by display name, and keeps the moved ones for older versions', () => {
		expect((OPTIONS.property.options as INodeProperties[]).map((p) => p.displayName)).toEqual(['Max Pages', 'Note', 'Proxy Country']);
		expect(OPTIONS.legacy).toEqual([{ ...NOTE.property, displayOptions: { show: { '@version': [{ _cnd: { lt: 3 } }] } } }]);
	});

	it('reads every field in the order given, each from where the version keeps it; what is not added is undefined', () => {
		const now = readFields(contextOf({ scraperName: 'Shop', options: { maxPages: 3, note: 'hi' } }), 0, [NAME, OPTIONS]);
		expect([now.get(NAME), now.of(PAGES), now.of(NOTE), now.of(COUNTRY)]).toEqual(['Shop', 3, 'hi', undefined]);
		const before = readFields(contextOf({ scraperName: 'Shop', note: 'kept', options: { note: 'ignored' } }, 2), 0, [NAME, OPTIONS]);
		expect(before.of(NOTE)).toBe('kept');
		// The first field that breaks its rule is the one named, before any later one is looked at.
		expect(() => readFields(contextOf({ scraperName: '', options: { maxPages: 99 } }), 0, [NAME, OPTIONS])).toThrow("Invalid 'Scraper Name'");
	});

	it('sends what is set, in the request order, under the field name or its mapped key, and names keys by labels', () => {
		const ADDITIONAL = collection(additionalFields, [COUNTRY, SWITCH]);
		const request = new Request([NAME, COUNTRY, SWITCH, PAGES], { proxyCountry: 'proxy_country' });
		const values = readFields(contextOf({ scraperName: 'Shop', maxPages: 1, additionalFields: { proxyCountry: 'de', stream: false } }), 0, [NAME, ADDITIONAL, PAGES]);
		expect(Object.entries(request.body(values))).toEqual([
			['scraperName', 'Shop'],
			['proxy_country', 'de'],
			['stream', false],
			['maxPages', 1],
		]);
		expect(request.labels()).toEqual({ scraperName: 'Scraper Name', proxy_country: 'Proxy Country', stream: 'Stream', maxPages: 'Max Pages' });
		const unset = readFields(contextOf({ scraperName: 'Shop', maxPages: 1, additionalFields: {} }), 0, [NAME, ADDITIONAL, PAGES]);
		expect(request.body(unset)).toEqual({ scraperName: 'Shop', maxPages: 1 });
	});

	it('refuses a mapping for a field the request does not send, and a field that was not read', () => {
		expect(() => new Request([NAME], { maxPages: 'max_pages' })).toThrow('sentAs names fields the request does not send: maxPages');
		expect(() => readFields(contextOf({ scraperName: 'Shop' }), 0, [NAME]).get(PAGES)).toThrow("The field 'maxPages' was not read");
	});
});
