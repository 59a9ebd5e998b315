import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { hostOf } from '../../shared/transport/credentials';
import type { HostField } from '../../shared/transport/definition';

/**
 * The service's products on hosts of their own, sold for the platform's API token (public facts: the vendor's own
 * clients call them with the same `x-api-token`). Each is a field of the Scraper Platform API credential whose default
 * is the real address, so a credential saved before the field existed keeps working.
 */

/** The page fetch: `GET {host}/?url=…`, the page's HTML as the answer. */
export const FETCH_HOST: HostField = { name: 'fetchBaseUrl', displayName: 'Fetch Base URL', default: 'https://api.mrscraper.com' };

/** The Google search: `POST {host}/api/google/serp/v2/sync`. */
export const SEARCH_HOST: HostField = { name: 'searchBaseUrl', displayName: 'Search Base URL', default: 'https://sync.scraper.mrscraper.com' };

export const PLATFORM_HOSTS: readonly HostField[] = [FETCH_HOST, SEARCH_HOST];

/** The host field a request's URL goes to (the fetch's or the search's, as the credential sets them), if any. */
export function tokenHostOf(credentials: ICredentialDataDecryptedObject, url: string): HostField | undefined {
	return PLATFORM_HOSTS.find((host) => url.startsWith(`${hostOf(credentials, host)}/`));
}
