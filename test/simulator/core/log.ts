/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the simulator is test code that runs in plain Node, never inside n8n */
import type { IncomingHttpHeaders } from 'node:http';

export interface LoggedRequest {
	/** Route name, `METHOD /pattern` (e.g. `GET /api/v1/results/:id`), or `METHOD <unmatched>`. */
	route: string;
	method: string;
	path: string;
	query: Record<string, string>;
	headers: IncomingHttpHeaders;
	/** Parsed JSON body, or the raw text when it was not JSON, or undefined when empty. */
	body: unknown;
	/** Status the simulator answered with; undefined for a connection reset. */
	status?: number;
	/** Simulated time of arrival (ms). */
	at: number;
}

/** Every request a simulated service received, in arrival order: what tests assert on. */
export class RequestLog {
	readonly entries: LoggedRequest[] = [];

	add(entry: LoggedRequest): void {
		this.entries.push(entry);
	}

	clear(): void {
		this.entries.length = 0;
	}

	/** Requests to one route (`METHOD /pattern`), or all when no route is given. */
	for(route?: string): LoggedRequest[] {
		return route === undefined ? [...this.entries] : this.entries.filter((e) => e.route === route);
	}

	count(route?: string): number {
		return this.for(route).length;
	}

	/** Counts per route, e.g. `{ 'POST /api/v1/scrapers-ai': 3 }`. */
	counts(): Record<string, number> {
		const out: Record<string, number> = {};
		for (const e of this.entries) out[e.route] = (out[e.route] ?? 0) + 1;
		return out;
	}

	last(route?: string): LoggedRequest | undefined {
		const list = this.for(route);
		return list[list.length - 1];
	}
}
