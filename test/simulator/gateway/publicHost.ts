/**
 * Which hosts are public: the gateway refuses URLs on local names (localhost, `.local`, single labels, ...) and on
 * IPv4 addresses in non-public ranges (loopback, private, CGNAT, link-local, documentation, ...). Pure functions.
 */

/** Why a host is not public, or undefined when it is public. */
export type HostRejection =
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

export const HOST_REJECTION_TEXT: Record<HostRejection, string> = {
	ipv6Literal: 'an IPv6 literal',
	localhost: 'localhost',
	localName: 'a local-only name (.localhost, .local, .internal, .localdomain, .home.arpa)',
	singleLabel: 'a single-label (intranet) name',
	unspecified: 'an unspecified/"this network" address (0.0.0.0/8)',
	loopback: 'a loopback address (127.0.0.0/8)',
	private: 'a private address (10/8, 172.16/12, 192.168/16)',
	cgnat: 'a carrier-grade NAT address (100.64.0.0/10)',
	linkLocal: 'a link-local address (169.254.0.0/16)',
	reserved: 'a reserved address',
	documentation: 'a documentation address (192.0.2/24, 198.51.100/24, 203.0.113/24)',
	benchmark: 'a benchmarking address (198.18.0.0/15)',
	multicast: 'a multicast address (224.0.0.0/4)',
	broadcast: 'the broadcast address',
};

/** [first octets as a 32-bit base, prefix length, reason] for IPv4 ranges that are not public. */
const IPV4_BLOCKS: Array<[string, number, HostRejection]> = [
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

const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.localdomain', '.home.arpa'];

function ipv4ToInt(dotted: string): number | undefined {
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
	const baseInt = ipv4ToInt(base) as number;
	const size = 2 ** (32 - prefix);
	return address >= baseInt && address < baseInt + size;
}

/**
 * Classifies the hostname of a URL already parsed by WHATWG `URL` (Node's URL). That parser normalises every
 * IPv4 spelling (decimal integer `2130706433`, hex `0x7f.1`, octal `0177.0.0.1`, short `127.1`, percent-encoded)
 * into dotted decimal, so only dotted decimal needs checking here. Returns why the host is not public.
 */
export function classifyHost(hostname: string): HostRejection | undefined {
	if (hostname.startsWith('[') || hostname.includes(':')) return 'ipv6Literal';
	const host = hostname.toLowerCase().replace(/\.+$/, '');
	if (host === '' || host === 'localhost') return 'localhost';
	if (LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return 'localName';
	const address = ipv4ToInt(host);
	if (address !== undefined) {
		for (const [base, prefix, reason] of IPV4_BLOCKS) if (inBlock(address, base, prefix)) return reason;
		return undefined;
	}
	if (!host.includes('.')) return 'singleLabel';
	return undefined;
}
