// Generated http(s) URLs and broken variants of them, shared by the URL normalisation tests of the gateway and of
// the platform and marketplace. The fields differ in what they accept, so the differences are options, not copies.
import fc from 'fast-check';

/** How the fields under test differ in the URLs they take. */
export interface UrlOptions {
	/**
	 * 'public': domain names without a local-network label and no user info (the public gateway, whose own filter
	 * drops the remaining non-public hosts); 'any': also IPv4, IPv6, localhost and user info (the interface's isUrl).
	 */
	hosts: 'public' | 'any';
	/** Whether text may hold a comma: not where the field is a URL list, which splits at commas. */
	comma: boolean;
}

// Labels read as a local-network TLD, which the public gateway refuses.
export const LOCAL_TLDS = ['localhost', 'local', 'internal', 'localdomain', 'lan', 'invalid'];

// A lower-case ASCII label of 1 to 10 characters, never punycode ("xn--") nor one of `exclude`.
export const asciiLabel = (exclude: readonly string[]) =>
	fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?$/).filter((l) => !l.startsWith('xn--') && !exclude.includes(l));
// A Unicode label from a fixed set of scripts (Latin with diacritics, CJK, Greek, Cyrillic, Arabic).
export const unicodeLabel = fc.constantFrom('bücher', 'münchen', '例え', 'παράδειγμα', 'пример', 'café', 'straße', 'ñandú', 'テスト', 'الاختبار');
// A label: ASCII in random case three times in four, else Unicode.
export const label = (exclude: readonly string[]) =>
	fc.oneof(
		{ weight: 3, arbitrary: fc.tuple(asciiLabel(exclude), fc.boolean()).map(([l, upper]) => (upper ? l.toUpperCase() : l)) },
		{ weight: 1, arbitrary: unicodeLabel },
	);
// A top-level domain, one or two labels, ASCII or IDN.
export const tld = fc.constantFrom('com', 'org', 'net', 'io', 'de', 'example', 'co.uk', 'テスト', 'рф');
// A domain name: one to three labels (none of `exclude`) and a TLD.
export const domainName = (exclude: readonly string[]) =>
	fc.tuple(fc.array(label(exclude), { minLength: 1, maxLength: 3 }), tld).map(([labels, top]) => [...labels, top].join('.'));

const byte = fc.integer({ min: 0, max: 255 });
// A host: for 'public' a domain name; for 'any' a domain name six times in eight, else IPv4, IPv6 or localhost.
export const host = (hosts: UrlOptions['hosts']) =>
	hosts === 'public'
		? domainName(LOCAL_TLDS)
		: fc.oneof(
				{ weight: 6, arbitrary: domainName([]) },
				{ weight: 1, arbitrary: fc.tuple(byte, byte, byte, byte).map((parts) => parts.join('.')) },
				{ weight: 1, arbitrary: fc.constantFrom('[2001:DB8::1]', '[2606:4700:4700:0:0:0:0:1111]', 'localhost', 'LOCALHOST') },
			);
// User info ("user@" or "user:password@") one time in five, else "".
export const userinfo = fc.option(
	fc.tuple(fc.stringMatching(/^[A-Za-z0-9._~-]{1,8}$/), fc.option(fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+;=:-]{0,8}$/), { nil: undefined })).map(
		([user, password]) => `${user}${password === undefined ? '' : `:${password}`}@`,
	),
	{ nil: '', freq: 4 },
);

// One piece of URL text: anything but ASCII controls, the backslash and a bare "%": spaces, quotes, @, :, Unicode
// (graphemes, so never half a surrogate pair) and well-formed %XX escapes; a comma only if `comma`.
export const textChar = ({ comma }: Pick<UrlOptions, 'comma'>) =>
	fc.oneof(
		fc.constantFrom(...'abcXYZ0189-._~!$&\'()*+,;=:@ "<>`{}|^[]'.split('').filter((char) => comma || char !== ',')),
		fc.constantFrom('%20', '%25', '%2F', '%41', '%7e', '%C3%BC', '%E2%82%AC'),
		fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }).map((char) => char.replace(/%/g, '%25')),
	);
