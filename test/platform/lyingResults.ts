import type { IDataObject } from 'n8n-workflow';

import type { SimReply } from '../simulator/core/http';
import type { LoggedRequest } from '../simulator/core/log';
import { PLATFORM_OTHER_USER_TOKEN } from '../simulator/platform';
import { ROUTES, usePlatform } from './helpers';
import type { PlatformContext } from './helpers';

/**
 * Result > Get Many and the Result picker through n8n's engine, against a results list that lies: the simulator's
 * `afterHandle` rewrites its answers (a page repeated with a billion pages counted, no `meta` at all, an empty page
 * in the middle, a count too low, fresh full pages past the end it gave). The paging guard: nodes/shared/paging/pages.ts.
 */

export const TOKEN = PLATFORM_OTHER_USER_TOKEN;

export type Rewrite = (page: number, data: IDataObject[], meta: IDataObject) => { data: IDataObject[]; meta?: IDataObject };

export interface LyingList {
	ctx: PlatformContext;
	/** Rewrites each answer of the results list: `rewrite` gets the page asked for and the faithful answer. */
	lie: (rewrite: Rewrite) => void;
	/** Requests the results list received since the log was last cleared. */
	requests: () => number;
}

/** A simulator whose account of `TOKEN` holds 50 records; the lie told in a test ends after it. */
export function useLyingList(): LyingList {
	const ctx = usePlatform();
	beforeAll(() => {
		ctx.sim.seedResults(TOKEN, 50);
	});
	afterEach(() => {
		ctx.sim.server.afterHandle = undefined;
	});
	const lie = (rewrite: Rewrite): void => {
		ctx.sim.server.afterHandle = (request: LoggedRequest, reply: SimReply) => {
			if (request.route !== ROUTES.results || reply.status !== 200) return undefined;
			const body = reply.json as { message: string; data: IDataObject[]; meta: IDataObject };
			const { data, meta } = rewrite(Number(request.query.page), body.data, body.meta);
			return { ...reply, json: meta === undefined ? { message: body.message, data } : { message: body.message, data, meta } };
		};
	};
	return { ctx, lie, requests: () => ctx.sim.server.log.for(ROUTES.results).length };
}
