import { randomBytes } from 'node:crypto';

import { Base64FieldReader, readWithBase64Fields } from '../../../x402/nodes/ScraperGateway/transport/base64Fields';

const SCREENSHOT = ['data', 'screenshot'] as const;

/** Feeds `doc` to a reader cut at `cuts` (byte offsets) and returns what it made of it. */
function read(doc: string | Buffer, cuts: number[], fields: ReadonlyArray<readonly string[]> = [SCREENSHOT], sizeHint?: number) {
	const bytes = Buffer.isBuffer(doc) ? doc : Buffer.from(doc, 'utf8');
	const reader = new Base64FieldReader(fields, sizeHint ?? bytes.length);
	let from = 0;
	for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length]) {
		reader.push(bytes.subarray(from, cut));
		from = cut;
	}
	return { text: reader.text(), decoded: reader.decoded };
}

/** What a client that parses first gets: the document, and Buffer.from(value, 'base64') of the field. */
function expected(doc: string) {
	const parsed = JSON.parse(doc) as { data: Record<string, unknown> };
	const value = parsed.data.screenshot as string;
	parsed.data.screenshot = '';
	return { document: parsed, bytes: Buffer.from(value, 'base64') };
}

function expectSameAsParsing(doc: string, cuts: number[]) {
	const { text, decoded } = read(doc, cuts);
	const want = expected(doc);
	expect(JSON.parse(text)).toEqual(want.document);
	expect(decoded.get('data.screenshot')?.equals(want.bytes)).toBe(true);
}

const image = randomBytes(5_000).toString('base64');
const answer = JSON.stringify({
	ok: true,
	service: 'scraperAPI',
	data: { html: '<p class="a">"quoted" \\ back\nslash</p>', markdown: '# Title {not: structure} [x]', screenshot: image, runtime: 1.5 },
});

describe('Base64FieldReader: a field decoded while the answer streams in', () => {
	test('gives the bytes and document JSON.parse + Buffer.from give, wherever the chunks are cut', () => {
		const size = Buffer.byteLength(answer);
		for (let cut = 0; cut <= size; cut += 7) expectSameAsParsing(answer, [cut]);
		expectSameAsParsing(answer, Array.from({ length: size }, (_, i) => i)); // one byte at a time
		for (let round = 0; round < 200; round++) {
			expectSameAsParsing(answer, Array.from({ length: 6 }, () => Math.floor(Math.random() * size)));
		}
	});

	test('escaped slashes (\\/, as PHP and others send them) and \\u escapes are undone before decoding', () => {
		const slashes = answer.replace(/\//g, '\\/');
		expect(slashes).toContain('\\/');
		for (let cut = 0; cut <= slashes.length; cut += 5) expectSameAsParsing(slashes, [cut]);
		const unicode = '{"data":{"screenshot":"QU\\u004aD\\u0052\\u0045\\u0046G"}}'; // "QUJDREFG"
		for (let cut = 0; cut <= unicode.length; cut++) expectSameAsParsing(unicode, [cut, cut + 3]);
		expect(read(unicode, []).decoded.get('data.screenshot')?.toString()).toBe('ABCDAF');
	});

	test('decodes as Buffer.from does: other characters skipped, the first "=" ends the data', () => {
		for (const value of ['QUJD', 'Q U J D', 'QU\\nJD', 'QQ==QUJD', 'QUJ=D', 'Q', 'QUI', 'é€QUJD', 'QU-_', '']) {
			const doc = `{"data":{"screenshot":"${value}"}}`;
			for (let cut = 0; cut <= Buffer.byteLength(doc); cut++) expectSameAsParsing(doc, [cut]);
		}
	});

	test('keys are compared after unescaping; the same key elsewhere or in an array is left alone', () => {
		const doc = JSON.stringify({ screenshot: 'QUJD', data: { nested: { screenshot: 'QUJD' }, list: [{ screenshot: 'QUJD' }, 'QUJD'] } });
		const { text, decoded } = read(doc, []);
		expect(text).toBe(doc);
		expect(decoded.size).toBe(0);
		const escapedKey = '{"d\\u0061ta":{"scr\\u0065enshot":"QUJD"}}';
		expect(read(escapedKey, [4, 20]).decoded.get('data.screenshot')?.toString()).toBe('ABC');
		const keyWithQuote = '{"data":{"a\\"screenshot":"QUJD","screenshot":"REVG"}}';
		expect(read(keyWithQuote, []).decoded.get('data.screenshot')?.toString()).toBe('DEF');
	});

	test('a value at the path that is not a string (null, number, object) passes through, nothing decoded', () => {
		for (const value of ['null', '12', '{"screenshot":"QUJD"}', '["QUJD"]', 'true']) {
			const doc = `{"data":{"screenshot":${value},"next":"QUJD"}}`;
			const { text, decoded } = read(doc, [10, 25]);
			expect(text).toBe(doc);
			expect(decoded.size).toBe(0);
		}
	});

	test('several fields; a repeated key keeps the last value, as JSON.parse does', () => {
		const doc = '{"a":{"b":"QUJD"},"data":{"screenshot":"REVG","screenshot":"R0hJ"}}';
		const { text, decoded } = read(doc, [13], [['a', 'b'], SCREENSHOT]);
		expect(decoded.get('a.b')?.toString()).toBe('ABC');
		expect(decoded.get('data.screenshot')?.toString()).toBe('GHI');
		expect(JSON.parse(text)).toEqual({ a: { b: '' }, data: { screenshot: '' } });
	});

	test('a body that is not JSON, or has no such field, comes back byte for byte', () => {
		for (const doc of ['<html>Bad gateway "data" {"screenshot": "QUJD"}</html>', '', 'null', '[{"data":{"screenshot":"QUJD"}}]', '{"error":"x"}']) {
			expect(read(doc, [3, 9]).text).toBe(doc);
		}
	});

	test('the buffer grows when the size is unknown or understated; the bytes are exact', () => {
		const big = randomBytes(300_000);
		const doc = JSON.stringify({ data: { screenshot: big.toString('base64') } });
		const cuts = Array.from({ length: 40 }, (_, i) => i * 10_007);
		for (const hint of [undefined, 10]) {
			const reader = new Base64FieldReader([SCREENSHOT], hint);
			let from = 0;
			for (const cut of [...cuts.slice(1), doc.length]) {
				reader.push(Buffer.from(doc.slice(from, cut)));
				from = cut;
			}
			expect(reader.decoded.get('data.screenshot')?.equals(big)).toBe(true);
		}
	});

	test('readWithBase64Fields reads an async stream of chunks to the end', async () => {
		async function* chunks() {
			const bytes = Buffer.from(answer);
			for (let i = 0; i < bytes.length; i += 1000) yield new Uint8Array(bytes.subarray(i, i + 1000));
		}
		const { text, decoded } = await readWithBase64Fields(chunks(), [SCREENSHOT]);
		const want = expected(answer);
		expect(JSON.parse(text)).toEqual(want.document);
		expect(decoded.get('data.screenshot')?.equals(want.bytes)).toBe(true);
	});
});
