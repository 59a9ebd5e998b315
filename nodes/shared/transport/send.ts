import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { hostOf } from './credentials';
import type { ApiDefinition, ApiRequest } from './definition';
import type { NodeContext } from '../execution/call';

const DEFAULT_TIMEOUT_MS = 120_000;

/** An HTTP answer as the retry loop weighs it: status, headers (lower-case names) and the body read. */
export interface FullResponse {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
}

/**
 * One request through n8n's own helper, never repeated here (the retry loop in transport.ts decides): the
 * credential's `authenticate` adds the token, and n8n's proxy settings, outbound request rules and the execution's
 * cancel signal apply as to n8n's own nodes. HTTP statuses come back as answers; only a request that got no answer
 * throws. The request goes to the credential's host field it names, else to its Base URL.
 */
export async function send(
	ctx: NodeContext,
	api: ApiDefinition,
	credentials: ICredentialDataDecryptedObject,
	request: ApiRequest,
	headers: Record<string, string>,
): Promise<FullResponse> {
	const bytes = request.answer === 'bytes';
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${hostOf(credentials, request.host)}${request.path}`,
		qs: request.qs,
		// An empty object is no body, as the helper treats it: e.g. a run without URL overrides sends none.
		body: request.body,
		// A copy: the helper adds the credential's header to the object it is given.
		headers: { ...headers },
		// A page is read as bytes whatever it holds: its charset is its own, it may be a file, and a fetched JSON
		// document is not turned into an object.
		...(bytes ? { encoding: 'arraybuffer' as const } : { json: true }),
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
	};
	// The credentials this execution already decrypted: n8n would otherwise decrypt them again for every request.
	const credentialsDecrypted = { id: api.credentialType, name: api.credentialName, type: api.credentialType, data: credentials };
	const response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, api.credentialType, options, {
		credentialsDecrypted,
	})) as FullResponse;
	const page = bytes && response.statusCode >= 200 && response.statusCode < 300;
	return { statusCode: response.statusCode, headers: response.headers ?? {}, body: page ? asBytes(response.body) : readBody(response.body) };
}

function asBytes(body: unknown): Buffer {
	if (Buffer.isBuffer(body)) return body;
	if (body instanceof ArrayBuffer) return Buffer.from(body);
	return Buffer.from(typeof body === 'string' ? body : '', 'utf8');
}

/** JSON is read by its content, whatever the content type says; an empty answer is no body. */
function readBody(raw: unknown): unknown {
	// An error answer to a request read as bytes is still the service's message, in UTF-8 as its JSON is.
	const body = Buffer.isBuffer(raw) ? raw.toString('utf8') : raw;
	if (body === '' || body === null) return undefined;
	if (typeof body !== 'string') return body;
	try {
		return JSON.parse(body) as unknown;
	} catch {
		// Not JSON: left as text, which the caller treats as a garbled answer.
		return body;
	}
}
