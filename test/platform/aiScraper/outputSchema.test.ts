import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { schemaBreaks } from '../../../nodes/ScraperPlatform/actions/aiScraper/schemaCheck';
import { ROUTES, usePlatform } from '../helpers';

/**
 * Create and Run's Output Schema, through n8n's engine: checked before sending, told to the agent, and held against
 * every extracted record. Records are generated; which of them match is decided here by a hand-written oracle of the
 * one schema used, not by the checker under test.
 */

const ctx = usePlatform();
afterEach(() => (ctx.sim.server.afterHandle = undefined));

const SCHEMA = {
	type: 'object',
	properties: { name: { type: 'string', minLength: 1 }, price: { type: 'number', minimum: 0 }, inStock: { type: 'boolean' } },
	required: ['name', 'price'],
};

/** Whether a record matches SCHEMA, written out by hand. */
function matches(record: IDataObject): boolean {
	const { name, price, inStock } = record;
	return typeof name === 'string' && [...name].length >= 1 && typeof price === 'number' && price >= 0 && (inStock === undefined || typeof inStock === 'boolean');
}

const records = fc.array(
	fc.record(
		{
			name: fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.constant(null)),
			price: fc.oneof(fc.double({ min: -100, max: 100, noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)), fc.string({ maxLength: 4 })),
			inStock: fc.oneof(fc.boolean(), fc.constant('yes'), fc.constant(null)),
		},
		{ requiredKeys: [] },
	),
	{ maxLength: 8 },
);

/** The create's answer with `data` the generated records, as a listing agent's example output. */
function answerWith(list: IDataObject[]): void {
	ctx.sim.server.afterHandle = (request, reply) => {
		const body = reply.json as { data?: IDataObject } | undefined;
		if (request.route !== ROUTES.createAndRun || !body?.data) return reply;
		return { ...reply, json: { ...body, data: { ...body.data, data: { items: list } } } };
	};
}

const create = (extra: IDataObject) =>
	ctx.run({ resource: 'aiScraper', operation: 'createAndRun', url: 'https://shop.example.com/', prompt: 'Products', agent: 'listing', additionalFields: { outputSchema: JSON.stringify(SCHEMA) }, ...extra });

describe('Output Schema', () => {
	it('is told to the agent after the instruction, under both names', async () => {
		const result = await create({});
		expect(result.error).toBeUndefined();
		const body = ctx.sim.server.log.last(ROUTES.createAndRun)?.body as IDataObject;
		expect(body.prompt).toBe(`Products\n\nReturn the data as JSON that matches this JSON Schema: ${JSON.stringify(SCHEMA)}`);
		expect(body.message).toBe(body.prompt);
	});

	it('Split Into Items, Drop and Flag: exactly the generated records that match come out, each flagged as matching', async () => {
		await fc.assert(
			fc.asyncProperty(records, async (list) => {
				answerWith(list as IDataObject[]);
				const result = await create({ options: { split: true, notMatching: 'drop' } });
				expect(result.error).toBeUndefined();
				const kept = (list as IDataObject[]).filter(matches);
				if (kept.length === 0) {
					expect(result.items).toHaveLength(1);
					expect(result.items[0].json).toMatchObject({ matchingRecords: 0, records: list.length });
					expect((result.items[0].json.schemaErrors as string[]).length).toBeGreaterThanOrEqual(list.length);
					return;
				}
				expect(result.items.map(({ json }) => ({ name: json.name, price: json.price }))).toEqual(kept.map(({ name, price }) => ({ name, price })));
				expect(result.items.every(({ json }) => json.schemaMatches === true && (json.schemaErrors as string[]).length === 0)).toBe(true);
			}),
			{ numRuns: 25 },
		);
	});

	it('Keep and Flag: every record, each flagged by the oracle, with the path and rule it breaks', async () => {
		await fc.assert(
			fc.asyncProperty(records.filter((list) => list.length > 0), async (list) => {
				answerWith(list as IDataObject[]);
				const result = await create({ options: { split: true } });
				expect(result.items).toHaveLength(list.length);
				expect(result.items.map(({ json }) => json.schemaMatches)).toEqual((list as IDataObject[]).map(matches));
				for (const { json } of result.items) for (const broken of json.schemaErrors as string[]) expect(broken).toMatch(/^\$(\.\w+)? (must|is) /);
			}),
			{ numRuns: 25 },
		);
	});

	it('one item (no split): matchingRecords, flat schemaErrors naming the record, and Drop keeps only matching records in data', async () => {
		answerWith([{ name: 'Boot', price: 10 }, { name: '', price: -1 }, { price: 'cheap' }]);
		const kept = await create({ simplify: false });
		expect(kept.items).toHaveLength(1);
		expect(kept.items[0].json).toMatchObject({ matchingRecords: 1 });
		expect(kept.items[0].json.schemaErrors).toEqual([
			'record 2: $.name must have at least 1 character, has 0',
			'record 2: $.price must be at least 0, got -1',
			'record 3: $.name is required',
			'record 3: $.price must be number, got the text "cheap"',
		]);
		expect((kept.items[0].json.data as IDataObject).items).toHaveLength(3);
		const dropped = await create({ simplify: false, options: { notMatching: 'drop' } });
		expect((dropped.items[0].json.data as IDataObject).items).toEqual([{ name: 'Boot', price: 10 }]);
	});

	it.each([
		['not JSON', '{"type": "object",', /^Invalid 'Output Schema': it is not valid JSON/],
		['an object type without properties', '{"type": "object"}', /^Invalid 'Output Schema': outputSchema has type "object" but no "properties"/],
		['a type no schema has', '{"type": "money"}', /^Invalid 'Output Schema': outputSchema\.type/],
	])('%s is refused by the job board\'s schema checker, naming the field and the path; nothing sent', async (_name, schema, message) => {
		ctx.sim.server.log.clear();
		const result = await create({ additionalFields: { outputSchema: schema } });
		expect(result.error?.message).toMatch(message);
		expect(ctx.sim.server.log.count()).toBe(0);
	});
});

describe('schemaBreaks', () => {
	it('reads nested objects and lists, enums, patterns and closed objects, with JSON paths', () => {
		const schema = {
			type: 'object',
			additionalProperties: false,
			properties: { tags: { type: 'array', maxItems: 2, items: { type: 'string', enum: ['a', 'b'] } }, sku: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' }, 'unit price': { type: ['number', 'null'] } },
		};
		expect(schemaBreaks({ tags: ['a', 'c', 'b'], sku: 'abc-1', 'unit price': null, extra: 1 }, schema)).toEqual([
			'$.extra is not a field of the schema',
			'$.tags must have at most 2 entries, has 3',
			'$.tags[1] must be one of ["a","b"]',
			'$.sku must match the pattern ^[A-Z]{3}-\\d+$',
		]);
		expect(schemaBreaks({ tags: ['a'], sku: 'ABC-12', 'unit price': 3.5 }, schema)).toEqual([]);
		expect(schemaBreaks({ 'unit price': '3' }, schema)).toEqual(['$["unit price"] must be number or null, got the text "3"']);
	});
});
