import fc from 'fast-check';

import { decodePage, isText, sniffFileType } from '../../../nodes/ScraperPlatform/transport/pageBody';

/** How a fetched page's bytes are read: its declared charset, else UTF-8; a file when it is no text. */

/** Windows-1252's printable characters and their bytes, from the standard's own table (0x80-0x9f differ from Latin-1). */
const WINDOWS_1252: Array<[string, number]> = [
	...Array.from({ length: 0x60 }, (_, i): [string, number] => [String.fromCharCode(0x20 + i), 0x20 + i]),
	['€', 0x80], ['‚', 0x82], ['ƒ', 0x83], ['„', 0x84], ['…', 0x85], ['†', 0x86], ['‡', 0x87], ['ˆ', 0x88], ['‰', 0x89], ['Š', 0x8a],
	['‹', 0x8b], ['Œ', 0x8c], ['Ž', 0x8e], ['‘', 0x91], ['’', 0x92], ['“', 0x93], ['”', 0x94], ['•', 0x95], ['–', 0x96], ['—', 0x97],
	['˜', 0x98], ['™', 0x99], ['š', 0x9a], ['›', 0x9b], ['œ', 0x9c], ['ž', 0x9e], ['Ÿ', 0x9f],
	...Array.from({ length: 0x60 }, (_, i): [string, number] => [String.fromCharCode(0xa0 + i), 0xa0 + i]),
];

describe('decodePage', () => {
	it('any windows-1252 text declared as windows-1252 or iso-8859-1 (which the Encoding Standard reads as it) comes back whole', () => {
		fc.assert(
			fc.property(fc.array(fc.constantFrom(...WINDOWS_1252), { maxLength: 200 }), fc.constantFrom('windows-1252', 'iso-8859-1', 'latin1', 'cp1252'), (chars, label) => {
				const bytes = Uint8Array.from(chars.map(([, byte]) => byte));
				const text = chars.map(([char]) => char).join('');
				expect(decodePage(bytes, `text/html; charset=${label}`).text).toBe(text);
			}),
		);
	});

	it('undeclared text is UTF-8, whatever it holds', () => {
		fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), (text) => expect(decodePage(Buffer.from(`<p>${text}</p>`, 'utf8')).text).toBe(`<p>${text}</p>`)));
	});

	it('the Content-Type outranks <meta>, a byte-order mark outranks both, an unknown label falls back to the next', () => {
		const latin = Buffer.concat([Buffer.from('<meta charset="shift_jis">'), Buffer.from('é', 'latin1')]);
		expect(decodePage(latin, 'text/html; charset="ISO-8859-1"')).toEqual({ text: '<meta charset="shift_jis">é', charset: 'windows-1252' });
		const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('é', 'utf8')]);
		expect(decodePage(bom, 'text/html; charset=iso-8859-1').text).toBe('é');
		const unknown = Buffer.concat([Buffer.from('<meta charset=iso-8859-1>'), Buffer.from('é', 'latin1')]);
		expect(decodePage(unknown, 'text/html; charset=x-made-up').text).toBe('<meta charset=iso-8859-1>é');
	});

	it('a declaration after the first 1024 bytes is not looked for, as browsers do not', () => {
		const late = Buffer.concat([Buffer.from(`<p>${'x'.repeat(1100)}</p><meta charset="iso-8859-1">`), Buffer.from('é', 'utf8')]);
		expect(decodePage(late).charset).toBe('utf-8');
	});
});

describe('isText and sniffFileType', () => {
	it.each([
		['text/html; charset=utf-8', '<p>x</p>', true],
		['application/json', '{"a":1}', true],
		['application/rss+xml', '<rss/>', true],
		['image/svg+xml', '<svg/>', true],
		['application/pdf', '%PDF-1.4', false],
		['image/png', 'xx', false],
		[undefined, 'plain words', true],
		['application/octet-stream', 'plain words', true],
	])('%s holding %s: text %s', (contentType, body, text) => {
		expect(isText(Buffer.from(body, 'latin1'), contentType)).toBe(text);
	});

	it('a file signature wins over a text type; a NUL byte without a type is no text', () => {
		expect(isText(Buffer.from('%PDF-1.7\n', 'latin1'), 'text/html')).toBe(false);
		expect(isText(Buffer.from([0x41, 0x00, 0x42]))).toBe(false);
		expect(sniffFileType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toEqual({ mimeType: 'image/jpeg', extension: 'jpg' });
		expect(sniffFileType(Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'))).toEqual({ mimeType: 'image/webp', extension: 'webp' });
	});
});
