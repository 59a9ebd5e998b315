import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { fileSlug } from '../../../../../nodes/shared/output/records';
import type { GatewayResult } from '../../payment/request';
import { chargedError } from '../common';

/** The screenshot's base64, decoded while the answer streams in: never held whole as text (test/bench figure 5). */
export const SCREENSHOT_FIELD = ['data', 'screenshot'] as const;

const asNumber = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** The page's output fields from the gateway's answer; an answer without data, or with an upstream error, is a charged error. */
function readPage(ctx: IExecuteFunctions, itemIndex: number, body: IDataObject, result: GatewayResult): IDataObject {
	const { body: envelope, receipt } = result;
	const answer = (envelope && typeof envelope === 'object' ? envelope : {}) as IDataObject;
	const data = (answer.data && typeof answer.data === 'object' ? answer.data : undefined) as IDataObject | undefined;
	if (!data) throw chargedError(ctx, itemIndex, result, 'reading its answer', 'the answer had no data object');
	const upstreamError = typeof data.error === 'string' && data.error !== '' ? data.error : null;
	if (answer.ok === false || upstreamError !== null) {
		throw chargedError(ctx, itemIndex, result, `fetching ${body.url as string} upstream`, upstreamError ?? 'no reason given');
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
export async function pageItem(
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
