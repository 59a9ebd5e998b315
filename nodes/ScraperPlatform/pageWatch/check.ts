import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import type { PollCall } from '../../shared/execution/trigger';
import { nodeApiError, nodeOperationError } from '../../shared/execution/errors';
import { TRIGGER_RETRY_POLICY } from '../../shared/transport/retry';
import { readFetched, reportedError, usageOf } from '../pageFetch/answer';
import type { FetchUsage } from '../pageFetch/answer';
import { BROWSER_RENDERING, COUNTRY, SUPER_MODE, WAIT_FOR_SELECTOR } from '../pageFetch/fields';
import { requestPage } from '../pageFetch/request';
import { htmlText, markdownText } from './pageText';
import type { WatchParameters } from './properties';

/**
 * One check of the watched page: one fetch, its text, or an error. A check that gives no page text (the fetch failed,
 * the page answered an error, it is a file) is never a change: it throws, and the state is left as it was.
 */

export interface CheckedPage {
	url: string;
	/** The normalised text compared (pageText.ts). */
	text: string;
	/** Where the text came from: the service's Markdown, else the page's HTML. */
	textSource: 'markdown' | 'html';
	usage: FetchUsage;
}

/** What every failed check adds: nothing was compared, and the next poll compares with the same recorded text. */
const KEPT = 'Nothing was compared and the last recorded text is kept, so this is never reported as a change.';

function failedCheck(node: INode, message: string, fix: string, body?: JsonObject): NodeApiError | NodeOperationError {
	const description = `${KEPT} ${fix}`;
	return body ? nodeApiError(node, body, { message, description, itemIndex: 0 }) : nodeOperationError(node, message, { description, itemIndex: 0 });
}

/** A failed fetch's error (the transport's own words) with what it means for the watch; anything else wrapped so. */
function withKeptText(node: INode, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.description = `${KEPT} ${error.description ?? ''}`.trim();
		return error;
	}
	return new NodeOperationError(node, error as Error, { description: KEPT });
}

async function fetchPage(call: PollCall, params: WatchParameters) {
	try {
		return await requestPage(call, params.url, params.query, params.timeoutSeconds, 0, TRIGGER_RETRY_POLICY);
	} catch (error) {
		throw withKeptText(call.ctx.getNode(), error);
	}
}

export async function checkPage(call: PollCall, params: WatchParameters): Promise<CheckedPage> {
	const node = call.ctx.getNode();
	const { url } = params;
	const answer = await fetchPage(call, params);
	const fetched = readFetched(answer);
	const usage = usageOf(answer, fetched);
	const said = reportedError(fetched);
	if (said !== undefined) {
		throw failedCheck(node, `The service could not fetch ${url}: ${said}`, "The fetch may have used tokens. Check the page in a browser and the account's token usage (Account > Get).", { error: said });
	}
	const status = usage.statusCode;
	if (status !== null && status >= 400) {
		const tryOptions = `${BROWSER_RENDERING.label}, ${COUNTRY.label} or ${SUPER_MODE.label}`;
		const fix = `The page answered with this status instead of its content; the next poll tries again. If it lasts, check the URL in a browser, or try ${tryOptions} in Options.`;
		throw failedCheck(node, `${url} answered ${status}`, fix, { pageStatusCode: status });
	}
	if (fetched.page) {
		throw failedCheck(node, `${url} is a file (${fetched.page.mimeType}), not a page with text`, 'Watch a web page (HTML). To keep a copy of a file, use Page > Fetch.');
	}
	const markdown = markdownText(fetched.markdown ?? '');
	const text = markdown !== '' ? markdown : htmlText(fetched.html ?? '');
	if (text === '') {
		throw failedCheck(node, `${url} gave no text`, `If the page builds its content with JavaScript, add ${BROWSER_RENDERING.label} or ${WAIT_FOR_SELECTOR.label} in Options.`);
	}
	return { url, text, textSource: markdown !== '' ? 'markdown' : 'html', usage };
}
