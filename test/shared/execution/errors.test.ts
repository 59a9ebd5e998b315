// The error-body reader of nodes/shared/execution, checked alone.
import { apiError, readErrorBody } from '../../../nodes/shared/execution/errors';
import { PLATFORM_NODE as node } from '../fixtures';

describe('readErrorBody: error bodies of every known shape', () => {
	it('reads message, error (also nested) and the issues listed under issues or errors', () => {
		expect(readErrorBody({ message: 'Bad', errors: [{ field: 'url', message: 'is required' }, 'plain text', { field: 'page', rule: 'min 1' }] })).toEqual({
			message: 'Bad',
			error: undefined,
			issues: [{ field: 'url', message: 'is required' }, { message: 'plain text' }, { field: 'page', message: 'min 1' }],
		});
		expect(readErrorBody({ error: { message: 'upstream failed' }, issues: [{ field: 'q' }] })).toEqual({
			message: undefined,
			error: 'upstream failed',
			issues: [{ field: 'q', message: undefined }],
		});
	});

	it('anything else reads as an empty body', () => {
		for (const body of [undefined, null, 'text', 42, [1, 2], { message: '' }]) {
			const read = readErrorBody(body);
			expect([read.message, read.error, read.issues]).toEqual([undefined, undefined, []]);
		}
	});

	it("a 422's issues name their fields in the node's message", () => {
		const failure = { itemIndex: 0, service: 'Scraper Platform', credentialName: 'Scraper Platform API' };
		expect(apiError(node, { ...failure, status: 422, body: { issues: [{ field: 'url', message: 'must be a URL' }, { field: 'prompt' }] } }).message).toBe(
			'Scraper Platform rejected the input: url: must be a URL; prompt: invalid',
		);
		expect(apiError(node, { ...failure, status: 400, body: { message: '' } }).message).toBe('Scraper Platform rejected the request: bad request');
	});
});

describe("a 400's and a 422's reasons, whatever their shape", () => {
	const failure = { itemIndex: 0, service: 'Scraper Platform', credentialName: 'Scraper Platform API' };
	it.each([
		['a text', { message: 'url must be a URL' }, 'url must be a URL'],
		['a list of texts', { message: ['url must be a URL', 'timeout must not be greater than 300'], error: 'Bad Request', statusCode: 400 }, 'url must be a URL; timeout must not be greater than 300'],
		['an object of lists', { message: { url: ['must be a URL', 'is required'], timeout: ['too large'] } }, 'url: must be a URL; is required; timeout: too large'],
		['errors as an object of lists', { message: 'The given data was invalid.', errors: { url: ['must be a URL'], page: ['must be at least 1'] } }, 'url: must be a URL; page: must be at least 1'],
		['a nested error message', { error: { message: 'upstream refused the query' } }, 'upstream refused the query'],
		['nothing but the status phrase', { error: 'Bad Request', statusCode: 400 }, 'bad request'],
	])('%s: quoted in the 400 message', (_name, body, said) => {
		expect(apiError(node, { ...failure, status: 400, body }).message).toBe(`Scraper Platform rejected the request: ${said}`);
	});

	it('a 422 whose message is a list quotes the list, not "validation failed"', () => {
		expect(apiError(node, { ...failure, status: 422, body: { message: ['cookies.0.name must be a non-empty string'] } }).message).toBe(
			'Scraper Platform rejected the input: cookies.0.name must be a non-empty string',
		);
	});
});
