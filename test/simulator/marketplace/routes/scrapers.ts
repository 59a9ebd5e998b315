/**
 * The marketplace's scraper routes: the four create-and-run endpoints (portal, PDF, search leads, social leads), a
 * run of an existing scraper (POST `/api/scrapers/{id}/run`), and the scraper reads of the public facts.
 */
import type { Handler } from '../../core/http';
import { notFound, validationFailed } from '../errors';
import type { Validated } from '../inputs';
import { validatePaging, validatePathId, validateRun } from '../requestParams';
import type { ScraperSpec } from '../stored';
import type { CreateAndRunResponse } from '../types';
import { validatePdf, validatePortal, validateSearchLeads, validateSocialLeads } from '../validation';
import { runListRecord, runResult, scraperObject } from '../views';
import type { MarketplaceRoutes } from './guard';

/** A create-and-run endpoint: the body (422), a new scraper, its first run, answered with its queued results. */
function createAndRun<T>(routes: MarketplaceRoutes, validate: (body: unknown) => Validated<T>, spec: (input: T) => ScraperSpec): Handler {
	const { store } = routes;
	return routes.authed((req, userId) => {
		const input = validate(req.body);
		if (!input.ok) return validationFailed(input.errors);
		const scraper = store.createScraper(userId, spec(input.value));
		const run = store.startRun(scraper);
		// The run as created: queued, however long a busy machine takes to send the answer (the service answers so).
		const now = run.created_at;
		const response: CreateAndRunResponse = {
			message: 'Scraping queued successfully',
			scraper: scraperObject(scraper, now),
			results: run.results.map((r) => runResult(r, scraper, now)),
		};
		return routes.answer(response);
	});
}

export function registerScraperRoutes(routes: MarketplaceRoutes): void {
	const { server, store, clock, authed, answer } = routes;
	server.route('POST', '/api/scrapers/real-estate-portal/create-and-run', createAndRun(routes, validatePortal, (input) => ({ type: 'real_estate_portal', input })));
	server.route('POST', '/api/scrapers/pdf/create-and-run', createAndRun(routes, validatePdf, (input) => ({ type: 'pdf', input })));
	server.route('POST', '/api/scrapers/leads-generator/search/create-and-run', createAndRun(routes, validateSearchLeads, (input) => ({ type: 'leads_search', input })));
	server.route('POST', '/api/scrapers/leads-generator/social/create-and-run', createAndRun(routes, validateSocialLeads, (input) => ({ type: 'leads_social', input })));

	server.route('POST', '/api/scrapers/:scraper_id/run', authed((req, userId) => {
		const input = validateRun(req.params.scraper_id, req.body);
		if (!input.ok) return validationFailed(input.errors);
		const scraper = store.scraperOf(userId, input.value.scraper_id);
		if (!scraper) return notFound();
		const run = store.startRun(scraper, input.value.urls);
		const now = run.created_at;
		return answer({ data: run.results.map((r) => runListRecord(r, 'data', now)) });
	}));

	server.route('GET', '/api/scrapers', authed((req, userId) => {
		const paging = validatePaging(req.query);
		if (!paging.ok) return validationFailed(paging.errors);
		// Paged as the results list is: `{data}` alone, no total; a page shorter than `per_page` is the last.
		return answer({ data: store.listScrapers(userId, paging.value.page, paging.value.per_page) });
	}));

	server.route('GET', '/api/scrapers/:id', authed((req, userId) => {
		const id = validatePathId('id', req.params.id);
		if (!id.ok) return validationFailed(id.errors);
		const scraper = store.scraperOf(userId, id.value);
		if (!scraper) return notFound();
		return answer({ data: scraperObject(scraper, clock.now()) });
	}));
}
