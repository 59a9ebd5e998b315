/**
 * The marketplace's scraping-run routes: one run (as JSON, or with each result's page HTML), its delete, and the
 * latest run of a scraper (public facts).
 */
import { notFound, validationFailed } from '../errors';
import { validatePathId } from '../requestParams';
import { scrapingRunRecord } from '../views';
import type { MarketplaceRoutes } from './guard';

export function registerRunRoutes({ server, store, clock, authed, answer }: MarketplaceRoutes): void {
	server.route('GET', '/api/scraping-runs/html/:scraping_run_id', authed((req, userId) => {
		const id = validatePathId('scraping_run_id', req.params.scraping_run_id);
		if (!id.ok) return validationFailed(id.errors);
		const run = store.runOf(userId, id.value);
		if (!run) return notFound();
		// Declared as text/plain by the interface, with the JSON object as its text.
		return { status: 200, text: JSON.stringify({ data: scrapingRunRecord(run, 'html', clock.now()) }) };
	}));

	server.route('GET', '/api/scraping-runs/:id', authed((req, userId) => {
		const id = validatePathId('id', req.params.id);
		if (!id.ok) return validationFailed(id.errors);
		const run = store.runOf(userId, id.value);
		if (!run) return notFound();
		return answer({ data: scrapingRunRecord(run, 'data', clock.now()) });
	}));

	server.route('DELETE', '/api/scraping-runs/:id', authed((req, userId) => {
		const id = validatePathId('id', req.params.id);
		if (!id.ok) return validationFailed(id.errors);
		const run = store.runOf(userId, id.value);
		if (!run) return notFound();
		store.deleteRun(run);
		return answer({ deleted: true });
	}));

	server.route('GET', '/api/scraping-runs/latest/:scraper_id', authed((req, userId) => {
		const id = validatePathId('scraper_id', req.params.scraper_id);
		if (!id.ok) return validationFailed(id.errors);
		const scraper = store.scraperOf(userId, id.value);
		const run = scraper && store.latestRun(scraper.id);
		if (!run) return notFound();
		return answer({ data: scrapingRunRecord(run, 'data', clock.now()) });
	}));
}
