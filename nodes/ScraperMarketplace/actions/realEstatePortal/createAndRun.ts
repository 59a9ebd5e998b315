import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import { additionalFields } from '../../../shared/descriptions/collections';
import type { Operation } from '../../../shared/execution/operation';
import { InputValidator } from '../../../shared/input/validation';
import { createAndRun, createAndRunWaitProperties, nameProperty, waitingConcurrency } from '../common';

const PORTAL_OPTIONS = ['locations', 'links'] as const;
const PORTAL_CHANNELS = ['buy', 'rent', 'sold'] as const;
export const PROPERTY_TYPES = ['all', 'house', 'townhouse', 'unit apartment', 'villa', 'retire', 'land', 'acreage', 'rural', 'unitblock'] as const;
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

/** API field -> parameter display name, for the service's 422 answers. */
const LABELS = {
	options: 'Search By',
	locations: 'Locations',
	urls: 'Listing URLs',
	channel: 'Channel',
	property_types: 'Property Types',
	including_surrounding_areas: 'Including Surrounding Areas',
	only_show_properties_with_a_price: 'Only Show Properties With a Price',
	landsize_minimum: 'Land Size Minimum',
	landsize_maximum: 'Land Size Maximum',
};

export const realEstatePortalCreateAndRun: Operation = {
	value: 'createAndRun',
	name: 'Create and Run',
	action: 'Create and run real estate portal scraper',
	description: 'Create a scraper for property listings of a real estate portal, by location or listing links, and run it',
	properties: [
		nameProperty('Houses for sale in Bondi'),
		{
			displayName: 'Search By',
			name: 'searchBy',
			type: 'options',
			default: 'locations',
			options: [
				{ name: 'Listing Links', value: 'links', description: 'Scrape the listing pages whose URLs you give' },
				{ name: 'Locations', value: 'locations', description: 'Search the portal for listings in the places you name' },
			],
			description: 'Whether to search by place names or to scrape given listing URLs',
		},
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
		{
			displayName: 'Listing URLs',
			name: 'urls',
			type: 'string',
			typeOptions: { rows: 3 },
			required: true,
			default: '',
			placeholder: 'e.g. https://www.portal.example/buy/bondi-nsw-2026',
			description: 'Listing page URLs, one per line (or separated by commas), or an expression returning a list',
			displayOptions: { show: { searchBy: ['links'] } },
		},
		{
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
		},
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
		additionalFields([
			{
				displayName: 'Including Surrounding Areas',
				name: 'includingSurroundingAreas',
				type: 'boolean',
				default: false,
				description: 'Whether to include listings from neighbouring suburbs',
			},
			{
				displayName: 'Land Size Maximum',
				name: 'landsizeMaximum',
				type: 'options',
				default: 'any',
				options: landSizeOptions,
				description: "Largest land size in m²; must be larger than 'Land Size Minimum'",
			},
			{
				displayName: 'Land Size Minimum',
				name: 'landsizeMinimum',
				type: 'options',
				default: 'any',
				options: landSizeOptions,
				description: "Smallest land size in m²; must be smaller than 'Land Size Maximum'",
			},
			{
				displayName: 'Only Show Properties With a Price',
				name: 'onlyShowPropertiesWithAPrice',
				type: 'boolean',
				default: false,
				description: 'Whether to leave out listings without a displayed price ("Contact agent")',
			},
		], { description: 'Each field is sent only when added' }),
		...createAndRunWaitProperties('one listing'),
	],
	concurrency: waitingConcurrency,
	parallel: true,
	async execute(itemIndex, call) {
		const v = new InputValidator(this.getNode(), itemIndex);
		const options = v.oneOf(this.getNodeParameter('searchBy', itemIndex), 'Search By', PORTAL_OPTIONS);
		const body: IDataObject = {
			name: v.requiredString(this.getNodeParameter('name', itemIndex), 'Name'),
			options,
		};
		if (options === 'locations') {
			// Place names may contain commas ("Bondi, NSW 2026"), so only new lines separate them.
			const locations = v.textList(this.getNodeParameter('locations', itemIndex, ''), 'Locations', /\n/);
			if (locations.length === 0) {
				v.fail('Locations', 'at least one place name is required', 'Enter one or more place names, one per line, e.g. Bondi, NSW 2026.');
			}
			body.locations = locations;
		} else {
			body.urls = v.httpUrlList(this.getNodeParameter('urls', itemIndex, ''), 'Listing URLs', { required: true });
		}
		body.channel = v.oneOf(this.getNodeParameter('channel', itemIndex), 'Channel', PORTAL_CHANNELS);
		const propertyTypes = v.textList(this.getNodeParameter('propertyTypes', itemIndex, []), 'Property Types');
		if (propertyTypes.length === 0) {
			v.fail('Property Types', 'choose at least one property type', 'Pick one or more property types, or All.');
		}
		body.property_types = propertyTypes.map((type) => v.oneOf(type, 'Property Types', PROPERTY_TYPES));

		const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		if (additional.includingSurroundingAreas !== undefined) {
			body.including_surrounding_areas = v.boolean(additional.includingSurroundingAreas, 'Including Surrounding Areas');
		}
		if (additional.onlyShowPropertiesWithAPrice !== undefined) {
			body.only_show_properties_with_a_price = v.boolean(additional.onlyShowPropertiesWithAPrice, 'Only Show Properties With a Price');
		}
		const landMin = additional.landsizeMinimum === undefined ? undefined : v.oneOf(additional.landsizeMinimum, 'Land Size Minimum', LAND_SIZES);
		const landMax = additional.landsizeMaximum === undefined ? undefined : v.oneOf(additional.landsizeMaximum, 'Land Size Maximum', LAND_SIZES);
		if (landMin !== undefined && landMax !== undefined && landMin !== 'any' && landMax !== 'any' && Number(landMin) >= Number(landMax)) {
			v.fail('Land Size Minimum', `${landMin} m² must be smaller than 'Land Size Maximum' (${landMax} m²)`, 'Choose a Land Size Minimum below the Land Size Maximum, or set one of them to Any.');
		}
		if (landMin !== undefined) body.landsize_minimum = landMin;
		if (landMax !== undefined) body.landsize_maximum = landMax;

		return await createAndRun(call, itemIndex, '/api/scrapers/real-estate-portal/create-and-run', body, LABELS);
	},
};
