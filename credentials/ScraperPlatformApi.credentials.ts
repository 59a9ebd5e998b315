import type { IAuthenticate, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

import { FETCH_HOST, PLATFORM_HOSTS, SEARCH_HOST, tokenHostOf } from '../nodes/ScraperPlatform/transport/hosts';
import { API_TOKEN, BASE_URL } from '../nodes/shared/transport/credentialFields';
import { credentialProblemMessage } from '../nodes/shared/transport/credentials';

export class ScraperPlatformApi implements ICredentialType {
	name = 'scraperPlatformApi';

	displayName = 'Scraper Platform API';

	icon: Icon = { light: 'file:../icons/scraper.svg', dark: 'file:../icons/scraper.dark.svg' };

	documentationUrl = 'https://github.com/scraper-service/n8n-nodes-scraper-service#credentials';

	properties: INodeProperties[] = [
		{
			...API_TOKEN,
			description:
				'Create a token in the service dashboard (give it a name and an expiry date); its value is shown once, at creation',
		},
		{
			...BASE_URL,
			// The service's platform API, as its own clients (MCP server, Node SDK) address it.
			default: 'https://api.app.mrscraper.com',
			placeholder: 'e.g. https://api.app.mrscraper.com',
			description: 'Address of the platform API, without /api/v1. Keep the default unless the service gave you another.',
		},
		{
			displayName: FETCH_HOST.displayName,
			name: FETCH_HOST.name,
			type: 'string',
			default: FETCH_HOST.default,
			required: true,
			placeholder: 'e.g. https://api.example.com',
			description: 'Address of the page fetch (Page > Fetch). Keep the default unless the service gave you another.',
		},
		{
			displayName: SEARCH_HOST.displayName,
			name: SEARCH_HOST.name,
			type: 'string',
			default: SEARCH_HOST.default,
			required: true,
			placeholder: 'e.g. https://search.example.com',
			description: 'Address of the Google search (Search > Google). Keep the default unless the service gave you another.',
		},
	];

	// The platform reads the token from the x-api-token header. On the page fetch's and the search's hosts the vendor's
	// MCP server and CLI send it as Authorization: Bearer as well, and no vendor client relies on x-api-token alone
	// there, so both go to those hosts. The fields are checked first, so the Test button names a malformed field as a
	// node run does, instead of a network or header error.
	authenticate: IAuthenticate = async (credentials, requestOptions) => {
		const problem = credentialProblemMessage(this.displayName, credentials, PLATFORM_HOSTS);
		if (problem) throw new Error(problem);
		const token = credentials.apiToken as string;
		const headers = { ...requestOptions.headers, 'x-api-token': token };
		const bearer = tokenHostOf(credentials, `${requestOptions.baseURL ?? ''}${requestOptions.url}`) ? { Authorization: `Bearer ${token}` } : {};
		return { ...requestOptions, headers: { ...headers, ...bearer } };
	};

	// The documented way to verify a token: it answers with the subscription account, or 401.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/api/v1/subscription-accounts',
			method: 'GET',
		},
	};
}
