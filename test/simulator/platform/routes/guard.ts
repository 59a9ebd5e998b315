/**
 * What every platform route goes through before its handler (`guard`): the token (401), the account's concurrency
 * limit (429 at once), its rate window (429), the permission (403) and an enforced token limit (403); and the
 * success envelope of the answers (`ok`).
 */
import type { Handler, SimReply, SimRequest } from '../../core/http';
import type { RateLimiter } from '../../core/ratelimit';
import type { ApiToken, PlatformUser } from '../accounts';
import { forbidden, tokenLimitExceeded, tooManyRequests, unauthorized, unauthorizedExpired } from '../errors';
import type { PlatformState } from '../state';

/** Who sent an authenticated request: the token's user and the token itself. */
export interface Caller {
	user: PlatformUser;
	token: ApiToken;
}

export type CallerHandler = (req: SimRequest, caller: Caller) => SimReply;

interface GuardOptions {
	/** The route counts in the account's rate window (the interface lists a rate limit for it). */
	rateLimited?: boolean;
	permission?: keyof PlatformUser['permissions'];
	/** The route spends tokens: refused once an enforced token limit is reached. */
	spendsTokens?: boolean;
	/**
	 * The route also takes the token as `Authorization: Bearer` (the fetch and search hosts, public facts: every vendor
	 * client sends Bearer there, some with `x-api-token`); a request with neither is 401.
	 */
	bearer?: boolean;
}

/** Wraps a route's handler in the checks its options name. */
export type Guard = (options: GuardOptions, handler: CallerHandler) => Handler;

/** The token a request carries: `x-api-token`, else (where the route takes it) a Bearer token. */
function tokenOf(req: SimRequest, bearer: boolean): string | undefined {
	const platformToken = header(req, 'x-api-token');
	if (platformToken !== undefined || !bearer) return platformToken;
	return /^Bearer (.+)$/.exec(header(req, 'authorization') ?? '')?.[1];
}

export function header(req: SimRequest, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

/** The success envelope: `{message, data}`, 200 unless told. */
export function ok(message: string, data: unknown, status = 200): SimReply {
	return { status, json: { message, data } };
}

/**
 * Auth (401), then the account's concurrency limit (429 at once; admitted requests wait the route's latency in
 * flight), then its rate limit (429) where the interface lists it, then permission (403), then, on the endpoints
 * that spend tokens, an enforced token limit (403 `Token limit exceeded`).
 */
export function guardFor(state: PlatformState, limiter: RateLimiter): Guard {
	return (options, handler) => async (req) => {
		const check = state.accounts.check(tokenOf(req, options.bearer === true), state.clock.now());
		if (check.kind === 'unknown') return unauthorized();
		if (check.kind === 'expired') return unauthorizedExpired();
		const { user, token } = check;
		const refused = await req.admit(user.accountId, state.concurrencyLimitOf(user));
		if (refused) return refused;
		if (options.rateLimited) {
			const retryAfter = limiter.hit(user.accountId, user.rateLimit ?? state.options.rateLimit, user.rateTtl ?? state.options.rateTtl);
			if (retryAfter !== undefined) return tooManyRequests(retryAfter);
		}
		if (options.permission && !user.permissions[options.permission]) return forbidden();
		if (options.spendsTokens && state.tokenLimitReached(user)) return tokenLimitExceeded();
		return handler(req, { user, token });
	};
}
