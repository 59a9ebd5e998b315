/**
 * The platform simulator's fixtures: the demo user's scrapers (manual ones for bulk reruns, one AI scraper per agent)
 * and the other user's, seeded at construction; the demo history (`seedDemo`) and bulk seeded results (`seedResults`).
 */
import { hashString } from '../core/random';
import { PLATFORM_DEMO_TOKEN, PLATFORM_OTHER_USER_TOKEN } from './accounts';
import { renderHtml } from './content';
import type { SeedResultsOverrides } from './options';
import { insertBulkJob, scrape } from './scrape';
import type { PlatformState } from './state';
import type { StoredScraper } from './store';
import { AI_AGENTS, type AiAgent, type ResultStatus } from './types';

/** Manual scrapers of the demo user, ready for bulk reruns. */
export const DEMO_MANUAL_SCRAPER_IDS: string[] = [
	'0f5e8a4c-1d2b-4c3e-9f8a-7b6c5d4e3f01',
	'0f5e8a4c-1d2b-4c3e-9f8a-7b6c5d4e3f02',
	'0f5e8a4c-1d2b-4c3e-9f8a-7b6c5d4e3f03',
];

/** AI scrapers of the demo user, one per agent, ready for reruns. */
export const DEMO_AI_SCRAPER_IDS: Readonly<Record<AiAgent, string>> = {
	general: '1a6f9b5d-2e3c-4d4f-8a9b-8c7d6e5f4a01',
	map: '1a6f9b5d-2e3c-4d4f-8a9b-8c7d6e5f4a02',
	listing: '1a6f9b5d-2e3c-4d4f-8a9b-8c7d6e5f4a03',
};

/** Scrapers of the other user: the demo token gets 403 on them. */
export const OTHER_USER_MANUAL_SCRAPER_ID = '2b7a0c6e-3f4d-4e5a-9b0c-9d8e7f6a5b01';
export const OTHER_USER_AI_SCRAPER_ID = '2b7a0c6e-3f4d-4e5a-9b0c-9d8e7f6a5b02';

const SEED_STATUSES: ResultStatus[] = ['Finished', 'Finished', 'Failed', 'Finished', 'Processing', 'Finished', 'Running'];

/** The scrapers every simulator starts with: the demo user's (manual and one AI per agent) and the other user's. */
export function seedScrapers(state: PlatformState): void {
	const now = state.clock.now();
	const demo = state.userOf(PLATFORM_DEMO_TOKEN);
	const other = state.userOf(PLATFORM_OTHER_USER_TOKEN);
	DEMO_MANUAL_SCRAPER_IDS.forEach((id, i) =>
		state.scrapers.set(id, { id, userId: demo.id, kind: 'manual', name: `Product detail scraper ${i + 1}`, createdAt: now }),
	);
	const aiSeeds: Record<AiAgent, { url: string; prompt: string }> = {
		general: { url: 'https://shop.example.com/', prompt: 'Extract the page title, heading and description' },
		map: { url: 'https://docs.example.com/', prompt: 'List every documentation page' },
		listing: { url: 'https://shop.example.com/products', prompt: 'Extract every product with its price' },
	};
	for (const agent of AI_AGENTS) {
		const id = DEMO_AI_SCRAPER_IDS[agent];
		state.scrapers.set(id, { id, userId: demo.id, kind: 'ai', name: `Demo ${agent} scraper`, agent, ...aiSeeds[agent], createdAt: now });
	}
	state.scrapers.set(OTHER_USER_MANUAL_SCRAPER_ID, {
		id: OTHER_USER_MANUAL_SCRAPER_ID,
		userId: other.id,
		kind: 'manual',
		name: 'Other user detail scraper',
		createdAt: now,
	});
	state.scrapers.set(OTHER_USER_AI_SCRAPER_ID, {
		id: OTHER_USER_AI_SCRAPER_ID,
		userId: other.id,
		kind: 'ai',
		name: 'Other user AI scraper',
		agent: 'general',
		url: 'https://other.example.org/',
		prompt: 'Extract the title',
		createdAt: now,
	});
}

/** See `PlatformSimulator.seedDemo`: a finished bulk job per demo manual scraper and a rerun per demo AI scraper. */
export function seedDemoHistory(state: PlatformState): void {
	const caller = state.accounts.require(PLATFORM_DEMO_TOKEN);
	const dayAgo = state.clock.now() - 86_400_000;
	DEMO_MANUAL_SCRAPER_IDS.forEach((scraperId, i) => {
		const urls = [1, 2, 3].map((n) => `https://shop.example.com/product/${i + 1}0${n}`);
		insertBulkJob(state, caller, scraperId, urls, dayAgo + i * 3_600_000);
	});
	AI_AGENTS.forEach((agent, i) => {
		const scraper = state.scrapers.get(DEMO_AI_SCRAPER_IDS[agent]) as StoredScraper;
		scrape(state, caller, scraper, scraper.url ?? 'https://shop.example.com/', 'Rerun-AI', dayAgo + (DEMO_MANUAL_SCRAPER_IDS.length + i) * 3_600_000);
	});
}

/** The first seeded record's createdAt: the override (ISO or epoch ms), else `count` steps before now. */
function firstSeedTime(state: PlatformState, count: number, step: number, createdAt: string | number | undefined): number {
	const first = createdAt === undefined ? state.clock.now() - count * step : typeof createdAt === 'number' ? createdAt : Date.parse(createdAt);
	if (Number.isNaN(first)) throw new Error('seedResults: createdAt is not a timestamp');
	return first;
}

/** See `PlatformSimulator.seedResults`. */
export function seedResultRecords(state: PlatformState, token: string, count: number, overrides: SeedResultsOverrides): void {
	const { user, token: apiToken } = state.accounts.require(token);
	const step = overrides.stepMs ?? 1000;
	const first = firstSeedTime(state, count, step, overrides.createdAt);
	let scraperId = overrides.scraperId;
	if (scraperId === undefined) {
		scraperId = state.uuid();
		state.scrapers.set(scraperId, {
			id: scraperId,
			userId: user.id,
			kind: 'ai',
			name: 'Seeded scraper',
			agent: 'general',
			url: 'https://seed.example.com/',
			prompt: 'Extract the title',
			createdAt: first,
		});
	}
	for (let i = 0; i < count; i++) {
		const n = hashString(`seed|${user.id}|${state.results.size}|${i}`);
		const url = overrides.url ?? `https://seed-${i % 5}.example.com/page/${i}`;
		const status = overrides.status ?? SEED_STATUSES[i % SEED_STATUSES.length];
		const createdAt = first + i * step;
		const runtime = overrides.runtime ?? 1 + (n % 9000) / 1000;
		state.insertResult({
			id: state.uuid(),
			userId: user.id,
			scraperId,
			type: overrides.type ?? (i % 3 === 2 ? 'AI' : 'Rerun-AI'),
			url,
			createdAt,
			updatedAt: createdAt + Math.round(runtime * 1000),
			status,
			error: overrides.error !== undefined ? overrides.error : status === 'Failed' ? 'Navigation timeout of 30000 ms exceeded' : null,
			tokenUsage: overrides.tokenUsage ?? 100 + (n % 900),
			runtime,
			data: overrides.data ?? { index: i, title: `Seeded result ${i}` },
			html: renderHtml(url),
			tokenName: overrides.apiTokenName ?? apiToken.name,
			proxyUsername: state.proxyFor(user, url),
		});
	}
}
