import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { additionalFields, shownFrom } from '../../../../../nodes/shared/descriptions/collections';
import { readShaping, simplifyProperties } from '../../../../../nodes/shared/descriptions/simplify';
import type { RecordFields } from '../../../../../nodes/shared/descriptions/simplify';
import type { Operation } from '../../../../../nodes/shared/execution/operation';
import { isToolCall } from '../../../../../nodes/shared/execution/tool';
import { field } from '../../../../../nodes/shared/input/fields';
import { collection, readFields, Request } from '../../../../../nodes/shared/input/fieldSets';
import { FETCH_FIELDS } from '../../../../../nodes/shared/input/pageFetch';
import { fileSlug } from '../../../../../nodes/shared/output/records';
import { deadlineMs, parallelRequests, paymentOptions } from '../../descriptions/paymentOptions';
import type { GatewayCall } from '../../payment/call';
import { chargedError } from '../../payment/errors';
import type { GatewayResult } from '../../payment/request';

const FETCH_PATH = '/api/service/scraperAPI';

/** The node version that brought Simplify to the page fetch. */
const SIMPLIFY_VERSION = 2;

/** A fetched page's fields (see `readPage`): Simplify keeps what a sheet or an agent reads. */
const PAGE_FIELDS: RecordFields = {
	id: 'url',
	simplified: ['url', 'markdown', 'html', 'screenshot', 'tokenUsage', 'runtime', 'payment'],
	all: ['url', 'ok', 'service', 'html', 'markdown', 'screenshot', 'runtime', 'tokenUsage', 'retryCount', 'upstreamError', 'payment'],
	// What the page is and what it cost; HTML and the screenshot only when the user turned them on.
	agent: ['url', 'markdown', 'html', 'screenshot', 'payment'],
};

/** The page URL by the rules every page fetch shares: the normalised URL that passed is the one paid for, sent and echoed. */
const PAGE_URL = FETCH_FIELDS.url.with({
	description: 'Public http(s) page to fetch. Local, private and IPv6-literal addresses and URLs with user:password@ are refused before anything is paid.',
});

// The settings every page fetch has (nodes/shared/input/pageFetch.ts: name, label, range, rule), worded for the gateway.
const HTML = FETCH_FIELDS.html.with({
	description: 'Whether to return the rendered HTML. When off, html is an empty string. Not added: on (off for an AI Agent, which reads the Markdown).',
});
const MARKDOWN = FETCH_FIELDS.markdown.with({
	description: 'Whether to return the page converted to Markdown. When off, markdown is an empty string. Not added: the gateway default.',
});

const SCREENSHOT = field({
	displayName: 'Screenshot',
	name: 'screenshot',
	type: 'boolean',
	default: true,
	description: 'Whether to return a JPEG screenshot, output as a binary file. Screenshots enlarge the answer a lot. Not added: the gateway default (off for an AI Agent).',
});

const BLOCK_RESOURCES = FETCH_FIELDS.blockResources.with({ description: 'Whether the renderer skips images, fonts and other heavy resources' });

const WARM_START = field({
	displayName: 'Warm Start',
	name: 'warmStart',
	type: 'boolean',
	default: true,
	description: "Whether to visit the site's root before the target page",
});

const RETURN_COOKIE = FETCH_FIELDS.returnCookie.with({ description: "Whether to request the site's cookie information where the upstream supports it" });
const SUPER_MODE = FETCH_FIELDS.super.with({ description: 'Whether to route the fetch through real devices upstream (the "super" setting)' });
const PROXY_COUNTRY = FETCH_FIELDS.proxyCountry.with({
	description: 'Two-letter country code the page is fetched from (also sent upstream as geoCode). Not added: us.',
});
const MAX_RETRIES = FETCH_FIELDS.maxRetries.with({ default: 2, description: 'Upstream retries, 0 to 10; 0 disables retries. Not added: the gateway default.' });
const TIMEOUT = FETCH_FIELDS.timeout.with({ default: 60, description: 'Upstream page timeout, 1 to 300 seconds. The node waits this long plus a margin for the answer.' });
const TOKEN_CAP = FETCH_FIELDS.tokenCap.with({ description: 'Upstream plan-token cap for retries, 1 to 10000. Unrelated to the USDC price.' });
const WAIT_FOR_SELECTOR = FETCH_FIELDS.waitForSelector.with({ description: 'CSS selector the renderer waits for before capturing the page, at most 1000 characters' });
const WAIT_UNTIL = FETCH_FIELDS.waitUntil.with({ description: 'When the renderer considers the page ready' });

