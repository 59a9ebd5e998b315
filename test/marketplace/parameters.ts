import type { IDataObject } from 'n8n-workflow';

/** The create-and-run operations' parameters as the tests start from them; each test adds its own fields. */
export const portal = { resource: 'realEstatePortal', operation: 'createAndRun', name: 'Bondi houses' };
export const pdf = { resource: 'pdf', operation: 'createAndRun', name: 'Solar guides' };
export const search = { resource: 'lead', operation: 'createAndRunSearch', name: 'Agencies' };
export const social = { resource: 'lead', operation: 'createAndRunSocial', name: 'CRM talk', keywords: 'crm software' };

/** The PDF operation's Keywords fixed collection: keyword and prompt pairs. */
export function keywordsParam(...pairs: Array<[string, string]>): IDataObject {
	return { keyword: pairs.map(([keyword, prompt]) => ({ keyword, prompt })) };
}
