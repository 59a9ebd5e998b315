import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { runNode } from '../harness';
import type { RunOptions, RunResult } from '../harness';
import { PLATFORM_DEMO_TOKEN, PlatformSimulator } from '../simulator/platform';
import type { PlatformSimulatorOptions } from '../simulator/platform';
import { FetchSimulator } from '../simulator/platform/fetch';
import { SearchSimulator } from '../simulator/platform/search';

/** The platform with its page fetch and Google search on hosts of their own, for the Page and Search operations. */
export interface TokenHostsContext {
	platform: PlatformSimulator;
	fetchHost: FetchSimulator;
	searchHost: SearchSimulator;
	/** The Scraper Platform API credential pointing at all three (overrides win). */
	credential: (overrides?: ICredentialDataDecryptedObject) => ICredentialDataDecryptedObject;
	/** Runs the Scraper Platform node with the demo token against the simulator. */
	run: (
		parameters: IDataObject,
		options?: Partial<Omit<RunOptions, 'nodeType' | 'parameters' | 'credentials'>> & { credential?: ICredentialDataDecryptedObject },
	) => Promise<RunResult>;
	/** Requests the fetch, search and platform hosts received since the test began. */
	requestCount: () => number;
}

/** Starts the three hosts for the test file, clears their logs and faults before each test, closes them after. */
export function useTokenHosts(options: PlatformSimulatorOptions = {}): TokenHostsContext {
	const context = {} as TokenHostsContext;
	beforeAll(async () => {
		context.platform = new PlatformSimulator(options);
		context.fetchHost = new FetchSimulator(context.platform);
		context.searchHost = new SearchSimulator(context.platform);
		await Promise.all([context.platform.listen(), context.fetchHost.listen(), context.searchHost.listen()]);
	});
	afterAll(async () => {
		await Promise.all([context.fetchHost.close(), context.searchHost.close(), context.platform.close()]);
	});
	beforeEach(() => {
		context.fetchHost.reset();
		context.searchHost.reset();
		context.platform.server.log.clear();
		context.platform.server.faults.clear();
	});
	context.credential = (overrides = {}) => ({
		apiToken: PLATFORM_DEMO_TOKEN,
		baseUrl: context.platform.url,
		fetchBaseUrl: context.fetchHost.url,
		searchBaseUrl: context.searchHost.url,
		...overrides,
	});
	context.run = async (parameters, runOptions = {}) => {
		const { credential, ...rest } = runOptions;
		return await runNode({
			nodeType: 'scraperPlatform',
			parameters: parameters as RunOptions['parameters'],
			credentials: { scraperPlatformApi: credential ?? context.credential() },
			...rest,
		});
	};
	context.requestCount = () => context.fetchHost.server.log.count() + context.searchHost.server.log.count() + context.platform.server.log.count();
	return context;
}
