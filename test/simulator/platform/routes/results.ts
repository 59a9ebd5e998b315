/** The platform's result routes: GET `results` (filtered, sorted, paged) and GET `results/{id}` (public facts). */
import type { SimReply, SimRequest } from '../../core/http';
import type { SimServer } from '../../core/server';
import { notFound, validationFailed } from '../errors';
import { parseResultsQuery, queryResults } from '../results';
import type { PlatformState } from '../state';
import { detailRecord, listedRecord, live } from '../store';
import { Issues } from '../validation';
import { ok, type Caller, type Guard } from './guard';

function listResults(state: PlatformState, req: SimRequest, { user }: Caller): SimReply {
	const issues = new Issues();
	const query = parseResultsQuery(req.query, issues);
	if (!query) return validationFailed(issues.list);
	const { page, total } = queryResults(state.liveResults(user), query);
	return {
		status: 200,
		json: {
			message: 'Results retrieved successfully',
			data: page.map(listedRecord),
			meta: { page: query.page, pageSize: query.pageSize, total, totalPage: Math.ceil(total / query.pageSize) },
		},
	};
}

function getResult(state: PlatformState, req: SimRequest, { user }: Caller): SimReply {
	const stored = state.results.get(req.params.id);
	if (!stored || stored.userId !== user.id) return notFound();
	return ok('Result retrieved successfully', detailRecord(live(stored, state.clock.now())));
}

export function registerResultRoutes(server: SimServer, guard: Guard, state: PlatformState): void {
	server.route('GET', '/api/v1/results', guard({}, (req, caller) => listResults(state, req, caller)));
	server.route('GET', '/api/v1/results/:id', guard({}, (req, caller) => getResult(state, req, caller)));
}
