/**
 * What every marketplace route goes through before its handler: Bearer auth (401), the account's concurrency limit
 * (429 at once), the per-token rate limit (429), a malformed-JSON check, then the due scheduled runs; and the 200
 * answer labelled with the configured content type. `MarketplaceRoutes` is what the route files get.
 */
import type { SimClock } from '../../core/clock';
import type { Handler, SimReply, SimRequest } from '../../core/http';
import type { RateLimiter } from '../../core/ratelimit';
import type { SimServer } from '../../core/server';
import { malformedJson, tooManyRequests, unauthorized } from '../errors';
import type { MarketplaceSettings } from '../options';
import type { MarketplaceStore } from '../store';

/** A route's handler, called with the caller's user id once the checks pass. */
type Authed = (req: SimRequest, userId: number) => SimReply | Promise<SimReply>;

/** What the route files need from the simulator. */
export interface MarketplaceRoutes {
	server: SimServer;
	store: MarketplaceStore;
	clock: SimClock;
	settings: MarketplaceSettings;
	/** Wraps a handler in the checks every route goes through. */
	authed(handler: Authed): Handler;
	/** A 200 JSON answer, labelled with the configured content type (the body is JSON either way). */
	answer(body: unknown): SimReply;
}

export function answerFor(settings: MarketplaceSettings): (body: unknown) => SimReply {
	return (body) => {
		const headers = settings.contentType === 'text/plain' ? { 'content-type': 'text/plain; charset=utf-8' } : undefined;
		return { status: 200, json: body, headers };
	};
}

/**
 * Bearer auth (RFC 6750: scheme case-insensitive), then the account's concurrency limit (429 at once; admitted
 * requests wait the route's latency in flight), then the per-token rate limit, then a malformed-JSON check.
 */
export function authedFor(
	store: MarketplaceStore,
	limiter: RateLimiter,
	settings: MarketplaceSettings,
	concurrencyLimitOf: (userId: number) => number,
): (handler: Authed) => Handler {
	return (handler) => async (req) => {
		const header = req.headers.authorization;
		if (header === undefined || header.trim() === '') return unauthorized('missing');
		const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
		if (!match) return unauthorized('missing');
		const token = match[1];
		const userId = store.userFor(token);
		if (userId === undefined) return unauthorized('invalid');
		const refused = await req.admit(String(userId), concurrencyLimitOf(userId));
		if (refused) return refused;
		const retryAfter = limiter.hit(token, settings.rateLimit, settings.rateTtl);
		if (retryAfter !== undefined) return tooManyRequests(retryAfter);
		if (req.bodyIsInvalidJson) return malformedJson();
		// Scheduled runs due by now exist before the request's work (the store's reads do this too).
		store.materialize();
		return handler(req, userId);
	};
}
