import { Workflow } from 'n8n-workflow';
import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestOptions, INode, INodeTypes } from 'n8n-workflow';

import { CredentialsHelper } from './credentials';
import { loadPackage } from './package';

interface CredentialTestOutcome {
	ok: boolean;
	status: number;
	url: string;
	headers: Record<string, string>;
}

const node: INode = { id: 'cred', name: 'Credential Test', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [0, 0], parameters: {} };
const nodeTypes = {
	getByName: () => ({ description: { properties: [] } }),
	getByNameAndVersion: () => ({ description: { properties: [] } }),
	getKnownTypes: () => ({}),
} as unknown as INodeTypes;

/**
 * Runs a credential's `test.request` as n8n's credential tester does: expressions resolved with `$credentials`,
 * the credential's `authenticate` applied, a real HTTP request, success only for a 2xx answer.
 */
export async function runCredentialTest(type: string, data: ICredentialDataDecryptedObject): Promise<CredentialTestOutcome> {
	const credential = loadPackage().credentials.get(type);
	if (!credential?.test) throw new Error(`Credential ${type} has no test request`);
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const resolve = (value: unknown): unknown =>
		typeof value === 'string' && value.startsWith('=')
			? workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials: data }, undefined, '')
			: value;
	const request = credential.test.request;
	const requested: IHttpRequestOptions = {
		baseURL: resolve(request.baseURL) as string,
		url: resolve(request.url) as string,
		method: request.method ?? 'GET',
		qs: request.qs as IDataObject | undefined,
		headers: { ...(request.headers as IDataObject | undefined) },
	};
	const { credentials: types } = loadPackage();
	// As n8n does: the request is the one `authenticate` returns (a function may build a new object).
	const options = await new CredentialsHelper(types, { [type]: data }).authenticate(data, type, requested, workflow, node);
	const url = new URL(`${options.baseURL}${options.url}`);
	for (const [name, value] of Object.entries(options.qs ?? {})) url.searchParams.set(name, String(value));
	const headers = Object.fromEntries(Object.entries(options.headers ?? {}).map(([k, v]) => [k, String(v)]));
	const response = await fetch(url, { method: options.method, headers });
	await response.arrayBuffer();
	return { ok: response.ok, status: response.status, url: url.toString(), headers };
}
