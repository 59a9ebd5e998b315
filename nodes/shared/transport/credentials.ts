import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { nodeOperationError } from '../execution/errors';
import { API_TOKEN, BASE_URL } from './credentialFields';
import type { ApiDefinition, HostField } from './definition';
import type { NodeContext } from '../execution/call';
import { controlCharacterAt, readHttpUrl, shownUrl } from '../input/urlRules';

/**
 * Where a request goes, without trailing slashes: the credential's host field it names, else its Base URL. A
 * credential saved before the field existed has no value for it: the field's default applies, as n8n fills it in.
 */
export function hostOf(credentials: ICredentialDataDecryptedObject, host?: HostField): string {
	const value = host ? (credentials[host.name] ?? host.default) : credentials.baseUrl;
	return String(value ?? '').replace(/\/+$/, '');
}

interface CredentialProblem {
	field: string;
	rule: string;
	fix: string;
}

/** The rule of a URL field of a credential (Base URL and every host field): named `field` in the message. */
function urlFieldProblem(value: unknown, field: string): CredentialProblem | undefined {
	const fixUrl = 'Enter the address of the API, starting with https:// (or http://), e.g. https://api.example.com.';
	if (typeof value !== 'string' || value.trim() === '') return { field, rule: 'it is empty', fix: fixUrl };
	const read = readHttpUrl(value.trim());
	if (!read.ok && read.broken === 'spelling') return { field, rule: `"${shownUrl(value)}" ${read.problem.message}`, fix: read.problem.fix };
	if (!read.ok && read.broken === 'parse') return { field, rule: `"${shownUrl(value)}" is not a URL`, fix: fixUrl };
	if (!read.ok) return { field, rule: `only http and https are allowed, got "${read.protocol}"`, fix: fixUrl };
	const { url } = read;
	if (url.search || url.hash || url.username || url.password) {
		return { field, rule: 'it must not carry a query, a fragment or a user name', fix: fixUrl };
	}
	return undefined;
}

/**
 * The credential's fields checked before the first request, each failure naming the field: an empty or malformed
 * Base URL or token would otherwise surface as a misleading network or header error after retries. Both token
 * credentials name their fields `apiToken` (API Token) and `baseUrl` (Base URL); the Base URL and the `hosts` fields
 * follow the URL spelling rules of every URL field. A host field the credential was saved without keeps its default.
 */
function credentialProblem(credentials: ICredentialDataDecryptedObject, hosts: readonly HostField[] = []): CredentialProblem | undefined {
	const token = credentials[API_TOKEN.name];
	const field = API_TOKEN.displayName;
	if (typeof token !== 'string' || token.trim() === '') {
		return { field, rule: 'it is empty', fix: 'Paste the token from the service dashboard into the credential.' };
	}
	if (controlCharacterAt(token) >= 0) {
		return { field, rule: 'it contains a line break, tab or other control character', fix: 'Paste the token again as one line, without anything before or after it.' };
	}
	if (token !== token.trim()) {
		return { field, rule: 'it starts or ends with a space', fix: 'Remove the spaces around the token.' };
	}
	const baseUrl = urlFieldProblem(credentials[BASE_URL.name], BASE_URL.displayName);
	if (baseUrl) return baseUrl;
	for (const host of hosts) {
		const problem = credentials[host.name] === undefined ? undefined : urlFieldProblem(credentials[host.name], host.displayName);
		if (problem) return problem;
	}
	return undefined;
}

/**
 * The credential check in words, for the credential's own Test button (its `authenticate` runs before the test
 * request): the same rule and fix a node run reports, so the user reads one message wherever the problem shows.
 */
export function credentialProblemMessage(credentialName: string, credentials: ICredentialDataDecryptedObject, hosts: readonly HostField[] = []): string | undefined {
	const problem = credentialProblem(credentials, hosts);
	if (!problem) return undefined;
	return `Invalid '${problem.field}' in the '${credentialName}' credential: ${problem.rule}. ${problem.fix}`;
}

/** Refuses a credential that breaks a rule, naming the field, before anything is sent (a few string checks a request). */
export function checkCredentials(ctx: NodeContext, api: ApiDefinition, credentials: ICredentialDataDecryptedObject, itemIndex: number): void {
	const problem = credentialProblem(credentials, api.hosts);
	if (problem) {
		throw nodeOperationError(ctx.getNode(), `Invalid '${problem.field}' in the '${api.credentialName}' credential: ${problem.rule}`, {
			itemIndex,
			description: `${problem.fix} Open the credential (${api.credentialName}) to fix it; nothing was sent.`,
		});
	}
}
