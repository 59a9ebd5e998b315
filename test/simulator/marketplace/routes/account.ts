/** The marketplace's account route (public facts): GET `/api/account`, the account behind the token. */
import { accountOf } from '../accounts';
import type { MarketplaceRoutes } from './guard';

export function registerAccountRoutes({ server, authed, answer }: MarketplaceRoutes): void {
	server.route('GET', '/api/account', authed((_req, userId) => answer({ data: accountOf(userId) })));
}
