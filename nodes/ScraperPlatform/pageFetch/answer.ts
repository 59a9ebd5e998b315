import type { IDataObject } from 'n8n-workflow';

import { headerText } from '../../shared/transport/transport';
import type { ApiAnswer } from '../../shared/transport/transport';
import { decodePage, extensionOf, isText, mediaTypeOf, sniffFileType } from '../transport/pageBody';

/**
 * What the fetch host answered, read in every shape it is known to give (public facts, "Page fetch, second form"):
 * the page itself (HTML or other text in its own charset, or a file such as a PDF), or JSON carrying `html`,
 * `markdown` and a base64 `screenshot`, at its top level or under `data` as the same service's x402 gateway answers.
 * Page > Fetch makes its item of it, the trigger's Page Changed event the text it compares.
 */

/** A file of the answer: the page itself when it is no text, or its screenshot. */
export interface AnswerFile {
	bytes: Buffer;
	mimeType: string;
	extension: string;
}

/** The page as read: its text, Markdown and screenshot when given, or the page as a file. */
export interface FetchedPage {
	html: string | null;
	markdown?: string | null;
	screenshot?: AnswerFile | null;
	page?: AnswerFile;
	cookies?: IDataObject[string];
	/** Usage figures the JSON answer reports in its body rather than in headers. */
	reported: IDataObject;
}

const CONTENT_KEYS = ['html', 'markdown', 'screenshot'];

const isObject = (value: unknown): value is IDataObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The content object of a JSON answer: `data` when it holds the content, else the answer itself; none otherwise. */
function contentOf(json: unknown): IDataObject | undefined {
	const holdsContent = (value: unknown): value is IDataObject => isObject(value) && CONTENT_KEYS.some((key) => key in value);
	if (isObject(json) && holdsContent(json.data)) return json.data;
	return holdsContent(json) ? json : undefined;
}

/** A JSON answer of the fetch host (not a fetched JSON document, which holds none of its content keys). */
function jsonContent(bytes: Buffer, contentType: string | undefined): IDataObject | undefined {
	if (!/^application\/(.+\+)?json$/.test(mediaTypeOf(contentType) ?? '')) return undefined;
	try {
		return contentOf(JSON.parse(bytes.toString('utf8')));
	} catch {
		return undefined;
	}
}

/** A base64 image, bare or as a data URL; undefined when the text is not base64. */
function imageFrom(value: unknown): AnswerFile | undefined {
	if (typeof value !== 'string' || value === '') return undefined;
	const dataUrl = /^data:([\w.+-]+\/[\w.+-]+)?(;[^,]*)?;base64,/i.exec(value);
	const base64 = (dataUrl ? value.slice(dataUrl[0].length) : value).replace(/\s+/g, '');
	if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(base64)) return undefined;
	const bytes = Buffer.from(base64, 'base64');
	const sniffed = sniffFileType(bytes);
	const mimeType = sniffed?.mimeType ?? dataUrl?.[1]?.toLowerCase() ?? 'application/octet-stream';
	return { bytes, mimeType, extension: sniffed?.extension ?? extensionOf(mimeType) };
}

function fromJson(content: IDataObject): FetchedPage {
	const text = (value: unknown) => (typeof value === 'string' ? value : null);
	return {
		html: text(content.html),
		markdown: text(content.markdown),
		screenshot: imageFrom(content.screenshot) ?? null,
		cookies: content.cookies ?? content.cookie ?? undefined,
		reported: { tokenUsage: content.token_usage ?? content.tokenUsage, runtime: content.runtime, error: content.error },
	};
}

/** The answer as a page: JSON content, else text in its declared charset, else the page as a file. */
export function readFetched(answer: ApiAnswer<Buffer>): FetchedPage {
	const contentType = headerText(answer.headers, 'content-type');
	const json = jsonContent(answer.body, contentType);
	if (json) return fromJson(json);
	if (isText(answer.body, contentType)) return { html: decodePage(answer.body, contentType).text, reported: {} };
	const sniffed = sniffFileType(answer.body);
	const mimeType = sniffed?.mimeType ?? mediaTypeOf(contentType) ?? 'application/octet-stream';
	return { html: null, page: { bytes: answer.body, mimeType, extension: sniffed?.extension ?? extensionOf(mimeType) }, reported: {} };
}

/** The reason the service gave in its answer for not fetching the page; undefined when it gave none. */
export function reportedError(fetched: FetchedPage): string | undefined {
	const { error } = fetched.reported;
	return typeof error === 'string' && error !== '' ? error : undefined;
}

/** A header's number, else the body's, else null (never a guess). */
function figure(headers: ApiAnswer<Buffer>['headers'], name: string, reported: unknown): number | null {
	const text = headerText(headers, name);
	const number = text === undefined ? Number(reported ?? NaN) : Number(text);
	return Number.isFinite(number) ? number : null;
}

/** What a fetch reports besides the page: the page's status code and what the fetch used. */
export interface FetchUsage extends IDataObject {
	statusCode: number | null;
	tokenUsage: number | null;
	bandwidthUsage: number | null;
	runtime: number | null;
	resultId: string | null;
}

export function usageOf(answer: ApiAnswer<Buffer>, fetched: FetchedPage): FetchUsage {
	const { headers } = answer;
	return {
		statusCode: figure(headers, 'x-status-code', undefined),
		tokenUsage: figure(headers, 'token_usage', fetched.reported.tokenUsage),
		bandwidthUsage: figure(headers, 'bandwidth_usage', undefined),
		runtime: figure(headers, 'runtime', fetched.reported.runtime),
		resultId: headerText(headers, 'x-result-id') ?? null,
	};
}
