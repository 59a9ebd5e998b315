import type { IAuthenticate, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

import { API_TOKEN, BASE_URL } from '../nodes/shared/transport/credentialFields';
import { credentialProblemMessage } from '../nodes/shared/transport/credentials';

export class ScraperMarketplaceApi implements ICredentialType {
	name = 'scraperMarketplaceApi';

	displayName = 'Scraper Marketplace API';

	icon: Icon = { light: 'file:../icons/scraper.svg', dark: 'file:../icons/scraper.dark.svg' };

	documentationUrl = 'https://github.com/scraper-service/n8n-nodes-scraper-service#credentials';

	properties: INodeProperties[] = [
		{
			...API_TOKEN,
			description: 'The marketplace API token from the service dashboard, sent as a Bearer token',
		},
		{
			...BASE_URL,
			// The service's marketplace API (the dashboard's own host), as its documentation addresses it.
			default: 'https://app.mrscraper.com',
			placeholder: 'e.g. https://app.mrscraper.com',
			description: 'Address of the marketplace API, without /api. Keep the default unless the service gave you another.',
		},
	];

	// RFC 6750: the token travels in the Authorization header with the Bearer scheme. The fields are checked first, so
	// the Test button names a malformed field as a node run does, instead of a network or header error.
	authenticate: IAuthenticate = async (credentials, requestOptions) => {
		const problem = credentialProblemMessage(this.displayName, credentials);
		if (problem) throw new Error(problem);
		return { ...requestOptions, headers: { ...requestOptions.headers, Authorization: `Bearer ${credentials.apiToken as string}` } };
	};

	// The cheapest authenticated read: the account itself (the vendor's own clients use it for this).
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/api/account',
			method: 'GET',
		},
	};
}
