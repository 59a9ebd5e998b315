/**
 * The platform's scraper routes: POST `scrapers-ai` (create an AI scraper and run it once: example output) and the
 * two synchronous reruns, `scrapers-ai-rerun` and `scrapers-manual-rerun` (public facts).
 */
import type { SimReply, SimRequest } from '../../core/http';
import type { SimServer } from '../../core/server';
import { readAiRerunOptions, readManualRerunOptions, readRerunMapOptions, type RerunEffects } from '../rerunOptions';
import { exampleCode, exampleOutput, type MapOptions } from '../agents';
import type { PlatformUser } from '../accounts';
import { SCREENSHOT_BASE64, renderHtml, renderMarkdown, scrapeCost } from '../content';
import { mapOptionsOf, readCreateBody, type CreateInput } from '../create';
import { validationFailed } from '../errors';
import { MAP_DEFAULTS, pageCurl, scrape } from '../scrape';
import type { PlatformState, ScraperKind } from '../state';
import { detailRecord, live, omit, type StoredResult } from '../store';
import type { AiExampleData, CreateAndRunRecord } from '../types';
import { Issues, bodyObject, optionalRegex, requireHttpUrl, requireUuid } from '../validation';
import { header, ok, type Caller, type Guard } from './guard';

/** True when the accept header lists `application/json` (parameters such as q are ignored). */
function acceptsJson(accept: string | undefined): boolean {
	if (!accept) return false;
	return accept.split(',').some((part) => part.split(';')[0].trim().toLowerCase() === 'application/json');
}

/** The accept check of both reruns, as a validation issue so it is listed with any body issues (one 422). */
function checkAccept(req: SimRequest, issues: Issues): void {
	if (!acceptsJson(header(req, 'accept'))) issues.add('accept', 'equals', 'accept header must be application/json');
}

/** Stores the AI scraper a create makes, recording what was sent; returns its id. */
function storeAiScraper(state: PlatformState, user: PlatformUser, input: CreateInput, at: number): string {
	const { url, agent, instruction: prompt, proxyCountry, options } = input;
	const scraperId = state.uuid();
	state.scrapers.set(scraperId, {
		id: scraperId,
		userId: user.id,
		kind: 'ai',
		name: `AI scraper for ${new URL(url).hostname}`,
		agent,
		url,
		prompt,
		instructionSentAs: input.sentAs,
		proxyCountry,
		createOptions: Object.keys(options).length > 0 ? options : undefined,
		createdAt: at,
	});
	return scraperId;
}

/** The first run's `AI` result: example code and output only (a rerun gives the full results). */
function storeFirstRun(state: PlatformState, { user, token }: Caller, scraperId: string, input: CreateInput, at: number): StoredResult {
	const { url, agent, instruction: prompt, options } = input;
	const cost = scrapeCost('create', url);
	const data: AiExampleData = {
		agent,
		...(prompt === undefined ? {} : { prompt }),
		...(Object.keys(options).length > 0 ? { options } : {}),
		exampleCode: exampleCode(agent, prompt ?? ''),
		exampleOutput: exampleOutput(agent, url, prompt ?? ''),
		note: 'Example output only. Rerun this scraper (scrapers-ai-rerun with its scraperId) for full results.',
	};
	return state.insertResult({
		id: state.uuid(),
		userId: user.id,
		scraperId,
		type: 'AI',
		url,
		createdAt: at,
		updatedAt: at,
		status: 'Finished',
		error: null,
		tokenUsage: cost.tokenUsage,
		runtime: cost.runtime,
		data,
		html: renderHtml(url),
		tokenName: token.name,
		proxyUsername: state.proxyFor(user, url),
	});
}

function createAndRun(state: PlatformState, req: SimRequest, caller: Caller): SimReply {
	const issues = new Issues();
	const body = bodyObject(req, issues);
	if (!issues.ok) return validationFailed(issues.list);
	const input = readCreateBody(body, issues);
	if (!issues.ok || input === undefined) return validationFailed(issues.list);

	const now = state.clock.now();
	const scraperId = storeAiScraper(state, caller.user, input, now);
	const stored = storeFirstRun(state, caller, scraperId, input, now);
	const record = omit(detailRecord<AiExampleData>(live(stored, now)), 'screenshotPath', 'htmlContent');
	const response: CreateAndRunRecord = {
		...record,
		runtime: stored.runtime.toFixed(3),
		curl: pageCurl(input.url),
		html: renderHtml(input.url),
		markdown: renderMarkdown(input.url),
		screenshot: SCREENSHOT_BASE64,
	};
	return ok('Scraper created and run successfully', response);
}

