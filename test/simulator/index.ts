import { SimClock } from './core/clock';
import type { SimSection } from './core/server';
import { GatewaySimulator, PRICE_ATOMIC, type GatewaySimulatorOptions } from './gateway';
import { MARKETPLACE_DEMO_TOKEN, MarketplaceSimulator, type MarketplaceSimulatorOptions } from './marketplace';
import { ModelSimulator, SCRIPTED_MODEL_ID, type ModelSimulatorOptions } from './model';
import { DEMO_AI_SCRAPER_IDS, DEMO_MANUAL_SCRAPER_IDS, PLATFORM_DEMO_TOKEN, PlatformSimulator, type PlatformSimulatorOptions } from './platform';
import { FetchSimulator, type FetchSimulatorOptions } from './platform/fetch';
import { SearchSimulator, type SearchSimulatorOptions } from './platform/search';

export { SimClock } from './core/clock';
export { GatewaySimulator, PRICE_ATOMIC } from './gateway';
export { MarketplaceSimulator, MARKETPLACE_DEMO_TOKEN } from './marketplace';
export { ModelSimulator, SCRIPTED_MODEL_ID, type ScriptTurn, type ScriptedToolCall, type ScriptArgument } from './model';
export { PlatformSimulator, PLATFORM_DEMO_TOKEN, DEMO_AI_SCRAPER_IDS, DEMO_MANUAL_SCRAPER_IDS } from './platform';
export { FetchSimulator, FETCH_ROUTES, TIMEOUT_MARKER } from './platform/fetch';
export { SearchSimulator, SEARCH_ROUTES } from './platform/search';
export { EMPTY_MARKER } from './platform/serp';

/** Ports the standalone simulator (`npm run simulator`, the demo) uses unless told otherwise. */
export const DEFAULT_PORTS = { platform: 4010, marketplace: 4020, gateway: 4030, model: 4040, fetch: 4050, search: 4060 } as const;

export interface SimulatorPorts {
	platform: number;
	marketplace: number;
	gateway: number;
	/** The scripted chat model (section D); a free port when omitted. */
	model?: number;
	/** The platform's page fetch and Google search, each on a host of its own; free ports when omitted. */
	fetch?: number;
	search?: number;
}

export interface StartSimulatorOptions {
	/** Port per section; 0 picks a free one. Default: all free (0). */
	ports?: Partial<SimulatorPorts>;
	/** One simulated clock shared by every section; a new one when omitted. */
	clock?: SimClock;
	platform?: Omit<PlatformSimulatorOptions, 'clock'>;
	marketplace?: Omit<MarketplaceSimulatorOptions, 'clock'>;
	gateway?: Omit<GatewaySimulatorOptions, 'clock' | 'port'>;
	model?: Omit<ModelSimulatorOptions, 'clock'>;
	fetch?: FetchSimulatorOptions;
	search?: SearchSimulatorOptions;
	/**
	 * Seed the demo account's history (`PlatformSimulator.seedDemo`, `MarketplaceSimulator.seedDemo`): finished
	 * results for every demo scraper, so lists built from the results show them. The standalone simulator (and so
	 * the demo) sets it; tests leave it off and start empty. Default false.
	 */
	demoData?: boolean;
}

/** What a client needs to reach the simulator: base URLs, the demo account's tokens and the demo wallet. */
export interface SimulatorInfo {
	platformUrl: string;
	marketplaceUrl: string;
	gatewayUrl: string;
	/** The scripted OpenAI-compatible chat model, `<url>/v1`: the Base URL of an openAiApi credential (any API key). */
	modelUrl: string;
	/** The page fetch (`GET /?url=…`) and the Google search (`POST /api/google/serp/v2/sync`): the platform's token. */
	fetchUrl: string;
	searchUrl: string;
	platformToken: string;
	marketplaceToken: string;
	/** Scraper ids the demo account owns, for reruns and bulk jobs. */
	demoAiScraperIds: Readonly<Record<string, string>>;
	demoManualScraperIds: readonly string[];
	/** The gateway's local chain: CAIP-2 network, RPC, the USDC-like token, the payee and a funded wallet. */
	chain: {
		network: string;
		chainId: number;
		rpcUrl: string;
		tokenAddress: string;
		payTo: string;
		/** Price of one gateway request in USDC, as the credential's Max Price field takes it. */
		priceUsdc: number;
		demoWallet: { address: string; privateKey: string };
	};
}

export interface RunningSimulator {
	clock: SimClock;
	platform: PlatformSimulator;
	/** The platform's page fetch and Google search, on hosts of their own (the platform's tokens and rate window). */
	fetch: FetchSimulator;
	search: SearchSimulator;
	marketplace: MarketplaceSimulator;
	gateway: GatewaySimulator;
	/** The scripted chat model (`setScript`, `requests`, `toolMessages()`, `offeredTools()`). */
	model: ModelSimulator;
	info: SimulatorInfo;
	/** Stops every section and the chain; safe to call twice. */
	close(): Promise<void>;
}

