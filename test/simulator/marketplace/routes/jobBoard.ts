/** The marketplace's job-board route: POST `/api/job-board-scrape`, a synchronous scrape of board pages by a schema. */
import { validationFailed } from '../errors';
import { scrapeJobBoard } from '../jobboard';
import { validateJobBoard } from '../validation';
import type { MarketplaceRoutes } from './guard';

export function registerJobBoardRoutes({ server, settings, authed, answer }: MarketplaceRoutes): void {
	server.route('POST', '/api/job-board-scrape', authed(async (req) => {
		const input = validateJobBoard(req.body);
		if (!input.ok) return validationFailed(input.errors);
		return answer(await scrapeJobBoard(input.value, settings));
	}));
}
