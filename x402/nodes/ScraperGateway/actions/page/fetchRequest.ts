import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { InputValidator } from '../../../../../nodes/shared/validation';
import { shownUrl } from '../../../../../nodes/shared/urlRules';
import { normalizePublicPageUrl } from '../../hosts';

export const WAIT_UNTIL = ['domcontentloaded', 'load', 'networkidle'] as const;

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

/** The page URL, checked for the gateway; the normalised URL that passed is the one paid for, sent and echoed. */
function readPageUrl(ctx: IExecuteFunctions, v: InputValidator, itemIndex: number): string {
	const text = v.requiredString(ctx.getNodeParameter('url', itemIndex), 'URL');
	const checked = normalizePublicPageUrl(text);
	if (checked.ok) return checked.href;
	const { problem } = checked;
	const shown = problem.rule === 'credentials' ? 'the URL' : `"${shownUrl(text, 100)}"`;
	return v.fail(
		'URL',
		`${shown}: ${problem.message}`,
		problem.fix ??
			'Enter the address of a public web page, starting with https:// or http://, without user:password@. Local, private and IPv6-literal addresses cannot be fetched by the gateway.',
	);
}

/** Validates the item's parameters into the gateway's fetch request. Optional fields appear only when set. */
export function buildFetchRequest(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const v = new InputValidator(ctx.getNode(), itemIndex);
	const body: IDataObject = { url: readPageUrl(ctx, v, itemIndex) };
	const fields = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	for (const [name, label] of BOOLEAN_FIELDS) {
		if (fields[name] !== undefined) body[name] = v.boolean(fields[name], label);
	}
	const proxyCountry = v.countryCode(fields.proxyCountry, 'Proxy Country');
	if (proxyCountry !== undefined) body.proxyCountry = proxyCountry;
	const maxRetries = v.optionalInteger(fields.maxRetries, 'Max Retries', { min: 0, max: 10 });
	if (maxRetries !== undefined) body.maxRetries = maxRetries;
	const timeout = v.optionalInteger(fields.timeout, 'Timeout (Seconds)', { min: 1, max: 300 });
	if (timeout !== undefined) body.timeout = timeout;
	const tokenCap = v.optionalInteger(fields.tokenCap, 'Token Cap', { min: 1, max: 10000 });
	if (tokenCap !== undefined) body.tokenCap = tokenCap;
	if (fields.waitForSelector !== undefined && fields.waitForSelector !== '') {
		const selector = v.requiredString(fields.waitForSelector, 'Wait for Selector');
		if (selector.length > 1000) v.fail('Wait for Selector', `it is ${selector.length} characters long, the limit is 1000`, 'Use a shorter CSS selector.');
		body.waitForSelector = selector;
	}
	if (fields.waitUntil !== undefined && fields.waitUntil !== '') body.waitUntil = v.oneOf(fields.waitUntil, 'Wait Until', WAIT_UNTIL);
	return body;
}
