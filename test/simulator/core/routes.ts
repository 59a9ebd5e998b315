/**
 * The route table of one simulated API: routes with `:param` segments, each named `METHOD /pattern` (the name the
 * request log, fault injection and per-route latency refer to).
 */
import type { Handler } from './http';

interface Route {
	name: string;
	method: string;
	segments: string[];
	handler: Handler;
}

export interface RouteMatch {
	route?: { name: string; handler: Handler };
	params: Record<string, string>;
}

export class RouteTable {
	private readonly routes: Route[] = [];

	/** Registers a route; returns its name (`METHOD /pattern`). */
	add(method: string, pattern: string, handler: Handler): string {
		const name = `${method} ${pattern}`;
		this.routes.push({ name, method, segments: pattern.split('/').filter(Boolean), handler });
		return name;
	}

	/** The first route of the method whose segments fit the path, with the decoded `:param` values; none: no route. */
	match(method: string, path: string): RouteMatch {
		const parts = path.split('/').filter(Boolean);
		for (const route of this.routes) {
			if (route.method !== method || route.segments.length !== parts.length) continue;
			const params: Record<string, string> = {};
			const ok = route.segments.every((segment, i) => {
				if (segment.startsWith(':')) {
					params[segment.slice(1)] = decodeURIComponent(parts[i]);
					return true;
				}
				return segment === parts[i];
			});
			if (ok) return { route, params };
		}
		return { params: {} };
	}
}
