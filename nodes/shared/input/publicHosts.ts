/**
 * Which page URLs the service may be asked to fetch (the x402 gateway's paid fetch and the platform's page fetch with
 * the API token): public http(s) pages only. Pure functions, no I/O, so the rules run before any request and any
 * signature. WHATWG URL parsing (Node's `URL`) normalises every
 * IPv4 spelling (decimal `2130706433`, hex `0x7f.1`, octal `0177.0.0.1`, short `127.1`, percent-encoded) to
 * dotted decimal, so the host is classified after parsing, never from the text the user typed.
 */

import { readHttpUrl, urlHostProblem } from './urlRules';

type HostRejection =
	| 'ipv6Literal'
	| 'localhost'
	| 'localName'
	| 'singleLabel'
	| 'unspecified'
	| 'loopback'
	| 'private'
	| 'cgnat'
	| 'linkLocal'
	| 'reserved'
	| 'documentation'
	| 'benchmark'
	| 'multicast'
	| 'broadcast';

const REJECTION_TEXT: Record<HostRejection, string> = {
	ipv6Literal: 'an IPv6 address literal',
	localhost: 'localhost',
	localName: 'a local-network name (.localhost, .local, .internal, .localdomain, .lan, .home.arpa, .invalid)',
	singleLabel: 'a single-label (intranet) name',
	unspecified: 'an unspecified "this network" address (0.0.0.0/8)',
	loopback: 'a loopback address (127.0.0.0/8)',
	private: 'a private address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)',
	cgnat: 'a carrier-grade NAT address (100.64.0.0/10)',
	linkLocal: 'a link-local address (169.254.0.0/16)',
	reserved: 'a reserved address',
	documentation: 'a documentation address (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24)',
	benchmark: 'a benchmarking address (198.18.0.0/15)',
	multicast: 'a multicast address (224.0.0.0/4)',
	broadcast: 'the broadcast address',
};

/** IPv4 blocks that are not public: [base, prefix length, reason]. Order: most specific first where they nest. */
const IPV4_BLOCKS: ReadonlyArray<readonly [string, number, HostRejection]> = [
	['0.0.0.0', 8, 'unspecified'],
	['10.0.0.0', 8, 'private'],
	['100.64.0.0', 10, 'cgnat'],
	['127.0.0.0', 8, 'loopback'],
	['169.254.0.0', 16, 'linkLocal'],
	['172.16.0.0', 12, 'private'],
	['192.0.0.0', 24, 'reserved'],
	['192.0.2.0', 24, 'documentation'],
	['192.88.99.0', 24, 'reserved'],
	['192.168.0.0', 16, 'private'],
	['198.18.0.0', 15, 'benchmark'],
	['198.51.100.0', 24, 'documentation'],
	['203.0.113.0', 24, 'documentation'],
	['224.0.0.0', 4, 'multicast'],
	['255.255.255.255', 32, 'broadcast'],
	['240.0.0.0', 4, 'reserved'],
];

const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.localdomain', '.lan', '.home.arpa', '.invalid'];

/** Dotted-decimal IPv4 as a 32-bit number; undefined for anything else. */
function ipv4ToNumber(dotted: string): number | undefined {
	const parts = dotted.split('.');
	if (parts.length !== 4) return undefined;
	let out = 0;
	for (const part of parts) {
		if (!/^\d{1,3}$/.test(part)) return undefined;
		const n = Number(part);
		if (n > 255) return undefined;
		out = out * 256 + n;
	}
	return out;
}

function inBlock(address: number, base: string, prefix: number): boolean {
	const start = ipv4ToNumber(base) as number;
	return address >= start && address < start + 2 ** (32 - prefix);
}

/** Why a parsed URL's hostname is not a public host; undefined when it is public. */
export function classifyHost(hostname: string): HostRejection | undefined {
	if (hostname.startsWith('[') || hostname.includes(':')) return 'ipv6Literal';
	const host = hostname.toLowerCase().replace(/\.+$/, '');
	if (host === '' || host === 'localhost') return 'localhost';
	if (LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return 'localName';
	const address = ipv4ToNumber(host);
	if (address !== undefined) {
		for (const [base, prefix, reason] of IPV4_BLOCKS) if (inBlock(address, base, prefix)) return reason;
		return undefined;
	}
	if (!host.includes('.')) return 'singleLabel';
	return undefined;
}

function describeHostRejection(rejection: HostRejection): string {
	return REJECTION_TEXT[rejection];
}

/** A broken rule of the page URL: which rule, text for the message and, for the shared spelling rules, how to fix it. */
interface PageUrlProblem {
	rule: 'url' | 'scheme' | 'credentials' | 'ipv6Literal' | 'publicHost' | 'controlCharacter' | 'backslash' | 'percent' | 'authority' | 'userinfo' | 'host';
	message: string;
	fix?: string;
}

/**
 * Checks a page URL for a fetch and returns the one URL to send (and, at the gateway, to pay for): the
 * WHATWG-normalised `href` of the URL that passed, so the host classified here is the host the service reads. Rules: the spelling rules every URL
 * field shares (InputValidator: no control characters, no backslash, "%" only in %XX escapes, "//" after the
 * scheme, at most one "@", the host as typed), absolute http(s), no user:password, a public host, no IPv6
 * literal. The host spelling is checked last, so a loopback address in any spelling is reported as loopback.
 */
export function normalizePublicPageUrl(text: string): { ok: true; href: string } | { ok: false; problem: PageUrlProblem } {
	const read = readHttpUrl(text);
	if (!read.ok && read.broken === 'spelling') return { ok: false, problem: { rule: read.problem.rule, message: `it ${read.problem.message}`, fix: read.problem.fix } };
	if (!read.ok && read.broken === 'parse') return { ok: false, problem: { rule: 'url', message: 'it is not a valid absolute URL' } };
	if (!read.ok) return { ok: false, problem: { rule: 'scheme', message: `only http and https URLs are allowed, got "${read.protocol.replace(/:$/, '')}"` } };
	const { url } = read;
	if (url.username !== '' || url.password !== '') {
		return { ok: false, problem: { rule: 'credentials', message: 'it must not contain a user name or password (user:password@)' } };
	}
	const rejection = classifyHost(url.hostname);
	if (rejection === 'ipv6Literal') return { ok: false, problem: { rule: 'ipv6Literal', message: 'IPv6 address literals are not allowed' } };
	if (rejection) {
		return {
			ok: false,
			problem: { rule: 'publicHost', message: `it must point to a public host, but ${url.hostname} is ${describeHostRejection(rejection)}` },
		};
	}
	const host = urlHostProblem(text, url);
	if (host) return { ok: false, problem: { rule: host.rule, message: `it ${host.message}`, fix: host.fix } };
	return { ok: true, href: url.href };
}

/** The first problem of a page URL, or undefined when it may be sent (as `normalizePublicPageUrl(text).href`). */
export function checkPublicPageUrl(text: string): PageUrlProblem | undefined {
	const checked = normalizePublicPageUrl(text);
	return checked.ok ? undefined : checked.problem;
}
