import { additionalFields } from '../../../../../nodes/shared/descriptions/collections';
import type { Operation } from '../../../../../nodes/shared/execution/operation';
import { FETCH_LIMITS } from '../../../../../nodes/shared/input/pageFetch';
import { readShaping, simplifyProperties } from '../../../../../nodes/shared/descriptions/simplify';
import type { RecordFields } from '../../../../../nodes/shared/descriptions/simplify';
import { isToolCall } from '../../../../../nodes/shared/execution/tool';
import { deadlineMs, parallelRequests, paymentOptions } from '../common';
import type { GatewayCall } from '../common';
import { pageItem, SCREENSHOT_FIELD } from './fetchOutput';
import { buildFetchRequest } from './fetchRequest';

const FETCH_PATH = '/api/service/scraperAPI';

/** The node version that brought Simplify to the page fetch. */
const SIMPLIFY_VERSION = 2;

/** A fetched page's fields (see `fetchOutput.ts`): Simplify keeps what a sheet or an agent reads. */
const PAGE_FIELDS: RecordFields = {
	id: 'url',
	simplified: ['url', 'markdown', 'html', 'screenshot', 'tokenUsage', 'runtime', 'payment'],
	all: ['url', 'ok', 'service', 'html', 'markdown', 'screenshot', 'runtime', 'tokenUsage', 'retryCount', 'upstreamError', 'payment'],
	// What the page is and what it cost; HTML and the screenshot only when the user turned them on.
	agent: ['url', 'markdown', 'html', 'screenshot', 'payment'],
};

export const pageFetch: Operation<GatewayCall> = {
	value: 'fetch',
	name: 'Fetch',
	// An AI Agent's tool is described by this action ("<action> in Scraper Gateway"): it says what it returns and costs.
	action: 'Fetch page as Markdown (0.01 USDC per page, paid from wallet)',
	description: 'Fetch one public web page (JavaScript rendered) as HTML, Markdown and a screenshot; pays 0.01 USDC per page over x402',
	properties: [
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://example.com/pricing',
			description: 'Public http(s) page to fetch. Local, private and IPv6-literal addresses and URLs with user:password@ are refused before anything is paid.',
		},
		additionalFields([
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
				typeOptions: { minValue: FETCH_LIMITS.maxRetries.min, maxValue: FETCH_LIMITS.maxRetries.max },
				default: 2,
				description: 'Upstream retries, 0 to 10; 0 disables retries. Not added: the gateway default.',
			},
			{
				displayName: 'Proxy Country',
				name: 'proxyCountry',
				type: 'string',
				default: 'us',
				placeholder: 'e.g. us',
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
				typeOptions: { minValue: FETCH_LIMITS.timeout.min, maxValue: FETCH_LIMITS.timeout.max },
				default: 60,
				description: 'Upstream page timeout, 1 to 300 seconds. The node waits this long plus a margin for the answer.',
			},
			{
				displayName: 'Token Cap',
				name: 'tokenCap',
				type: 'number',
				typeOptions: { minValue: FETCH_LIMITS.tokenCap.min, maxValue: FETCH_LIMITS.tokenCap.max },
				default: 1000,
				description: 'Upstream plan-token cap for retries, 1 to 10000. Unrelated to the USDC price.',
			},
			{
				displayName: 'Wait for Selector',
				name: 'waitForSelector',
				type: 'string',
				default: '',
				placeholder: 'e.g. #content',
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
		]),
		...simplifyProperties(PAGE_FIELDS, { '@version': [{ _cnd: { gte: SIMPLIFY_VERSION } }] }),
		paymentOptions(),
	],
	concurrency: parallelRequests,
	async execute(itemIndex, call) {
		const body = buildFetchRequest(this, itemIndex);
		// Read before anything is paid, like every other setting.
		const shape = this.getNode().typeVersion >= SIMPLIFY_VERSION ? readShaping(this, itemIndex, PAGE_FIELDS) : undefined;
		const forAgent = isToolCall(this);
		if (forAgent) {
			// A model reads text: Markdown only, unless the user asked for HTML or a screenshot.
			body.html ??= false;
			body.screenshot ??= false;
		}
		const deadline = deadlineMs(this, itemIndex, body.timeout as number | undefined);
		const payments = await call.payments(itemIndex);
		const result = await payments.post({ itemIndex, path: FETCH_PATH, body, deadlineMs: deadline, base64Fields: [SCREENSHOT_FIELD], unit: ['page', 'pages'] });
		// Version 1 gives an agent its compact page; from version 2 Simplify and the Output choice say what is kept.
		const item = await pageItem(this, itemIndex, body, result, forAgent && !shape);
		if (shape) item.json = shape(item.json);
		return [item];
	},
};
