// The mechanics of nodes/shared that every node leans on, each checked alone: the page walker, the trigger's poll
// driver, the network causes, the error-body reader and the input rules this refactor gave one home.
import type { IDataObject, INode, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { apiError, readErrorBody } from '../../nodes/shared/execution/errors';
import { networkCause } from '../../nodes/shared/transport/network';
import { collectRecords, walkPages } from '../../nodes/shared/paging/pages';
import type { Page } from '../../nodes/shared/paging/pages';
import { pollWithState } from '../../nodes/shared/execution/trigger';
import type { PollingTrigger } from '../../nodes/shared/execution/trigger';
import { InputValidator } from '../../nodes/shared/input/validation';

const node: INode = { id: '1', name: 'Scraper Platform', type: 'scraperPlatform', typeVersion: 2, position: [0, 0], parameters: {} };

describe('walkPages / collectRecords: the one page walker', () => {
	/** Pages 1..3 of two records each; `reads` records which positions were asked for. */
	function threePages() {
		const reads: number[] = [];
		const read = async (at: number): Promise<Page<string>> => {
			reads.push(at);
			return { records: [`${at}a`, `${at}b`], next: at < 3 ? at + 1 : undefined };
		};
		return { read, reads };
	}

	it('reads every page once, in order, until a page names no next one', async () => {
		const { read, reads } = threePages();
		expect(await collectRecords(read, 1, Infinity)).toEqual(['1a', '1b', '2a', '2b', '3a', '3b']);
		expect(reads).toEqual([1, 2, 3]);
	});

	it('reads no page more than the limit needs, and none for a limit of 0', async () => {
		const { read, reads } = threePages();
		expect(await collectRecords(read, 1, 3)).toEqual(['1a', '1b', '2a']);
		expect(reads).toEqual([1, 2]);
		expect(await collectRecords(read, 1, 0)).toEqual([]);
		expect(reads).toEqual([1, 2]);
	});

	it('hands out each page with its position and count; a break sends nothing more', async () => {
		const { read, reads } = threePages();
		const seen: Array<[number, number]> = [];
		for await (const page of walkPages(read, 2)) {
			seen.push([page.at, page.count]);
			break;
		}
		expect(seen).toEqual([[2, 1]]);
		expect(reads).toEqual([2]);
	});

	it('walks keyset positions as well as page numbers', async () => {
		const read = async (at: { from: number }): Promise<Page<number, { from: number }>> => ({
			records: [at.from, at.from + 1],
			next: at.from < 4 ? { from: at.from + 2 } : undefined,
		});
		expect(await collectRecords(read, { from: 0 }, Infinity)).toEqual([0, 1, 2, 3, 4, 5]);
	});
});

describe('pollWithState: one poll of a trigger', () => {
	interface Fake {
		ctx: IPollFunctions;
		staticData: IDataObject;
	}
	function fakePoll(mode: 'manual' | 'trigger', staticData: IDataObject = {}): Fake {
		const ctx = { getMode: () => mode, getWorkflowStaticData: () => staticData } as unknown as IPollFunctions;
		return { ctx, staticData };
	}
	/** A trigger over numbers: it finds `found`, keeps `state` as { at }, and lets even numbers pass. */
	function trigger(found: number[], options: { backfill?: boolean; fail?: boolean } = {}): PollingTrigger<{ even: boolean }, { at: number }, number> {
		return {
			readParameters: () => ({ even: true }),
			sample: async () => [{ json: { sample: true } }],
			readState: (data) => (typeof data.at === 'number' ? { at: data.at } : undefined),
			commitState: (data, state) => {
				data.at = state.at;
			},
			start: async () => ({ state: { at: 10 }, collect: options.backfill === true }),
			collect: async (_ctx, state) => {
				if (options.fail) throw new Error('the service did not answer');
				return { found, state: { at: state.at + found.length } };
			},
			passes: (value, params) => !params.even || value % 2 === 0,
			items: (value): INodeExecutionData[] => [{ json: { value } }],
		};
	}

	it('in the editor: the sample, and nothing remembered', async () => {
		const { ctx, staticData } = fakePoll('manual');
		expect(await pollWithState(ctx, trigger([1, 2]))).toEqual([[{ json: { sample: true } }]]);
		expect(staticData).toEqual({});
	});

	it('first activation: only notes where it starts, fires nothing', async () => {
		const { ctx, staticData } = fakePoll('trigger');
		expect(await pollWithState(ctx, trigger([1, 2]))).toBeNull();
		expect(staticData).toEqual({ at: 10 });
	});

	it('a backfill collects in the first poll already', async () => {
		const { ctx, staticData } = fakePoll('trigger');
		expect(await pollWithState(ctx, trigger([2, 3, 4], { backfill: true }))).toEqual([[{ json: { value: 2 } }, { json: { value: 4 } }]]);
		expect(staticData).toEqual({ at: 13 });
	});

	it('later polls fire what passes the filters; what is filtered out stays handled; nothing found fires nothing', async () => {
		const { ctx, staticData } = fakePoll('trigger', { at: 20 });
		expect(await pollWithState(ctx, trigger([1, 3]))).toBeNull();
		expect(staticData).toEqual({ at: 22 });
		expect(await pollWithState(ctx, trigger([]))).toBeNull();
		expect(staticData).toEqual({ at: 22 });
	});

	it('a failed poll keeps the old state, so the next one tries again', async () => {
		const { ctx, staticData } = fakePoll('trigger', { at: 20 });
		await expect(pollWithState(ctx, trigger([2], { fail: true }))).rejects.toThrow('the service did not answer');
		expect(staticData).toEqual({ at: 20 });
	});
});

describe('networkCause: the one table of network causes', () => {
	it('names a known code in words and keeps the code', () => {
		expect(networkCause({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:1' })).toEqual({
			text: 'connection refused (ECONNREFUSED)',
			neverSent: true,
			timedOut: false,
		});
		expect(networkCause({ code: 'ECONNRESET' }, 'the gateway').text).toBe('connection reset by the gateway (ECONNRESET)');
		expect(networkCause({ code: 'UND_ERR_SOCKET' }).text).toBe('connection closed by the server (UND_ERR_SOCKET)');
	});

	it('finds the code wherever the client put it: cause, or the httpCode of n8n wrapping it', () => {
		expect(networkCause({ cause: { code: 'ENOTFOUND' } })).toMatchObject({ text: 'host not found (ENOTFOUND)', neverSent: true });
		expect(networkCause({ httpCode: 'EAI_AGAIN', message: 'x' })).toMatchObject({ text: 'host name lookup failed (EAI_AGAIN)', neverSent: true });
		// An HTTP status in httpCode is not a system code.
		expect(networkCause({ httpCode: '500', message: 'Internal' }).text).toBe('Internal');
	});

	it('timeouts and aborts are timed out, and may have reached the server', () => {
		for (const error of [{ code: 'ETIMEDOUT' }, { code: 'UND_ERR_HEADERS_TIMEOUT' }, { name: 'TimeoutError', code: 23 }]) {
			expect(networkCause(error)).toMatchObject({ neverSent: false, timedOut: true });
		}
	});

	it('an unknown failure reads as the first line of its message, or "network error"', () => {
		expect(networkCause(new Error('socket hang up\n  at request dump: x-api-token: secret'))).toEqual({ text: 'socket hang up', neverSent: false, timedOut: false });
		expect(networkCause({ code: 'EWEIRD' }).text).toBe('network fault');
		expect(networkCause(undefined).text).toBe('network fault');
	});
});

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
});
