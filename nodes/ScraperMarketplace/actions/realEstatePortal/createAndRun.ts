import type { INodePropertyOptions } from 'n8n-workflow';

import { additionalFields } from '../../../shared/descriptions/collections';
import type { Operation } from '../../../shared/execution/operation';
import { field, rules, validatorFor } from '../../../shared/input/fields';
import { collection, readFields, Request } from '../../../shared/input/fieldSets';
import type { Field } from '../../../shared/input/fields';
import type { InputValidator } from '../../../shared/input/validation';
import { createAndRun, createAndRunWaitProperties, NAME, nameProperty, waitingConcurrency } from '../common';

/** In square metres; `any` is unbounded. The list is the interface's, in its (ascending) order. */
const LAND_SIZES = [
	'any', '200', '300', '400', '500', '600', '700', '800', '900', '1000', '1200', '1500', '1750', '2000', '3000', '4000',
	'5000', '10000', '20000', '30000', '40000', '50000', '100000', '200000', '300000', '400000', '500000', '600000',
	'700000', '800000', '900000', '1000000', '1500000', '2000000', '3000000', '5000000', '10000000', '30000000',
	'50000000', '100000000',
] as const;

// Sizes stay in ascending order (not alphabetical): a dropdown of areas is read as a scale.
const landSizeOptions: INodePropertyOptions[] = LAND_SIZES.map((value) => ({
	name: value === 'any' ? 'Any' : `${Number(value).toLocaleString('en-US')} m²`,
	value,
}));

const SEARCH_BY = field({
	displayName: 'Search By',
	name: 'searchBy',
	type: 'options',
	default: 'locations',
	options: [
		{ name: 'Listing Links', value: 'links', description: 'Scrape the listing pages whose URLs you give' },
		{ name: 'Locations', value: 'locations', description: 'Search the portal for listings in the places you name' },
	],
	description: 'Whether to search by place names or to scrape given listing URLs',
});

/** Place names, one per line: they may contain commas ("Bondi, NSW 2026"), so only new lines separate them. */
function placeNames(v: InputValidator, value: unknown, label: string): string[] {
	const locations = v.textList(value, label, /\n/);
	if (locations.length === 0) v.fail(label, 'at least one place name is required', 'Enter one or more place names, one per line, e.g. Bondi, NSW 2026.');
	return locations;
}

const LOCATIONS = field(
	{
		displayName: 'Locations',
		name: 'locations',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: '',
		placeholder: 'e.g. Bondi, NSW 2026\nRichmond, VIC 3121',
		description: 'Place names to search, one per line (several allowed), or an expression returning a list',
		displayOptions: { show: { searchBy: ['locations'] } },
	},
	placeNames,
);

const LISTING_URLS = field(
	{
		displayName: 'Listing URLs',
		name: 'urls',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: '',
		placeholder: 'e.g. https://www.portal.example/buy/bondi-nsw-2026',
		description: 'Listing page URLs, one per line (or separated by commas), a JSON list of them, or an expression returning a list',
		displayOptions: { show: { searchBy: ['links'] } },
	},
	rules.httpUrls,
);

const CHANNEL = field({
	displayName: 'Channel',
	name: 'channel',
	type: 'options',
	default: 'buy',
	options: [
		{ name: 'Buy', value: 'buy', description: 'Properties for sale' },
		{ name: 'Rent', value: 'rent', description: 'Properties for rent' },
		{ name: 'Sold', value: 'sold', description: 'Recently sold properties' },
	],
	description: 'Which listings to scrape',
});

/** At least one of the offered property types. */
function propertyTypes(v: InputValidator, value: unknown, label: string): string[] {
	const types = v.textList(value, label);
	if (types.length === 0) v.fail(label, 'choose at least one property type', 'Pick one or more property types, or All.');
	const offered = (PROPERTY_TYPES.property.options as INodePropertyOptions[]).map((option) => String(option.value));
	return types.map((type) => v.oneOf(type, label, offered));
}

