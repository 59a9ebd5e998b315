import { bulkState, type BulkJob } from './bulk';
import type { AiAgent, CreateOptions, ListedResultRecord, ResultRecord, ResultStatus, ResultType } from './types';

export interface StoredScraper {
	id: string;
	userId: string;
	/** `ai`: made by scrapers-ai, rerun by scrapers-ai-rerun. `manual`: built by hand, the only kind a bulk rerun takes. */
	kind: 'ai' | 'manual';
	name: string;
	agent?: AiAgent;
	url?: string;
	prompt?: string;
	/** The names the create sent the instruction under (`prompt`, `message` or both: the same text). */
	instructionSentAs?: Array<'prompt' | 'message'>;
	proxyCountry?: string;
	/** The create options sent (listing: maxPages; map: its crawl), recorded as sent; a map rerun starts from them. */
	createOptions?: CreateOptions;
	createdAt: number;
}

/** A result as stored. For a bulk job, status and the numbers are computed from `bulk` and the clock on read. */
export interface StoredResult {
	id: string;
	userId: string;
	scraperId: string;
	type: ResultType;
	url: string;
	createdAt: number;
	updatedAt: number;
	status: ResultStatus;
	error: string | null;
	tokenUsage: number;
	runtime: number;
	data: unknown;
	/** Page HTML; null for a bulk job. */
	html: string | null;
	/** Name of the API token whose request created it (analytics `apiTokenName`). */
	tokenName: string;
	/** Proxy username the scrape went through (proxy bandwidth). */
	proxyUsername: string;
	bulk?: BulkJob;
}

/** A stored result with its time-dependent fields resolved at one instant. */
export type LiveResult = Omit<StoredResult, 'bulk'> & { bulkDone?: boolean };

export function live(result: StoredResult, now: number): LiveResult {
	const { bulk, ...rest } = result;
	if (!bulk) return rest;
	const state = bulkState(bulk, now);
	return {
		...rest,
		status: state.status,
		error: state.error,
		tokenUsage: state.tokenUsage,
		runtime: state.runtime,
		updatedAt: state.updatedAt,
		data: state.data,
		bulkDone: state.done,
	};
}

function paths(result: LiveResult): Pick<ResultRecord, 'htmlPath' | 'recordingPath' | 'screenshotPath' | 'dataPath'> {
	const dir = `results/${result.userId}/${result.id}`;
	return {
		htmlPath: `${dir}/page.html`,
		recordingPath: `${dir}/recording.webm`,
		screenshotPath: `${dir}/screenshot.jpg`,
		dataPath: `${dir}/data.json`,
	};
}

/** The detailed form (GET /api/v1/results/:id): `data` as an object, page HTML included. */
export function detailRecord<D = unknown>(result: LiveResult): ResultRecord<D> {
	return {
		id: result.id,
		createdAt: new Date(result.createdAt).toISOString(),
		updatedAt: new Date(result.updatedAt).toISOString(),
		userId: result.userId,
		scraperId: result.scraperId,
		type: result.type,
		url: result.url,
		status: result.status,
		error: result.error,
		tokenUsage: result.tokenUsage,
		runtime: result.runtime,
		data: result.data as D,
		...paths(result),
		htmlContent: result.html,
		createdById: result.userId,
		updatedById: result.userId,
		deletedAt: null,
		deletedById: null,
	};
}

/** The listing form: `data` JSON-encoded, as the interface illustrates, and no page contents. */
export function listedRecord(result: LiveResult): ListedResultRecord {
	const record = detailRecord(result);
	return { ...omit(record, 'data', 'htmlContent', 'curl'), data: JSON.stringify(record.data ?? null) };
}

/** A shallow copy without the given keys (endpoint forms drop fields the interface says they lack). */
export function omit<T extends object, K extends keyof T>(source: T, ...keys: K[]): Omit<T, K> {
	const copy: T = { ...source };
	for (const key of keys) delete copy[key];
	return copy;
}