/** The fields in the order the gateway's request sends them (and they are checked in); each under its own name. */
const SENT = [HTML, MARKDOWN, SCREENSHOT, BLOCK_RESOURCES, WARM_START, RETURN_COOKIE, SUPER_MODE, PROXY_COUNTRY, MAX_RETRIES, TIMEOUT, TOKEN_CAP, WAIT_FOR_SELECTOR, WAIT_UNTIL];
const ADDITIONAL_FIELDS = collection(additionalFields, SENT);
const FETCH_REQUEST = new Request([PAGE_URL, ...SENT]);

/** The screenshot's base64, decoded while the answer streams in: never held whole as text (test/bench figure 5). */
const SCREENSHOT_FIELD = ['data', 'screenshot'] as const;

const asNumber = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** The page's output fields from the gateway's answer; an answer without data, or with an upstream error, is a charged error. */
function readPage(ctx: IExecuteFunctions, itemIndex: number, body: IDataObject, result: GatewayResult): IDataObject {
	const { body: envelope, receipt } = result;
	const answer = (envelope && typeof envelope === 'object' ? envelope : {}) as IDataObject;
	const data = (answer.data && typeof answer.data === 'object' ? answer.data : undefined) as IDataObject | undefined;
	if (!data) throw chargedError(ctx.getNode(), itemIndex, result, 'reading its answer', 'the answer had no data object');
	const upstreamError = typeof data.error === 'string' && data.error !== '' ? data.error : null;
	if (answer.ok === false || upstreamError !== null) {
		throw chargedError(ctx.getNode(), itemIndex, result, `fetching ${body.url as string} upstream`, upstreamError ?? 'no reason given');
	}
	return {
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
}

/** What an AI agent reads: the page's Markdown and what it cost, plus the HTML or screenshot only when asked for. */
function compactForAgent(json: IDataObject, body: IDataObject): IDataObject {
	const compact: IDataObject = { url: json.url, markdown: json.markdown };
	if (body.html === true) compact.html = json.html;
	if (json.screenshot) compact.screenshot = json.screenshot;
	compact.payment = json.payment;
	return compact;
}

/** The output item of one fetched page: its fields, the screenshot as a binary JPEG, compact for an AI agent. */
async function pageItem(
	ctx: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	result: GatewayResult,
	forAgent: boolean,
): Promise<INodeExecutionData> {
	const json = readPage(ctx, itemIndex, body, result);
	const item: INodeExecutionData = { json };
	const bytes = result.decoded.get(SCREENSHOT_FIELD.join('.'));
	if (bytes && bytes.length > 0) {
		const fileName = `${fileSlug(body.url as string, 'page')}.jpg`;
		const binary = await ctx.helpers.prepareBinaryData(bytes, fileName, 'image/jpeg');
		item.binary = { screenshot: binary } as IBinaryKeyData;
		json.screenshot = { binaryProperty: 'screenshot', fileName, mimeType: 'image/jpeg', bytes: bytes.length };
	}
	if (forAgent) item.json = compactForAgent(json, body);
	return item;
}

export const pageFetch: Operation<GatewayCall> = {
	value: 'fetch',
	name: 'Fetch',
	// An AI Agent's tool is described by this action ("<action> in Scraper Gateway"): it says what it returns and costs.
	action: 'Fetch page as Markdown (0.01 USDC per page, paid from wallet)',
	description: 'Fetch one public web page (JavaScript rendered) as HTML, Markdown and a screenshot; pays 0.01 USDC per page over x402',
	properties: [PAGE_URL.property, ADDITIONAL_FIELDS.property, ...simplifyProperties(PAGE_FIELDS, shownFrom(SIMPLIFY_VERSION)), paymentOptions().property],
	concurrency: parallelRequests,
	async execute(itemIndex, call) {
		// Every field checked before anything is paid; optional ones are sent only when added.
		const body = FETCH_REQUEST.body(readFields(this, itemIndex, [PAGE_URL, ADDITIONAL_FIELDS]));
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
