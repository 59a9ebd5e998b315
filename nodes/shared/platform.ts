import type { IDataObject, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import { decodeJsonFields, simplifyRecord } from './output';
import { apiRequest } from './transport';
import type { ApiDefinition, ApiRequest, RequestContext } from './transport';
import type { RetryPolicy } from './retry';

/** The platform API (section B): token in `x-api-token`, paths under `/api/v1`. */
export const PLATFORM_API: ApiDefinition = {
	credentialType: 'scraperPlatformApi',
	credentialName: 'Scraper Platform API',
	service: 'Scraper Platform',
};

export interface PlatformEnvelope<T = IDataObject> {
	message?: string;
	data: T;
	meta?: { page: number; pageSize: number; total: number; totalPage: number };
}

export async function platformRequest<T = IDataObject>(
	ctx: RequestContext,
	request: ApiRequest,
	itemIndex: number,
	policy?: RetryPolicy,
): Promise<PlatformEnvelope<T>> {
	return await apiRequest<PlatformEnvelope<T>>(ctx, PLATFORM_API, request, itemIndex, policy);
}

/** A result record with `data` decoded when the listing sent it as a JSON string. */
export function decodeResult(record: IDataObject, simplify = false): IDataObject {
	const decoded = decodeJsonFields(record);
	return simplify ? simplifyRecord(decoded) : decoded;
}

const TERMINAL_URL_STATUSES = ['finished', 'failed', 'canceled', 'cancelled', 'completed', 'error'];

export function isTerminalUrlStatus(status: unknown): boolean {
	return TERMINAL_URL_STATUSES.includes(String(status ?? '').toLowerCase());
}

export interface BulkUrlDetail {
	url: string;
	status: string;
	error?: string | null;
}

export interface BulkJob {
	id: string;
	scraperId: string;
	status: string;
	/** True when every URL is finished, failed or canceled. */
	completed: boolean;
	summary: IDataObject;
	urlDetails: BulkUrlDetail[];
	mergedData: IDataObject[];
	createdAt?: string;
	updatedAt?: string;
}

/** A bulk result record (type `Bulk-AI`) in the shape users work with: status, counts, URLs, merged records. */
export function toBulkJob(record: IDataObject): BulkJob {
	const decoded = decodeJsonFields(record);
	const data = (decoded.data ?? {}) as IDataObject;
	const urlDetails = (Array.isArray(data.urlDetails) ? data.urlDetails : []) as unknown as BulkUrlDetail[];
	return {
		id: String(decoded.id ?? ''),
		scraperId: String(decoded.scraperId ?? ''),
		status: String(decoded.status ?? ''),
		completed: urlDetails.length > 0 && urlDetails.every((u) => isTerminalUrlStatus(u.status)),
		summary: (data.summary ?? {}) as IDataObject,
		urlDetails,
		mergedData: (Array.isArray(data.mergedData) ? data.mergedData : []) as IDataObject[],
		createdAt: decoded.createdAt as string | undefined,
		updatedAt: decoded.updatedAt as string | undefined,
	};
}

/** Reads one result record (a bulk job is polled this way). */
export async function getResult(
	ctx: IExecuteFunctions | IPollFunctions,
	id: string,
	itemIndex: number,
	subjectKind = 'result',
): Promise<IDataObject> {
	const response = await platformRequest(
		ctx,
		{ method: 'GET', path: `/api/v1/results/${encodeURIComponent(id)}`, idempotent: true, subject: { kind: subjectKind, id } },
		itemIndex,
	);
	return response.data;
}