/** What a client needs to reach the started sections (`SimulatorInfo`). */
function infoOf(sections: Omit<RunningSimulator, 'clock' | 'info' | 'close'>): SimulatorInfo {
	const { platform, fetch: fetchHost, search: searchHost, marketplace, gateway, model } = sections;
	return {
		platformUrl: platform.url,
		marketplaceUrl: marketplace.url,
		gatewayUrl: gateway.url,
		modelUrl: model.baseUrl,
		fetchUrl: fetchHost.url,
		searchUrl: searchHost.url,
		platformToken: PLATFORM_DEMO_TOKEN,
		marketplaceToken: MARKETPLACE_DEMO_TOKEN,
		demoAiScraperIds: DEMO_AI_SCRAPER_IDS,
		demoManualScraperIds: DEMO_MANUAL_SCRAPER_IDS,
		chain: {
			network: gateway.network,
			chainId: gateway.chainId,
			rpcUrl: gateway.rpcUrl,
			tokenAddress: gateway.tokenAddress,
			payTo: gateway.payTo,
			priceUsdc: Number(PRICE_ATOMIC) / 1e6,
			demoWallet: { address: gateway.demoWallet.address, privateKey: gateway.demoWallet.privateKey },
		},
	};
}

/**
 * Starts every section of the interface on loopback, sharing one simulated clock (the platform's page fetch and
 * Google search each on a port of their own, as the real service has a host for each), plus the gateway's local
 * anvil chain. Used by the standalone simulator (`npm run simulator`), the demo and the end-to-end tests.
 */
export async function startSimulator(options: StartSimulatorOptions = {}): Promise<RunningSimulator> {
	const clock = options.clock ?? new SimClock();
	const ports = { platform: 0, marketplace: 0, gateway: 0, model: 0, fetch: 0, search: 0, ...options.ports };
	const platform = new PlatformSimulator({ ...options.platform, clock });
	const fetchHost = new FetchSimulator(platform, options.fetch);
	const searchHost = new SearchSimulator(platform, options.search);
	const marketplace = new MarketplaceSimulator({ ...options.marketplace, clock });
	const model = new ModelSimulator({ ...options.model, clock });
	if (options.demoData) {
		platform.seedDemo();
		marketplace.seedDemo();
	}
	const started: Array<{ close(): Promise<void> }> = [];
	let closed = false;
	const close = async (): Promise<void> => {
		if (closed) return;
		closed = true;
		await Promise.allSettled(started.reverse().map((s) => s.close()));
	};
	let gateway: GatewaySimulator;
	try {
		const listening: Array<[SimSection, number | undefined]> = [
			[platform, ports.platform],
			[fetchHost, ports.fetch ?? 0],
			[searchHost, ports.search ?? 0],
			[marketplace, ports.marketplace],
			[model, ports.model ?? 0],
		];
		for (const [section, port] of listening) {
			await section.listen(port);
			started.push(section);
		}
		gateway = await GatewaySimulator.start({ ...options.gateway, clock, port: ports.gateway });
		started.push(gateway);
	} catch (error) {
		await close();
		// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- simulator start-up in plain Node, not a node: the caller sees the listen error as is
		throw error;
	}
	const sections = { platform, fetch: fetchHost, search: searchHost, marketplace, gateway, model };
	return { clock, ...sections, info: infoOf(sections), close };
}

/** Human-readable summary: URLs, demo tokens and the demo wallet. */
export function describeSimulator(info: SimulatorInfo): string {
	const { chain } = info;
	return [
		`Platform API     ${info.platformUrl}   token (x-api-token): ${info.platformToken}`,
		`  Page fetch     ${info.fetchUrl}   GET /?url=...  (the platform's token; credential field Fetch Base URL)`,
		`  Google search  ${info.searchUrl}   POST /api/google/serp/v2/sync  (the platform's token; Search Base URL)`,
		`Marketplace API  ${info.marketplaceUrl}   token (Bearer): ${info.marketplaceToken}`,
		`x402 gateway     ${info.gatewayUrl}   ${chain.priceUsdc} USDC per request on ${chain.network} (anvil RPC ${chain.rpcUrl})`,
		`  USDC token ${chain.tokenAddress}, payee ${chain.payTo}`,
		`  demo wallet ${chain.demoWallet.address} (public anvil development key ${chain.demoWallet.privateKey})`,
		`Chat model       ${info.modelUrl}   OpenAI-compatible (any Bearer key), model ${SCRIPTED_MODEL_ID}; "Use Responses API" off`,
		`Demo AI scrapers: ${Object.entries(info.demoAiScraperIds).map(([agent, id]) => `${agent} ${id}`).join(', ')}`,
		`Demo manual scrapers (bulk): ${info.demoManualScraperIds.join(', ')}`,
	].join('\n');
}
