/** The platform's reporting routes: GET `analytic/statuses` (status counts) and GET `proxies/user/requests-bandwidth`. */
import type { SimReply, SimRequest } from '../../core/http';
import type { SimServer } from '../../core/server';
import { analyticsSummary, parseWindow, proxyBandwidth } from '../analytics';
import { badRequest } from '../errors';
import type { PlatformState } from '../state';
import { ok, type Caller, type Guard } from './guard';

function analytics(state: PlatformState, req: SimRequest, { user }: Caller): SimReply {
	const domain = req.query.get('domain');
	if (domain === null || domain.trim() === '') return badRequest('domain is required');
	const window = parseWindow(req.query);
	if ('status' in window) return window;
	const summary = analyticsSummary(state.liveResults(user), {
		domain,
		window,
		action: req.query.get('action') || undefined,
		apiTokenName: req.query.get('apiTokenName') || undefined,
	});
	return ok('Analytics retrieved successfully', summary);
}

function bandwidth(state: PlatformState, req: SimRequest, { user }: Caller): SimReply {
	const window = parseWindow(req.query);
	if ('status' in window) return window;
	const rows = proxyBandwidth(user.proxyUsernames, state.liveResults(user), window);
	return ok('Proxy bandwidth retrieved successfully', rows);
}

export function registerAnalyticsRoutes(server: SimServer, guard: Guard, state: PlatformState): void {
	server.route('GET', '/api/v1/analytic/statuses', guard({}, (req, caller) => analytics(state, req, caller)));
	server.route('GET', '/api/v1/proxies/user/requests-bandwidth', guard({}, (req, caller) => bandwidth(state, req, caller)));
}
