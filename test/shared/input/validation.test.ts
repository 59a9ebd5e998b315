// The input rules of nodes/shared/input given one home, checked alone.
import { InputValidator } from '../../../nodes/shared/input/validation';
import { PLATFORM_NODE as node } from '../fixtures';

describe('input rules given one home', () => {
	const v = new InputValidator(node, 3);

	it('a country code: two letters, any case; anything else is refused, naming the field', () => {
		expect(v.countryCode('De', 'Proxy Country')).toBe('De');
		expect(v.countryCode('', 'Proxy Country')).toBeUndefined();
		for (const bad of ['usa', 'u1', 'd']) {
			expect(() => v.countryCode(bad, 'Country')).toThrow(`Invalid 'Country': "${bad}" is not a two-letter country code (^[a-zA-Z]{2}$)`);
		}
	});

	it('seconds with fractions become whole milliseconds; out of range is refused, never clamped', () => {
		const range = { min: 1, max: 3600 };
		expect(v.optionalSecondsAsMs(2.5, 'Response Deadline (Seconds)', range)).toBe(2500);
		expect(v.optionalSecondsAsMs('90', 'Response Deadline (Seconds)', range)).toBe(90_000);
		expect(v.optionalSecondsAsMs('', 'Response Deadline (Seconds)', range)).toBeUndefined();
		expect(() => v.optionalSecondsAsMs(0.5, 'Response Deadline (Seconds)', range)).toThrow("Invalid 'Response Deadline (Seconds)': 0.5 is out of range");
		expect(() => v.optionalSecondsAsMs(3601, 'Response Deadline (Seconds)', range)).toThrow("Invalid 'Response Deadline (Seconds)': 3601 is out of range");
		expect(() => v.optionalSecondsAsMs('soon', 'Response Deadline (Seconds)', range)).toThrow("Invalid 'Response Deadline (Seconds)': it must be a number");
	});

	it("a URL list: lines, commas, a list, or a JSON list written as text (as the service's own node takes it)", () => {
		const want = ['https://a.example.com/', 'https://b.example.com/x'];
		for (const written of ['https://a.example.com/\nhttps://b.example.com/x', 'https://a.example.com/, https://b.example.com/x', want, JSON.stringify(want), ` [ "https://a.example.com/",\n "https://b.example.com/x" ] `]) {
			expect(v.httpUrlList(written, 'URLs', { required: true })).toEqual(want);
		}
		expect(() => v.httpUrlList('["https://a.example.com/", ', 'URLs', { required: true })).toThrow(/^Invalid 'URLs': it starts as a JSON list but is not valid JSON \(/);
		expect(() => v.httpUrlList('[]', 'URLs', { required: true })).toThrow("Invalid 'URLs': at least one URL is required");
		expect(() => v.httpUrlList('["https://a.example.com/", "ftp://b.example.com/"]', 'URLs', { required: true })).toThrow(/^Invalid 'URLs \(entry 2\)'/);
	});
});
