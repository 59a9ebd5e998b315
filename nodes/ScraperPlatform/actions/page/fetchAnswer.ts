import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';

import { nodeApiError } from '../../../shared/execution/errors';
import { fileSlug } from '../../../shared/output/records';
import { readFetched, reportedError, usageOf } from '../../pageFetch/answer';
import type { AnswerFile } from '../../pageFetch/answer';
import { mediaTypeOf } from '../../transport/pageBody';
import { headerText } from '../../../shared/transport/transport';
import type { ApiAnswer } from '../../../shared/transport/transport';

/** Page > Fetch's item of the fetch host's answer, read by `pageFetch/answer.ts` in every shape it comes in. */

/** What the user asked the fetch for; what was not asked for is not output. */
export interface Asked {
	html: boolean;
	markdown: boolean;
	screenshot: boolean;
}

/** The last segment of the URL when it already names the file, else a slug of the URL with the file's extension. */
function fileNameFor(url: string, extension: string, suffix = ''): string {
	const segment = new URL(url).pathname.split('/').pop() ?? '';
	let last = segment;
	try {
		last = decodeURIComponent(segment);
	} catch {
		// An escape that is no UTF-8 (`%C3` alone) names no file: the slug below names it, and the fetched page is never lost to it.
	}
	if (!suffix && last.toLowerCase().endsWith(`.${extension}`) && /^[\w.() -]+$/.test(last)) return last;
	return `${fileSlug(url, 'page')}${suffix}.${extension}`;
}

/** The output item of one fetched page: the fields asked for, the page or its screenshot as binary files. */
export async function pageItem(ctx: IExecuteFunctions, itemIndex: number, url: string, answer: ApiAnswer<Buffer>, asked: Asked): Promise<INodeExecutionData> {
	const fetched = readFetched(answer);
	const { headers } = answer;
	const error = reportedError(fetched);
	if (error !== undefined) {
		throw nodeApiError(ctx.getNode(), { error } as JsonObject, {
			message: `The service could not fetch ${url}: ${error}`,
			description: "The service answered with its own reason. The fetch may have used tokens, so the node did not send it again. Check the account's token usage (Account > Get), then run the item again.",
			itemIndex,
		});
	}
	const binary: IBinaryKeyData = {};
	const attach = async (key: string, file: AnswerFile, fileName: string) => {
		binary[key] = await ctx.helpers.prepareBinaryData(file.bytes, fileName, file.mimeType);
		return { binaryProperty: key, fileName, mimeType: file.mimeType, bytes: file.bytes.length };
	};
	// The usage figures as Page Changed reads them too (pageFetch/answer.ts), in this item's order.
	const { statusCode, tokenUsage, bandwidthUsage, runtime, resultId } = usageOf(answer, fetched);
	const json: IDataObject = {
		url,
		statusCode,
		html: asked.html ? fetched.html : '',
		markdown: asked.markdown ? (fetched.markdown ?? null) : undefined,
		screenshot: asked.screenshot ? (fetched.screenshot ? await attach('screenshot', fetched.screenshot, fileNameFor(url, fetched.screenshot.extension, '-screenshot')) : null) : undefined,
		file: fetched.page ? await attach('data', fetched.page, fileNameFor(url, fetched.page.extension)) : undefined,
		cookies: fetched.cookies,
		tokenUsage,
		bandwidthUsage,
		runtime,
		resultId,
		contentType: fetched.page?.mimeType ?? mediaTypeOf(headerText(headers, 'content-type')) ?? null,
	};
	for (const key of Object.keys(json)) if (json[key] === undefined) delete json[key];
	return Object.keys(binary).length > 0 ? { json, binary } : { json };
}
