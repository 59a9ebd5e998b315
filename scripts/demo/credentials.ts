import type { SimulatorInfo } from '../../test/simulator/index';

/**
 * Credential ids the example workflows refer to. n8n resolves a node's credential by id, so the examples in
 * examples/ work wherever these credentials are imported, whatever the simulator's addresses are.
 */
export const CREDENTIAL_REFS = {
	scraperPlatformApi: { id: 'scrPlatformDemo1', name: 'Scraper Platform (demo simulator)' },
	scraperMarketplaceApi: { id: 'scrMarketDemo001', name: 'Scraper Marketplace (demo simulator)' },
	x402WalletApi: { id: 'scrWalletDemo001', name: 'x402 Wallet (demo chain)' },
	openAiApi: { id: 'scrOpenAiDemo001', name: 'OpenAI (demo: scripted model on the simulator)' },
} as const;

interface ImportedCredential {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

/** The demo account's credentials, pointing at a running simulator, in `n8n import:credentials` form. */
export function demoCredentials(info: SimulatorInfo): ImportedCredential[] {
	return [
		{
			...CREDENTIAL_REFS.scraperPlatformApi,
			type: 'scraperPlatformApi',
			data: { apiToken: info.platformToken, baseUrl: info.platformUrl, fetchBaseUrl: info.fetchUrl, searchBaseUrl: info.searchUrl },
		},
		{
			...CREDENTIAL_REFS.scraperMarketplaceApi,
			type: 'scraperMarketplaceApi',
			data: { apiToken: info.marketplaceToken, baseUrl: info.marketplaceUrl },
		},
		{
			...CREDENTIAL_REFS.x402WalletApi,
			type: 'x402WalletApi',
			data: {
				privateKey: info.chain.demoWallet.privateKey,
				baseUrl: info.gatewayUrl,
				network: 'custom',
				customNetwork: info.chain.network,
				usdcAddress: info.chain.tokenAddress,
				maxPricePerRequest: info.chain.priceUsdc,
				payTo: info.chain.payTo,
			},
		},
		{
			// n8n's own OpenAI credential, pointed at the simulator's scripted chat model (example 7's AI Agent).
			...CREDENTIAL_REFS.openAiApi,
			type: 'openAiApi',
			data: { apiKey: 'sk-demo-scripted-model', url: info.modelUrl },
		},
	];
}