// Whether a character is an ASCII control (C0 or DEL) or the backslash: what the URL rule refuses.
export const isControlOrBackslash = (char: string) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f || char === '\\';
// URL text of up to `maxLength` pieces, with no control, backslash or (unless `comma`) comma, also from graphemes.
export const text = (maxLength: number, options: Pick<UrlOptions, 'comma'>) =>
	fc.string({ unit: textChar(options), maxLength }).filter((s) => ![...s].some(isControlOrBackslash) && (options.comma || !s.includes(',')));
// A path of up to four "/"-led segments of text without "/", "?" or "#"; "" for none.
export const path = (options: Pick<UrlOptions, 'comma'>) =>
	fc.array(text(8, options).map((s) => s.replace(/[/?#]/g, '')), { maxLength: 4 }).map((segments) => segments.map((s) => `/${s}`).join(''));
// Whitespace a user may leave around a URL, often none.
export const outerSpace = fc.constantFrom('', ' ', '  ', '\t', '\n', ' \r\n');

/** The URL as WHATWG parses the trimmed text, or undefined when it refuses it (e.g. the bidi rule across mixed-script labels). */
export function parseTrimmed(url: string): URL | undefined {
	try {
		return new URL(url.trim());
	} catch {
		return undefined;
	}
}

/**
 * An http(s) URL with random case, port, path, query and fragment (and user info for 'any'), maybe wrapped in outer
 * whitespace. Not filtered: WHATWG may refuse it, and each file drops its simulator's markers.
 */
export const httpUrl = (options: UrlOptions) =>
	fc
		.record({
			scheme: fc.constantFrom('https', 'http', 'HTTPS', 'Http'),
			// A single constant draws nothing, so 'public' URLs come out as they did without this field.
			userinfo: options.hosts === 'any' ? userinfo : fc.constant(''),
			host: host(options.hosts),
			port: fc.constantFrom('', '', ':8443', ':80', ':443'),
			path: path(options),
			query: fc.option(text(12, options), { nil: undefined }),
			fragment: fc.option(text(6, options), { nil: undefined }),
			before: outerSpace,
			after: outerSpace,
		})
		.map((u) => `${u.before}${u.scheme}://${u.userinfo}${u.host}${u.port}${u.path}${u.query === undefined ? '' : `?${u.query}`}${u.fragment === undefined ? '' : `#${u.fragment}`}${u.after}`);

// How the URL rule names the control characters it has a name for; others are named by code point only.
export const CONTROL_NAMES: Record<number, string> = { 0: 'NUL, U+0000', 9: 'tab, U+0009', 10: 'line feed, U+000A', 13: 'carriage return, U+000D', 127: 'DEL, U+007F' };
const BAD_INSERTS = ['\t', '\r', '\n', '\u0000', '\u007f', '\\', '%g', '%Z', '%%', '%-'];
// A control character, a backslash or a broken %-escape; without line feed when `newline` is false (where a line
// break separates list entries).
export const badInsert = ({ newline }: { newline: boolean }) =>
	fc.oneof(
		fc.constantFrom(...BAD_INSERTS.filter((insert) => newline || insert !== '\n')),
		fc.integer({ min: 0, max: 31 }).filter((code) => newline || code !== 10).map((code) => String.fromCharCode(code)),
	);

/** A URL from `urls`, trimmed, with a bad insert injected strictly inside it. */
export const injectedInto = (urls: fc.Arbitrary<string>, options: { newline: boolean }) =>
	fc.tuple(urls, fc.nat(), badInsert(options)).map(([url, at, insert]) => {
		const trimmed = url.trim();
		const index = 1 + (at % (trimmed.length - 1));
		return `${trimmed.slice(0, index)}${insert}${trimmed.slice(index)}`;
	});

/**
 * The rule an error must state after naming the URL: the first control character or backslash, else the first "%"
 * without two hex digits (an escape cut in two by the injection can come first), at its 1-based position in the
 * trimmed text.
 */
export function brokenRule(url: string): string {
	const chars = url.trim();
	for (let i = 0; i < chars.length; i++) {
		const code = chars.charCodeAt(i);
		if (chars[i] === '\\') return `contains a backslash (\\) at character ${i + 1}`;
		if (code < 0x20 || code === 0x7f) {
			return `contains a control character (${CONTROL_NAMES[code] ?? `U+${code.toString(16).toUpperCase().padStart(4, '0')}`}) at character ${i + 1}`;
		}
	}
	const escape = /%(?![0-9a-f]{2})/i.exec(chars);
	return `has a "%" that does not start a %XX escape at character ${(escape?.index ?? -2) + 1}`;
}
