import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Operation } from '../../../../../nodes/shared/operation';
import { fileSlug } from '../../../../../nodes/shared/output';
import { isToolCall } from '../../../../../nodes/shared/tool';
import { InputValidator } from '../../../../../nodes/shared/validation';
import { normalizePublicPageUrl } from '../../hosts';
import { chargedError, deadlineMs, getSession, parallelRequests, paymentOptions } from '../common';
import { shownUrl } from '../../../../../nodes/shared/urlRules';

export const FETCH_PATH = '/api/service/scraperAPI';
/** The screenshot's base64, decoded while the answer streams in: never held whole as text (test/bench figure 5). */
const SCREENSHOT_FIELD = ['data', 'screenshot'] as const;
export const WAIT_UNTIL = ['domcontentloaded', 'load', 'networkidle'] as const;
const COUNTRY = /^[a-zA-Z]{2}$/;

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

/** Validates the item's parameters into the gateway's fetch request. Optional fields appear only when set. */
export function buildFetchRequest(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const v = new InputValidator(ctx.getNode(), itemIndex);
	const text = v.requiredString(ctx.getNodeParameter('url', itemIndex), 'URL');
	const checked = normalizePublicPageUrl(text);
	if (!checked.ok) {
		const { problem } = checked;
		const shown = problem.rule === 'credentials' ? 'the URL' : `"${shownUrl(text, 100)}"`;
		return v.fail(
			'URL',
			`${shown}: ${problem.message}`,
			problem.fix ??
				'Enter the address of a public web page, starting with https:// or http://, without user:password@. Local, private and IPv6-literal addresses cannot be fetched by the gateway.',
		);
	}
	// The normalised URL that passed the check is the one paid for, sent and echoed: never the text as typed.
	const body: IDataObject = { url: checked.href };
	const fields = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	for (const [name, label] of BOOLEAN_FIELDS) {
		if (fields[name] !== undefined) body[name] = v.boolean(fields[name], label);
	}
	const proxyCountry = v.optionalString(fields.proxyCountry, 'Proxy Country');
	if (proxyCountry !== undefined) {
		if (!COUNTRY.test(proxyCountry)) v.fail('Proxy Country', `"${proxyCountry.slice(0, 20)}" does not match ^[a-zA-Z]{2}$`, 'Enter a two-letter country code such as us, gb or de.');
		body.proxyCountry = proxyCountry;
	}
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

const asNumber = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

export const pageFetch: Operation = {
	value: 'fetch',
	name: 'Fetch',
	// An AI Agent's tool is described by this action ("<action> in Scraper Gateway"): it says what it returns and costs.
	action: 'Fetch a web page as Markdown (0.01 USDC per page, paid from your wallet)',
	description: 'Fetch one public web page (JavaScript rendered) as HTML, Markdown and a screenshot; pays 0.01 USDC per page over x402',
	properties: [
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://example.com/pricing',
			description: 'Public http(s) page to fetch. Local, private and IPv6-literal addresses and URLs with user:password@ are refused before anything is paid.',
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Block Resources',
					name: 'blockResources',
					type: 'boolean',
					default: true,
					description: 'Whether the renderer skips images, fonts and other heavy resources',
				},
				{
					displayName: 'HTML',
					name: 'html',
					type: 'boolean',
					default: true,
					description: 'Whether to return the rendered HTML. When off, html is an empty string. Not added: on (off for an AI Agent, which reads the Markdown).',
				},
				{
					displayName: 'Markdown',
					name: 'markdown',
					type: 'boolean',
					default: true,
					description: 'Whether to return the page converted to Markdown. When off, markdown is an empty string. Not added: the gateway default.',
				},
				{
					displayName: 'Max Retries',
					name: 'maxRetries',
					type: 'number',
					typeOptions: { minValue: 0, maxValue: 10 },
					default: 2,
					description: 'Upstream retries, 0 to 10; 0 disables retries. Not added: the gateway default.',
				},
				{
					displayName: 'Proxy Country',
					name: 'proxyCountry',
					type: 'string',
					default: 'us',
					placeholder: 'us',
					description: 'Two-letter country code the page is fetched from (also sent upstream as geoCode). Not added: us.',
				},
				{
					displayName: 'Real-Device Routing',
					name: 'super',
					type: 'boolean',
					default: true,
					description: 'Whether to route the fetch through real devices upstream (the "super" setting)',
				},
				{
					displayName: 'Return Cookie',
					name: 'returnCookie',
					type: 'boolean',
					default: true,
					description: 'Whether to request the site\'s cookie information where the upstream supports it',
				},
				{
					displayName: 'Screenshot',
					name: 'screenshot',
					type: 'boolean',
					default: true,
					description: 'Whether to return a JPEG screenshot, output as a binary file. Screenshots enlarge the answer a lot. Not added: the gateway default (off for an AI Agent).',
				},
				{
					displayName: 'Timeout (Seconds)',
					name: 'timeout',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: 300 },
					default: 60,
					description: 'Upstream page timeout, 1 to 300 seconds. The node waits this long plus a margin for the answer.',
				},
				{
					displayName: 'Token Cap',
					name: 'tokenCap',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: 10000 },
					default: 1000,
					description: 'Upstream plan-token cap for retries, 1 to 10000. Unrelated to the USDC price.',
				},
				{
					displayName: 'Wait for Selector',
					name: 'waitForSelector',
					type: 'string',
					default: '',
					placeholder: '#content',
					description: 'CSS selector the renderer waits for before capturing the page, at most 1000 characters',
				},
				{
					displayName: 'Wait Until',
					name: 'waitUntil',
					type: 'options',
					default: 'load',
					options: [
						{ name: 'DOM Content Loaded', value: 'domcontentloaded', description: 'The HTML is parsed' },
						{ name: 'Load', value: 'load', description: 'The page and its resources are loaded' },
						{ name: 'Network Idle', value: 'networkidle', description: 'No network activity for a moment' },
					],
					description: 'When the renderer considers the page ready',
				},
				{
					displayName: 'Warm Start',
					name: 'warmStart',
					type: 'boolean',
					default: true,
					description: 'Whether to visit the site\'s root before the target page',
				},
			],
		},
		paymentOptions(),
	],
	concurrency: parallelRequests,
	async execute(itemIndex) {
		const body = buildFetchRequest(this, itemIndex);
		const forAgent = isToolCall(this);
		if (forAgent) {
			// A model reads text: Markdown only, unless the user asked for HTML or a screenshot.
			body.html ??= false;
			body.screenshot ??= false;
		}
		const deadline = deadlineMs(this, itemIndex, body.timeout as number | undefined);
		const session = await getSession(this, itemIndex);
		const result = await session.post({ itemIndex, path: FETCH_PATH, body, deadlineMs: deadline, base64Fields: [SCREENSHOT_FIELD], unit: ['page', 'pages'] });
		const { body: envelope, receipt } = result;

		const answer = (envelope && typeof envelope === 'object' ? envelope : {}) as IDataObject;
		const data = (answer.data && typeof answer.data === 'object' ? answer.data : undefined) as IDataObject | undefined;
		if (!data) throw chargedError(this, itemIndex, result, 'reading its answer', 'the answer had no data object');
		const upstreamError = typeof data.error === 'string' && data.error !== '' ? data.error : null;
		if (answer.ok === false || upstreamError !== null) {
			throw chargedError(this, itemIndex, result, `fetching ${body.url as string} upstream`, upstreamError ?? 'no error text');
		}

		const json: IDataObject = {
			url: body.url,
			ok: answer.ok === true,
			service: answer.service ?? null,
			html: typeof data.html === 'string' ? data.html : '',
			markdown: typeof data.markdown === 'string' ? data.markdown : '',
			screenshot: null,
			runtime: asNumber(data.runtime),
			tokenUsage: asNumber(data.token_usage),
			retryCount: asNumber(data.retry_count),
			upstreamError,
			payment: receipt,
		};
		const item: INodeExecutionData = { json };
		const bytes = result.decoded.get(SCREENSHOT_FIELD.join('.'));
		if (bytes && bytes.length > 0) {
			const fileName = `${fileSlug(body.url as string, 'page')}.jpg`;
			const binary = await this.helpers.prepareBinaryData(bytes, fileName, 'image/jpeg');
			item.binary = { screenshot: binary } as IBinaryKeyData;
			json.screenshot = { binaryProperty: 'screenshot', fileName, mimeType: 'image/jpeg', bytes: bytes.length };
		}
		if (forAgent) item.json = compactForAgent(json, body);
		return [item];
	},
};

/** What an AI agent reads: the page's Markdown and what it cost, plus the HTML or screenshot only when asked for. */
function compactForAgent(json: IDataObject, body: IDataObject): IDataObject {
	const compact: IDataObject = { url: json.url, markdown: json.markdown };
	if (body.html === true) compact.html = json.html;
	if (json.screenshot) compact.screenshot = json.screenshot;
	compact.payment = json.payment;
	return compact;
}
