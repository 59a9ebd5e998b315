import { overallStatus } from '../../../nodes/ScraperMarketplace/runs/track';
import type { TrackedRun } from '../../../nodes/ScraperMarketplace/runs/track';
import type { RunListRecord } from '../../../nodes/ScraperMarketplace/transport/vocabulary';

/** A section C run-list record (a result) of run 500 of scraper 7, and runs of them, made here without the service. */

export function result(id: number, status: string, content: RunListRecord['content'] = null, scraped_url = 'Default'): RunListRecord {
	return {
		id,
		scraper_id: 7,
		scraping_run_id: 500,
		scraper_name: 'Leads',
		scraped_url,
		status,
		content,
		created_at: '2026-03-01T12:00:00Z',
		updated_at: '2026-03-01T12:01:00Z',
	};
}

export function run(results: RunListRecord[], read = true): TrackedRun {
	return { id: 500, scraper_id: 7, scraper_name: 'Leads', status: overallStatus(results), results, read };
}
