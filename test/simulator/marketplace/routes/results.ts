/**
 * The marketplace's result routes: the paged results list, the latest run's results of a scraper, and one result
 * with its delete (public facts).
 */
import { notFound, validationFailed } from '../errors';
import { validatePaging, validatePathId } from '../requestParams';
import { runListRecord, scrapingRunRecord } from '../views';
import type { MarketplaceRoutes } from './guard';

export function registerResultRoutes({ server, store, clock, authed, answer }: MarketplaceRoutes): void {
	server.route('GET', '/api/results', authed((req, userId) => {
		const paging = validatePaging(req.query);
		if (!paging.ok) return validationFailed(paging.errors);
		return answer({ data: store.listResults(userId, paging.value.page, paging.value.per_page) });
	}));

	server.route('GET', '/api/results/:id', authed((req, userId) => {
		const id = validatePathId('id', req.params.id);
		if (!id.ok) return validationFailed(id.errors);
		const result = store.resultOf(userId, id.value);
		if (!result) return notFound();
		return answer({ data: runListRecord(result, 'data', clock.now()) });
	}));

	server.route('DELETE', '/api/results/:id', authed((req, userId) => {
		const id = validatePathId('id', req.params.id);
		if (!id.ok) return validationFailed(id.errors);
		const result = store.resultOf(userId, id.value);
		if (!result) return notFound();
		store.deleteResult(result);
		return answer({ deleted: true });
	}));

	server.route('GET', '/api/results/latest/:scraper_id', authed((req, userId) => {
		const id = validatePathId('scraper_id', req.params.scraper_id);
		if (!id.ok) return validationFailed(id.errors);
		const scraper = store.scraperOf(userId, id.value);
		const run = scraper && store.latestRun(scraper.id);
		if (!run) return notFound();
		return answer({ data: scrapingRunRecord(run, 'data', clock.now()).results });
	}));
}
