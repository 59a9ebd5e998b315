import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { publicPageUrl, readFetchSettings } from '../../../../../nodes/shared/input/pageFetch';
import { InputValidator } from '../../../../../nodes/shared/input/validation';

const WAIT_UNTIL = ['domcontentloaded', 'load', 'networkidle'] as const;

/** Boolean fields forwarded as they are, when set: [parameter name, display name]. */
const BOOLEAN_FIELDS: ReadonlyArray<readonly [string, string]> = [
	['html', 'HTML'],
	['markdown', 'Markdown'],
	['screenshot', 'Screenshot'],
	['blockResources', 'Block Resources'],
	['warmStart', 'Warm Start'],
	['returnCookie', 'Return Cookie'],
	['super', 'Real-Device Routing'],
];

/**
 * Validates the item's parameters into the gateway's fetch request. Optional fields appear only when set. The page
 * URL and the fetch settings follow the rules every page fetch shares (nodes/shared/input/pageFetch.ts); the normalised URL
 * that passed is the one paid for, sent and echoed.
 */
export function buildFetchRequest(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const v = new InputValidator(ctx.getNode(), itemIndex);
	const body: IDataObject = { url: publicPageUrl(v, ctx.getNodeParameter('url', itemIndex)) };
	const fields = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	for (const [name, label] of BOOLEAN_FIELDS) {
		if (fields[name] !== undefined) body[name] = v.boolean(fields[name], label);
	}
	const proxyCountry = v.countryCode(fields.proxyCountry, 'Proxy Country');
	if (proxyCountry !== undefined) body.proxyCountry = proxyCountry;
	Object.assign(body, readFetchSettings(v, fields));
	if (fields.waitUntil !== undefined && fields.waitUntil !== '') body.waitUntil = v.oneOf(fields.waitUntil, 'Wait Until', WAIT_UNTIL);
	return body;
}