interface RerunInput {
	scraperId: string;
	url: string;
	map: Partial<MapOptions>;
	effects: RerunEffects;
}

function readRerunBody(body: Record<string, unknown>, issues: Issues, kind: ScraperKind): RerunInput | undefined {
	const scraperId = requireUuid(issues, body, 'scraperId');
	const url = requireHttpUrl(issues, body, 'url');
	// The map options are the AI rerun's only; the manual rerun ignores them as unknown fields. Only those sent.
	const map: Partial<MapOptions> = {};
	if (kind === 'ai') {
		Object.assign(map, readRerunMapOptions(issues, body));
		for (const field of ['includePatterns', 'excludePatterns'] as const) {
			const pattern = optionalRegex(issues, body, field);
			if (pattern !== undefined) map[field] = pattern;
		}
	}
	const effects = kind === 'ai' ? readAiRerunOptions(issues, body) : readManualRerunOptions(issues, body);
	if (scraperId === undefined || url === undefined) return undefined;
	return { scraperId, url, map, effects };
}

/** What a rerun's options change in its record: HTML left out, Markdown, a screenshot, the site's cookies. */
function withEffects(record: ReturnType<typeof detailRecord>, url: string, effects: RerunEffects): Record<string, unknown> {
	return {
		...record,
		...(effects.html === false ? { htmlContent: '' } : {}),
		...(effects.markdown ? { markdown: renderMarkdown(url) } : {}),
		...(effects.screenshot ? { screenshot: SCREENSHOT_BASE64 } : {}),
		...(effects.returnCookies ? { cookies: [{ name: 'session', value: 'sim', domain: new URL(url).hostname }] } : {}),
	};
}

/**
 * Both reruns: `scrapers-ai-rerun` (`ai`: the scraper's agent, map options) and `scrapers-manual-rerun` (`manual`:
 * the page object, type `Rerun-Manual`). Accept header and body are validated together (one 422), then the scraper.
 */
function rerun(state: PlatformState, req: SimRequest, caller: Caller, kind: ScraperKind): SimReply {
	const issues = new Issues();
	checkAccept(req, issues);
	const headerIssues = issues.list.length;
	const body = bodyObject(req, issues);
	// Fields are read only from a usable body; a wrong accept header is listed with them (every invalid field).
	const input = issues.list.length === headerIssues ? readRerunBody(body, issues, kind) : undefined;
	if (!issues.ok || !input) return validationFailed(issues.list);

	const scraper = state.ownScraper(input.scraperId, caller.user, kind);
	if ('status' in scraper) return scraper;
	// The crawl the scraper was created with, then what this rerun sends.
	const map: MapOptions = { ...mapOptionsOf(scraper.createOptions, MAP_DEFAULTS), ...input.map };
	const stored = scrape(state, caller, scraper, input.url, kind === 'ai' ? 'Rerun-AI' : 'Rerun-Manual', state.clock.now(), map);
	return ok('Scraper rerun successfully', withEffects(detailRecord(live(stored, state.clock.now())), input.url, input.effects), state.options.rerunStatus);
}

export function registerScraperRoutes(server: SimServer, guard: Guard, state: PlatformState): void {
	const spending = { rateLimited: true, permission: 'aiScrapers', spendsTokens: true } as const;
	server.route('POST', '/api/v1/scrapers-ai', guard(spending, (req, caller) => createAndRun(state, req, caller)));
	server.route('POST', '/api/v1/scrapers-ai-rerun', guard(spending, (req, caller) => rerun(state, req, caller, 'ai')));
	// A manual scraper's rerun takes the permission its bulk rerun takes (the account may run manual scrapers).
	server.route(
		'POST',
		'/api/v1/scrapers-manual-rerun',
		guard({ rateLimited: true, permission: 'bulkRerun', spendsTokens: true }, (req, caller) => rerun(state, req, caller, 'manual')),
	);
}
