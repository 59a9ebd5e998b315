import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import type { ErrorSubject } from '../execution/errors';
import type { StartedWork } from '../execution/unknownOutcome';

/** What describes an API and one request to it, read by the credentials check, the sending and the transport alike. */

/**
 * A host of the service besides the credential's Base URL (a product of its own on another address, sold for the same
 * token), kept in a credential field of its own whose default is the service's real address.
 */
export interface HostField {
	/** The credential field, e.g. `fetchBaseUrl`. */
	name: string;
	/** As the credential shows it, e.g. `Fetch Base URL`. */
	displayName: string;
	default: string;
}

/** One API the nodes talk to: which credential authenticates it and how it is named to the user. */
export interface ApiDefinition {
	credentialType: string;
	credentialName: string;
	service: string;
	/** The credential's host fields besides Base URL (checked with it): where some of its requests go. */
	hosts?: readonly HostField[];
}

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the request's host, e.g. `/api/v1/results`. */
	path: string;
	/** The credential's host field this request goes to (one of `ApiDefinition.hosts`); its Base URL when not set. */
	host?: HostField;
	/**
	 * How a 2xx answer is read: JSON when not set; `bytes` gives the body as sent (a fetched page, which may be a file or
	 * text in any charset), never read as JSON. Other answers are read as JSON or text either way.
	 */
	answer?: 'bytes';
	qs?: IDataObject;
	body?: IDataObject | IDataObject[];
	headers?: Record<string, string>;
	/**
	 * True for reads: a repeat cannot start a second job, so 5xx and network errors are retried.
	 * Creates, reruns and bulk starts are never repeated after a failure that may have reached the service.
	 */
	idempotent: boolean;
	/** What an id in the path refers to, for 403/404 messages. */
	subject?: ErrorSubject;
	/** For a request that is never repeated: what it starts and where to look for it when its outcome is unknown. */
	started?: StartedWork;
	/** Response deadline in milliseconds. */
	timeoutMs?: number;
}