const PROPERTY_TYPES: Field<string[], string[]> = field(
	{
		displayName: 'Property Types',
		name: 'propertyTypes',
		type: 'multiOptions',
		required: true,
		default: ['all'],
		options: [
			{ name: 'Acreage', value: 'acreage' },
			{ name: 'All', value: 'all' },
			{ name: 'House', value: 'house' },
			{ name: 'Land', value: 'land' },
			{ name: 'Retirement Living', value: 'retire' },
			{ name: 'Rural', value: 'rural' },
			{ name: 'Townhouse', value: 'townhouse' },
			{ name: 'Unit / Apartment', value: 'unit apartment' },
			{ name: 'Unit Block', value: 'unitblock' },
			{ name: 'Villa', value: 'villa' },
		],
		description: 'The kinds of property to include (at least one)',
	},
	propertyTypes,
);

const SURROUNDING_AREAS = field({
	displayName: 'Including Surrounding Areas',
	name: 'includingSurroundingAreas',
	type: 'boolean',
	default: false,
	description: 'Whether to include listings from neighbouring suburbs',
});

const WITH_PRICE = field({
	displayName: 'Only Show Properties With a Price',
	name: 'onlyShowPropertiesWithAPrice',
	type: 'boolean',
	default: false,
	description: 'Whether to leave out listings without a displayed price ("Contact agent")',
});

const LAND_MIN = field({
	displayName: 'Land Size Minimum',
	name: 'landsizeMinimum',
	type: 'options',
	default: 'any',
	options: landSizeOptions,
	description: 'Smallest land size in m²; must be smaller than the maximum',
});

const LAND_MAX = field({
	displayName: 'Land Size Maximum',
	name: 'landsizeMaximum',
	type: 'options',
	default: 'any',
	options: landSizeOptions,
	description: 'Largest land size in m²; must be larger than the minimum',
});

const ADDITIONAL = collection(
	(options) => additionalFields(options, { description: 'Each field is sent only when added' }),
	[SURROUNDING_AREAS, WITH_PRICE, LAND_MIN, LAND_MAX],
);

const SENT_AS = {
	searchBy: 'options',
	propertyTypes: 'property_types',
	includingSurroundingAreas: 'including_surrounding_areas',
	onlyShowPropertiesWithAPrice: 'only_show_properties_with_a_price',
	landsizeMinimum: 'landsize_minimum',
	landsizeMaximum: 'landsize_maximum',
};

/** Each Search By: the field of its places, and the request that sends them. */
const searchingBy = (places: Field<unknown, unknown>) => ({
	places,
	request: new Request([NAME, SEARCH_BY, places, CHANNEL, PROPERTY_TYPES, ...ADDITIONAL.fields], SENT_AS),
});
const BY: Record<string, ReturnType<typeof searchingBy>> = { locations: searchingBy(LOCATIONS), links: searchingBy(LISTING_URLS) };

export const realEstatePortalCreateAndRun: Operation = {
	value: 'createAndRun',
	name: 'Create and Run',
	action: 'Create and run real estate portal scraper',
	description: 'Create a scraper for property listings of a real estate portal, by location or listing links, and run it',
	properties: [
		nameProperty('Houses for sale in Bondi'),
		SEARCH_BY.property,
		LOCATIONS.property,
		LISTING_URLS.property,
		CHANNEL.property,
		PROPERTY_TYPES.property,
		ADDITIONAL.property,
		...createAndRunWaitProperties('one listing'),
	],
	concurrency: waitingConcurrency,
	parallel: true,
	async execute(itemIndex, call) {
		const { places, request } = BY[SEARCH_BY.read(this, itemIndex)];
		const values = readFields(this, itemIndex, [NAME, SEARCH_BY, places, CHANNEL, PROPERTY_TYPES, ADDITIONAL]);
		const [landMin, landMax] = [values.of(LAND_MIN), values.of(LAND_MAX)];
		if (landMin !== undefined && landMax !== undefined && landMin !== 'any' && landMax !== 'any' && Number(landMin) >= Number(landMax)) {
			validatorFor(this, itemIndex).fail(
				LAND_MIN.label,
				`${landMin} m² must be smaller than '${LAND_MAX.label}' (${landMax} m²)`,
				`Choose a '${LAND_MIN.label}' below the '${LAND_MAX.label}', or set one of them to Any.`,
			);
		}
		return await createAndRun(call, itemIndex, '/api/scrapers/real-estate-portal/create-and-run', request.body(values), request.labels());
	},
};
