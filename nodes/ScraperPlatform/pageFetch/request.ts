import type { IDataObject } from 'n8n-workflow';

import type { NodeCall } from '../../shared/execution/call';
import type { RetryPolicy } from '../../shared/transport/retry';
import { apiRequest } from '../../shared/transport/transport';
import type { ApiAnswer } from '../../shared/transport/transport';
import { PLATFORM_API } from '../transport/api';
import { FETCH_HOST } from '../transport/hosts';
import { DEADLINE_MARGIN_SECONDS, SERVICE_TIMEOUT_SECONDS } from './fields';

/**
 * One page fetch with the API token: `GET {fetch host}/?url=…` with the query given (`FETCH_QUERY`'s body), the answer
 * as the bytes sent. Page > Fetch and the trigger's Page Changed event send it this one way.
 */
export async function requestPage(
	call: NodeCall,
	url: string,
	qs: IDataObject,
	timeoutSeconds: number | undefined,
	itemIndex: number,
	policy?: RetryPolicy,
): Promise<ApiAnswer<Buffer>> {
	return await apiRequest<Buffer>(
		call,
		PLATFORM_API,
		{
			method: 'GET',
			host: FETCH_HOST,
			path: '/',
			qs,
			answer: 'bytes',
			// A fetch spends plan tokens: after a 5xx or a lost connection it is not sent again (429 is retried).
			idempotent: false,
			started: { what: `the fetch of ${url}`, happened: 'run and used tokens', check: "Check the account's token usage (Account > Get)" },
			timeoutMs: ((timeoutSeconds ?? SERVICE_TIMEOUT_SECONDS) + DEADLINE_MARGIN_SECONDS) * 1000,
		},
		itemIndex,
		policy,
	);
}
