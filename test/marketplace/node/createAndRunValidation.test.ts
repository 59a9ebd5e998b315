import type { IDataObject } from 'n8n-workflow';

import { useMarketplace, waitWith } from '../helpers';
import { keywordsParam, pdf, portal, search, social } from '../parameters';

/** The input checks of the four create-and-run operations and their shared wait options. */

const ctx = useMarketplace();

describe('create-and-run validation (nothing is sent)', () => {
	const keywords = keywordsParam(['k', 'p?']);
	const cases: Array<[string, IDataObject, string]> = [
		['portal name', { ...portal, name: '={{ "" }}', locations: 'Bondi' }, "Invalid 'Name': it is required"],
		['portal locations', { ...portal, locations: '={{ "  \\n " }}' }, "Invalid 'Locations': at least one place name is required"],
		['portal listing URLs', { ...portal, searchBy: 'links', urls: '={{ "" }}' }, "Invalid 'Listing URLs': at least one URL is required"],
		['portal listing URL syntax', { ...portal, searchBy: 'links', urls: 'www.portal.example/buy' }, 'Invalid \'Listing URLs\': "www.portal.example/buy" is not a valid URL'],
		['portal search by', { ...portal, searchBy: '={{ "suburbs" }}', locations: 'Bondi', urls: 'https://www.portal.example/buy' }, 'Invalid \'Search By\': "suburbs" is not one of links, locations'],
		['portal channel', { ...portal, locations: 'Bondi', channel: '={{ "lease" }}' }, 'Invalid \'Channel\': "lease" is not one of buy, rent, sold'],
		['portal property types empty', { ...portal, locations: 'Bondi', propertyTypes: '={{ [] }}' }, "Invalid 'Property Types': choose at least one property type"],
		['portal property type value', { ...portal, locations: 'Bondi', propertyTypes: '={{ ["house", "castle"] }}' }, 'Invalid \'Property Types\': "castle" is not one of'],
		['land size min above max', { ...portal, locations: 'Bondi', additionalFields: { landsizeMinimum: '1000', landsizeMaximum: '500' } }, "Invalid 'Land Size Minimum': 1000 m² must be smaller than 'Land Size Maximum' (500 m²)"],
		['land size min equal max', { ...portal, locations: 'Bondi', additionalFields: { landsizeMinimum: '600', landsizeMaximum: '600' } }, "Invalid 'Land Size Minimum': 600 m² must be smaller"],
		['land size value', { ...portal, locations: 'Bondi', additionalFields: { landsizeMaximum: '={{ "250" }}' } }, 'Invalid \'Land Size Maximum\': "250" is not one of any, 200'],
		['pdf name', { ...pdf, name: ' ', keywords }, "Invalid 'Name': it is required"],
		['pdf no keyword', { ...pdf, keywords: {} }, "Invalid 'Keywords': add at least one keyword with its prompt"],
		['pdf keyword empty', { ...pdf, keywords: keywordsParam(['ok', 'fine?'], [' ', 'p?']) }, 'Invalid \'Keyword (keyword 2)\': it is required'],
		['pdf prompt empty', { ...pdf, keywords: keywordsParam(['solar', '={{ "" }}']) }, "Invalid 'Prompt': it is required"],
		['pdf expected 0', { ...pdf, keywords, additionalFields: { expectedPdf: 0 } }, "Invalid 'Expected PDFs': 0 is out of range of at least 1"],
		['pdf expected fraction', { ...pdf, keywords, additionalFields: { expectedPdf: 2.5 } }, "Invalid 'Expected PDFs': it must be a whole number"],
		['search keywords', { ...search, keywords: '={{ "" }}' }, "Invalid 'Keywords': it is required"],
		['search url', { ...search, searchType: 'url', url: 'search.example.com' }, 'Invalid \'URL\': "search.example.com" is not a valid URL'],
		['search url scheme', { ...search, searchType: 'url', url: 'mailto:a@example.com' }, "Invalid 'URL': only http and https URLs are allowed"],
		['search pages 0', { ...search, keywords: 'x', limitPages: 0 }, "Invalid 'Max Result Pages': 0 is out of range of at least 1"],
		['search pages fraction', { ...search, keywords: 'x', limitPages: 1.5 }, "Invalid 'Max Result Pages': it must be a whole number"],
		['search type', { ...search, keywords: 'x', url: 'https://search.example.com/', searchType: '={{ "images" }}' }, 'Invalid \'Search By\': "images" is not one of keywords, url'],
		['social name', { ...social, name: '={{ "" }}' }, "Invalid 'Name': it is required"],
		['social keywords', { ...social, keywords: '   ' }, "Invalid 'Keywords': it is required"],
		['social sentiment', { ...social, sentimentType: '={{ "angry" }}' }, 'Invalid \'Sentiment\': "angry" is not one of all, negative, neutral, positive'],
		['social expected 0', { ...social, expectedData: 0 }, "Invalid 'Expected Leads': 0 is out of range of at least 1"],
		['social expected fraction', { ...social, expectedData: 2.5 }, "Invalid 'Expected Leads': it must be a whole number"],
		['max wait', { ...social, ...waitWith({ maxWaitSeconds: 0 }) }, "Invalid 'Max Wait (Seconds)': 0 is out of range from 1 to 86400"],
		['poll interval', { ...social, ...waitWith({ pollIntervalSeconds: 0.5 }) }, "Invalid 'Poll Interval (Seconds)': it must be a whole number"],
	];
	it.each(cases)('%s', async (_name, parameters, message) => {
		const result = await ctx.run(parameters);
		expect(result.error?.message).toContain(message);
		expect(result.error?.message.startsWith("Invalid '")).toBe(true);
		expect(result.error?.description).toBeTruthy();
		expect(ctx.requests()).toHaveLength(0);
	});
});
