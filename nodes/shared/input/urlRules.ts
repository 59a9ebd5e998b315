/**
 * The URL spelling rules every URL field and the credentials' Base URL follow: spellings URL parsers disagree on
 * are refused, so the host the node checks is the host every parser (and the service) reads.
 */

/** A URL spelling the node refuses, with the words for the user (a page URL adds its own rules: `PageUrlProblem`). */
interface SpellingProblem {
	rule: 'controlCharacter' | 'backslash' | 'percent' | 'authority' | 'userinfo' | 'host';
	message: string;
	fix: string;
}

/**
 * URL rules on the (trimmed) text, before it is parsed; shared with the x402 gateway's page URL. Returns the
 * broken rule (`message` reads after the quoted URL), or undefined.
 * - ASCII control characters (C0, including tab, CR, LF and NUL, and DEL) anywhere: WHATWG silently drops
 *   tabs and line breaks and other parsers keep or reject them, so the text has no single reading.
 * - A backslash anywhere: RFC 3986 never allows a raw "\"; WHATWG reads it as "/" in an http(s) path or
 *   authority ("http://a.com\@b.com" is a.com to WHATWG, b.com to others) but keeps it in a query, so even
 *   in the path it changes the address. "%5C" is the one unambiguous spelling.
 * - A "%" not followed by two hex digits: WHATWG keeps it, RFC 3986 parsers reject it and decoders throw on it
 *   (after the page was paid for, at the gateway).
 * - An http(s) scheme not followed by "//" and a host ("http:a.com", "http:///a.com"): WHATWG guesses a host.
 * - More than one "@" before the host: parsers split the user name from the host at different "@"s.
 */
function urlTextProblem(text: string): SpellingProblem | undefined {
	const control = controlCharacterAt(text);
	if (control >= 0) {
		return {
			rule: 'controlCharacter',
			message: `contains a control character (${controlName(text.charCodeAt(control))}) at character ${control + 1}`,
			fix: 'Remove tabs, line breaks and other invisible control characters from the URL; if one belongs to the path or query, percent-encode it (e.g. %0A).',
		};
	}
	const backslash = text.indexOf('\\');
	if (backslash >= 0) {
		return {
			rule: 'backslash',
			message: `contains a backslash (\\) at character ${backslash + 1}`,
			fix: 'Use "/" between path segments, or write a backslash that belongs to the path or query as %5C.',
		};
	}
	const escape = /%(?![0-9a-f]{2})/i.exec(text);
	if (escape) {
		return {
			rule: 'percent',
			message: `has a "%" that does not start a %XX escape at character ${escape.index + 1}`,
			fix: 'Write a literal "%" as %25; elsewhere "%" must be followed by two hexadecimal digits, as in %20.',
		};
	}
	const scheme = /^(https?):/i.exec(text);
	if (scheme && !/^https?:\/\/[^/]/i.test(text)) {
		return {
			rule: 'authority',
			message: `does not have "//" and a host right after "${scheme[1]}:"`,
			fix: `Write the address as ${scheme[1].toLowerCase()}://host/path, with exactly two slashes before the host.`,
		};
	}
	const authority = typedAuthority(text);
	if (authority !== undefined && authority.indexOf('@') !== authority.lastIndexOf('@')) {
		return {
			rule: 'userinfo',
			message: 'has more than one "@" before the host',
			fix: 'Write an "@" that belongs to a user name or password as %40, so that the host is what follows the only "@".',
		};
	}
	return undefined;
}

/** How an http(s) URL field's text reads: the URL, or the first rule it breaks. */
export type HttpUrlReading =
	| { ok: true; url: URL }
	| { ok: false; broken: 'spelling'; problem: SpellingProblem }
	| { ok: false; broken: 'parse' }
	| { ok: false; broken: 'scheme'; protocol: string };

/**
 * The one reading every URL field shares (node parameters, credentials' Base URLs, the gateway's page URL and Base
 * URL): the spelling rules on the text, then WHATWG's parse, then http or https. Each field adds its own rules after.
 */
export function readHttpUrl(text: string): HttpUrlReading {
	const spelling = urlTextProblem(text);
	if (spelling) return { ok: false, broken: 'spelling', problem: spelling };
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return { ok: false, broken: 'parse' };
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, broken: 'scheme', protocol: url.protocol };
	return { ok: true, url };
}

/**
 * URL rules on the host, after the text parsed as `url`: the host WHATWG reads must be the host as typed, up to
 * letter case and IDN (a Unicode label becomes its punycode "xn--" label, which is what is sent). Refused:
 * percent-encoded hosts ("%61.com", "a.com%2e"), IPv4 spellings WHATWG reads as another address ("010.0.0.1"
 * is 8.0.0.1, "127.1", "0x7f.1", "2130706433") and Unicode look-alikes that map onto ASCII letters or dots
 * ("ｅｘａｍｐｌｅ.com", "a。b.com", soft hyphens). IPv6 literals are only written shorter by WHATWG: accepted.
 */
export function urlHostProblem(text: string, url: URL): SpellingProblem | undefined {
	const authority = typedAuthority(text);
	if (authority === undefined) return undefined;
	const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
	if (hostAndPort.startsWith('[')) return undefined;
	const typed = hostAndPort.replace(/:\d*$/, '');
	const typedLabels = typed.split('.');
	const labels = url.hostname.split('.');
	const same =
		!typed.includes('%') &&
		typedLabels.length === labels.length &&
		typedLabels.every((label, i) => (/^[\x20-\x7e]*$/.test(label) ? label.toLowerCase() === labels[i] : labels[i].startsWith('xn--')));
	if (same) return undefined;
	return {
		rule: 'host',
		message: `has the host "${typed}", which URL parsers read as "${url.hostname}"`,
		fix: `Type the host as it is meant, without percent-encoding, e.g. "${url.hostname}" if that is the one; numeric IPv4 addresses as four decimal numbers such as 93.184.216.34.`,
	};
}

/** The URL for an error message: control characters escaped, a password hidden (user:…@), at most `max` characters. */
export function shownUrl(text: string, max = 80): string {
	let out = '';
	for (const char of text) {
		const code = char.charCodeAt(0);
		out += code < 0x20 || code === 0x7f ? `\\u${code.toString(16).padStart(4, '0')}` : char;
	}
	out = out.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#:@]*):[^/?#]*@/i, '$1:…@');
	return out.length > max ? `${out.slice(0, max)}…` : out;
}

/** Scheme "://" then up to the first "/", "?" or "#": the authority as a plain reader sees it. */
function typedAuthority(text: string): string | undefined {
	return /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(text)?.[1];
}

function controlName(code: number): string {
	const names: Record<number, string> = { 0x00: 'NUL', 0x09: 'tab', 0x0a: 'line feed', 0x0d: 'carriage return', 0x7f: 'DEL' };
	const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
	return names[code] ? `${names[code]}, ${hex}` : hex;
}

/** Where the first C0 control character or DEL stands (-1: none): never part of a URL or a header value we send. */
export function controlCharacterAt(text: string): number {
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code < 0x20 || code === 0x7f) return i;
	}
	return -1;
}
