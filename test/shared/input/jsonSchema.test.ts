import fc from 'fast-check';

import { MAX_SCHEMA_DEPTH, firstSchemaProblem } from '../../../nodes/shared/input/jsonSchema';
import { validateJobBoard } from '../../simulator/marketplace/validation';
import { ROUTES, useMarketplace } from '../../marketplace/helpers';

/*
 * The Job Board's JSON Schema, checked by the node before sending. Schemas are generated: valid ones must reach the
 * simulator (the faithful service) unchanged and be accepted; a valid one broken at a random depth must be refused
 * by the node, naming the field, the JSON path and the rule, with nothing sent, and the simulator must refuse it too
 * (so the node is never stricter than the service). This file keeps its own walker and path format on purpose:
 * it must not reuse the checker it tests.
 */

type Schema = Record<string, unknown>;

const A = 'https://jobs.example.com/search?q=engineer';
const scrape = { resource: 'jobBoard', operation: 'scrape' };
/** The operation's display name for the parameter `schema`. */
const FIELD = 'Schema';
const TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'];
/** The service accepts sub-schemas down to 16 levels below the top (test/simulator/marketplace/validation.ts). */
const LIMIT = 16;

// Keys include ones a dotted path cannot show as `.key`.
const KEYS = ['title', 'company', 'salary', 'location', 'tags', 'jobs', '_id', 'job title', 'sal.ary', 'x-y', '0'];

/** The expected path step for a property key, written independently of the node's. */
function keyStep(key: string): string {
	return /^[A-Za-z_]\w*$/.test(key) ? `.${key}` : `["${key}"]`;
}

// ---------------------------------------------------------------------------------------------------------------
// Arbitraries

// No braces: a schema also travels inside an n8n expression `{{ … }}`.
const text = fc.string({ unit: fc.constantFrom(...'abcdefghij XYZ-./#'), maxLength: 12 });
const key = fc.constantFrom(...KEYS);
const scalarType = fc.constantFrom('string', 'number', 'integer', 'boolean', 'null');
const enumValue = fc.oneof(text, fc.integer({ min: -1000, max: 1000 }), fc.boolean(), fc.constant(null));

/** Keywords the service passes through untouched: the node must neither refuse nor change them. */
const annotationModel = {
	description: text,
	title: text,
	$ref: fc.constantFrom('#/definitions/job', '#/$defs/salary'),
	required: fc.uniqueArray(key, { maxLength: 3 }),
	format: fc.constantFrom('date', 'date-time', 'uri', 'email'),
	minimum: fc.integer({ min: 0, max: 10 }),
	maximum: fc.integer({ min: 10, max: 100 }),
	default: enumValue,
	additionalProperties: fc.boolean(),
};
const annotations = fc.record(annotationModel, { requiredKeys: [], noNullPrototype: true });
// `enum` and `const` replace a value, so they are left out at the top (the records must be a list or an object).
const nestedAnnotations = fc.record(
	{ ...annotationModel, enum: fc.array(enumValue, { minLength: 1, maxLength: 4 }), const: enumValue },
	{ requiredKeys: [], noNullPrototype: true },
);

/** Valid schemas `maxDepth` levels deep at most: typed leaves, objects, arrays, and untyped schemas. */
function validSchema(maxDepth: number): fc.Arbitrary<Schema> {
	return fc.letrec<{ node: Schema; leaf: Schema; object: Schema; array: Schema; untyped: Schema }>((tie) => ({
		// At the depth limit `oneof` takes its first choice, a leaf, so every schema ends.
		node: fc.oneof({ maxDepth, depthIdentifier: 'schema' }, tie('leaf'), tie('object'), tie('array'), tie('untyped')),
		leaf: fc
			.tuple(fc.oneof(scalarType, fc.uniqueArray(scalarType, { minLength: 1, maxLength: 3 })), nestedAnnotations)
			.map(([type, more]) => ({ ...more, type })),
		object: fc
			.tuple(fc.constantFrom<string | string[]>('object', ['object', 'null']), properties(tie('node')), nestedAnnotations)
			.map(([type, props, more]) => ({ ...more, type, properties: props })),
		array: fc
			.tuple(fc.constantFrom<string | string[]>('array', ['array', 'null']), tie('node'), nestedAnnotations)
			.map(([type, items, more]) => ({ ...more, type, items })),
		// No `type`: `properties` or `items` alone say what it is; with neither, anything goes.
		untyped: fc.oneof(
			nestedAnnotations,
			fc.tuple(properties(tie('node')), annotations).map(([props, more]): Schema => ({ ...more, properties: props })),
			fc.tuple(tie('node'), annotations).map(([items, more]): Schema => ({ ...more, items })),
		),
	})).node;
}

function properties(child: fc.Arbitrary<Schema>, minKeys = 0): fc.Arbitrary<Record<string, Schema>> {
	return fc.dictionary(key, child, { minKeys, maxKeys: 3, noNullPrototype: true });
}

/** A valid top level: the service wants an object or an array of records; it always has a sub-schema. */
function validRoot(maxDepth: number): fc.Arbitrary<Schema> {
	const child = validSchema(maxDepth);
	return fc.oneof(
		fc
			.tuple(fc.constantFrom<string | string[]>('object', ['object', 'null']), properties(child, 1), annotations)
			.map(([type, props, more]) => ({ ...more, type, properties: props })),
		fc
			.tuple(fc.constantFrom<string | string[]>('array', ['array', 'null'], ['object', 'array']), child, properties(child, 1), annotations)
			.map(([type, items, props, more]) => ({ ...more, type, items, ...(type.includes('object') ? { properties: props } : {}) })),
	);
}

// ---------------------------------------------------------------------------------------------------------------
// Mutations: break a valid schema at one of its sub-schemas

type Step = { items: true } | { key: string };

/** Where each sub-schema of a valid schema is, the top first; iterative like the checker, but written apart. */
function locations(schema: Schema): Step[][] {
	const found: Step[][] = [];
	const stack: Array<{ node: Schema; steps: Step[] }> = [{ node: schema, steps: [] }];
	for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
		found.push(next.steps);
		const { node, steps } = next;
		if (isObject(node.properties)) {
			for (const [k, child] of Object.entries(node.properties)) stack.push({ node: child as Schema, steps: [...steps, { key: k }] });
		}
		if (isObject(node.items)) stack.push({ node: node.items, steps: [...steps, { items: true }] });
	}
	return found;
}

function isObject(value: unknown): value is Schema {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pathOf(root: string, steps: Step[]): string {
	return root + steps.map((step) => ('items' in step ? '.items' : `.properties${keyStep(step.key)}`)).join('');
}

/** Puts `value` where `steps` lead (the top itself when there are none) and returns the new top. */
function replaceAt(schema: Schema, steps: Step[], value: unknown): unknown {
	if (steps.length === 0) return value;
	let parent = schema;
	for (const step of steps.slice(0, -1)) parent = ('items' in step ? parent.items : (parent.properties as Schema)[step.key]) as Schema;
	const last = steps[steps.length - 1];
	if ('items' in last) parent.items = value;
	else (parent.properties as Schema)[last.key] = value;
	return schema;
}

function nodeAt(schema: Schema, steps: Step[]): Schema {
	let node = schema;
	for (const step of steps) node = ('items' in step ? node.items : (node.properties as Schema)[step.key]) as Schema;
	return node;
}

type Mutation =
	| { kind: 'unknownType'; name: string; inList: boolean }
	| { kind: 'typeNotAName'; value: unknown }
	| { kind: 'objectWithoutProperties' }
	| { kind: 'arrayWithoutItems' }
	| { kind: 'badEnum'; value: unknown }
	| { kind: 'notAnObject'; value: unknown }
	| { kind: 'tooDeep'; chain: Step[] };

const unknownTypeName = fc.oneof(
	fc.constantFrom('text', 'str', 'money', 'Object', 'float', 'any', 'date', ''),
	text.filter((name) => !TYPES.includes(name)),
);
const notASchema = fc.oneof(fc.boolean(), fc.integer(), text, fc.constant(null), fc.array(fc.constant({ type: 'string' }), { maxLength: 2 }));

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
	fc.record({ kind: fc.constant('unknownType' as const), name: unknownTypeName, inList: fc.boolean() }),
	fc.record({ kind: fc.constant('typeNotAName' as const), value: fc.constantFrom<unknown>(5, true, null, [], {}) }),
	fc.record({ kind: fc.constant('objectWithoutProperties' as const) }),
	fc.record({ kind: fc.constant('arrayWithoutItems' as const) }),
	fc.record({ kind: fc.constant('badEnum' as const), value: fc.constantFrom<unknown>([], 'Full-time', null, 3, {}) }),
	fc.record({ kind: fc.constant('notAnObject' as const), value: notASchema }),
	// Long enough to pass the limit from any depth; how far beyond is drawn too.
	fc.record({
		kind: fc.constant('tooDeep' as const),
		chain: fc.array(fc.oneof(fc.constant<Step>({ items: true }), key.map((k): Step => ({ key: k }))), { minLength: LIMIT + 1, maxLength: LIMIT + 40 }),
	}),
);

/** A chain of sub-schemas following `steps`, ending in a string; built from the bottom, without recursion. */
function chainOf(steps: Step[]): Schema {
	let node: Schema = { type: 'string' };
	for (let i = steps.length - 1; i >= 0; i--) {
		const step = steps[i];
		node = 'items' in step ? { type: 'array', items: node } : { type: 'object', properties: { [step.key]: node } };
	}
	return node;
}

interface Broken {
	schema: unknown;
	/** The message the node must give, from the field name to the rule. */
	expected: (root: string) => string;
}

/** Applies a mutation to a copy of `valid` at the `pick`-th sub-schema; returns the schema and the expected error. */
function breakSchema(valid: Schema, pick: number, m: Mutation): Broken {
	const schema = structuredClone(valid);
	const all = locations(schema);
	// A top level that is not an object is the parameter's own rule, tested apart: pick a sub-schema.
	const spots = m.kind === 'notAnObject' ? all.slice(1) : all;
	const steps = spots[pick % spots.length];
	const node = nodeAt(schema, steps);
	const at = (root: string): string => pathOf(root, steps);
	switch (m.kind) {
		case 'unknownType':
			node.type = m.inList ? ['string', m.name] : m.name;
			return { schema, expected: (r) => `${at(r)}.type${m.inList ? '[1]' : ''} is ${JSON.stringify(m.name)}, which is not a JSON Schema type` };
		case 'typeNotAName':
			node.type = m.value;
			return { schema, expected: (r) => `${at(r)}.type must be a type name or a non-empty list of them` };
		case 'objectWithoutProperties':
			node.type = 'object';
			delete node.properties;
			return { schema, expected: (r) => `${at(r)} has type "object" but no "properties"` };
		case 'arrayWithoutItems':
			node.type = 'array';
			delete node.items;
			return { schema, expected: (r) => `${at(r)} has type "array" but no "items"` };
		case 'badEnum':
			node.enum = m.value;
			return { schema, expected: (r) => `${at(r)}.enum must be a non-empty list of the allowed values` };
		case 'notAnObject': {
			// `items` is judged by its parent, which can say that one schema is wanted, not a list of them.
			const rule = 'items' in steps[steps.length - 1] ? 'must be one schema object for every entry' : 'must be a schema object';
			return { schema: replaceAt(schema, steps, m.value), expected: (r) => `${at(r)} ${rule}, got ` };
		}
		case 'tooDeep': {
			// The first sub-schema below the limit is reported, however long the chain goes on.
			const tooDeep = m.chain.slice(0, LIMIT + 1 - steps.length);
			return {
				schema: replaceAt(schema, steps, chainOf(m.chain)),
				expected: (r) => `${pathOf(r, [...steps, ...tooDeep])} is nested more than ${LIMIT} levels deep`,
			};
		}
	}
}

const broken = fc.tuple(validRoot(3), fc.nat(), mutation).map(([valid, pick, m]) => ({ valid, m, ...breakSchema(valid, pick, m) }));

/** What the simulator, the faithful service, makes of a schema (with an otherwise valid body). */
function serviceAccepts(schema: unknown): boolean {
	return validateJobBoard({ urls: [A], schema }).ok;
}

/** The parameter as a user gives it: JSON text, or an expression returning the object (indented: no `}}` inside). */
function asParameter(schema: unknown, asExpression: boolean): string {
	return asExpression ? `={{ ${JSON.stringify(schema, null, 1)} }}` : JSON.stringify(schema);
}

// ---------------------------------------------------------------------------------------------------------------
// The checker alone: fast, thousands of runs

describe('JSON Schema checker', () => {
	it('has the service limit of 16 levels', () => {
		expect(MAX_SCHEMA_DEPTH).toBe(LIMIT);
	});

	it('accepts every valid schema, as the service does', () => {
		fc.assert(
			fc.property(validRoot(8), (schema) => {
				expect(firstSchemaProblem(schema)).toBeUndefined();
				expect(serviceAccepts(schema)).toBe(true);
			}),
			{ numRuns: 2_000 },
		);
	});

	it('names the path and the rule of a valid schema broken at any depth, which the service refuses too', () => {
		fc.assert(
			fc.property(broken, ({ schema, expected }) => {
				const problem = firstSchemaProblem(schema);
				expect(problem).toBeDefined();
				expect(`${problem?.path} ${problem?.rule}`.startsWith(expected('$'))).toBe(true);
				expect(problem?.fix).toBeTruthy();
				expect(serviceAccepts(schema)).toBe(false);
			}),
			{ numRuns: 3_000 },
		);
	});

	it('draws the line at exactly 16 levels, whatever the path', () => {
		const steps = fc.array(fc.oneof(fc.constant<Step>({ items: true }), key.map((k): Step => ({ key: k }))), { maxLength: LIMIT + 8 });
		fc.assert(
			fc.property(steps, (chain) => {
				// The chain's leaf sits `chain.length` levels below the top.
				const schema = chainOf(chain);
				const problem = firstSchemaProblem(schema);
				if (chain.length <= LIMIT) {
					expect(problem).toBeUndefined();
				} else {
					expect(problem).toEqual(expect.objectContaining({ path: pathOf('$', chain.slice(0, LIMIT + 1)), rule: `is nested more than ${LIMIT} levels deep` }));
				}
				// The simulator wants a list or an object at the top; a bare leaf is its own rule.
				if (chain.length > 0) expect(serviceAccepts(schema)).toBe(chain.length <= LIMIT);
			}),
			{ numRuns: 1_000 },
		);
	});

	it('agrees with the service on any schema-like value, valid or not', () => {
		const junk = fc.oneof(fc.boolean(), fc.integer(), text, fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }));
		const { node } = fc.letrec<{ node: unknown; schema: Schema }>((tie) => ({
			node: fc.oneof({ maxDepth: 5, depthIdentifier: 'noisy' }, junk, tie('schema'), tie('schema')),
			schema: fc.record(
				{
					type: fc.oneof(
						fc.constantFrom(...TYPES),
						fc.constantFrom('money', '', 'Object'),
						fc.array(fc.constantFrom(...TYPES, 'money'), { maxLength: 3 }),
						junk,
					),
					enum: fc.oneof(fc.array(enumValue, { maxLength: 2 }), junk),
					properties: fc.oneof(fc.dictionary(key, tie('node'), { maxKeys: 3, noNullPrototype: true }), junk),
					items: tie('node'),
					description: text,
				},
				{ requiredKeys: [], noNullPrototype: true },
			),
		}));
		// Sometimes under a long chain, to cross the depth limit with any kind of value at the bottom.
		const deepOrNot = fc.oneof(
			node,
			fc.tuple(fc.array(fc.constant<Step>({ items: true }), { minLength: LIMIT - 4, maxLength: LIMIT + 2 }), node).map(([chain, bottom]) => {
				const top = chainOf(chain);
				return replaceAt(top, Array.from({ length: chain.length }, (): Step => ({ items: true })), bottom);
			}),
		);
		const seen = { accepted: 0, refused: 0 };
		fc.assert(
			fc.property(deepOrNot, (value) => {
				// Wrapped in a valid top level: the service's rule on the top-level type is not the checker's.
				const schema = { type: 'object', properties: { value } };
				const accepted = firstSchemaProblem(schema) === undefined;
				expect(accepted).toBe(serviceAccepts(schema));
				seen[accepted ? 'accepted' : 'refused']++;
			}),
			{ numRuns: 4_000 },
		);
		// Both sides of the line were exercised.
		expect(seen.accepted).toBeGreaterThan(200);
		expect(seen.refused).toBeGreaterThan(200);
	});

	it('stops at the limit on any depth of input without overflowing the stack', () => {
		let deep: Schema = { type: 'string' };
		for (let i = 0; i < 100_000; i++) deep = { type: 'array', items: deep };
		expect(firstSchemaProblem(deep)).toEqual(expect.objectContaining({ path: `$${'.items'.repeat(LIMIT + 1)}`, rule: 'is nested more than 16 levels deep' }));

		const cycle: Schema = { type: 'object', properties: {} };
		(cycle.properties as Schema).self = cycle;
		expect(firstSchemaProblem(cycle)?.path).toBe(`$${'.properties.self'.repeat(LIMIT + 1)}`);
	});

	it('accepts the keywords it does not check, type lists and untyped sub-schemas', () => {
		const schema = {
			type: 'object',
			$ref: '#/definitions/page',
			required: ['jobs'],
			description: 'A job board page',
			additionalProperties: false,
			properties: {
				jobs: {
					type: ['array', 'null'],
					items: {
						type: 'object',
						required: ['title'],
						properties: {
							title: { type: 'string', description: 'The title' },
							salary: { type: ['string', 'null'] },
							kind: { enum: ['Full-time', 'Part-time'] },
							link: { $ref: '#/definitions/url' },
							anything: {},
							tags: { items: { type: 'string' } },
							company: { properties: { name: { type: 'string' } } },
						},
					},
				},
			},
		};
		expect(firstSchemaProblem(schema)).toBeUndefined();
		expect(serviceAccepts(schema)).toBe(true);
	});

	it('refuses what the service refuses: true/false sub-schemas, item lists, a null type', () => {
		const cases: Array<[Schema, string]> = [
			[{ type: 'object', properties: { title: true } }, '$.properties.title must be a schema object, got the boolean true'],
			[{ type: 'array', items: [{ type: 'string' }] }, '$.items must be one schema object for every entry, got a list'],
			[{ type: 'array', items: false }, '$.items must be one schema object for every entry, got the boolean false'],
			[{ type: 'object', properties: { a: { type: null } } }, '$.properties.a.type must be a type name or a non-empty list of them, got null'],
			[{ type: 'object', properties: { a: { type: [] } } }, '$.properties.a.type must be a type name or a non-empty list of them, got a list'],
			[{ type: 'object', properties: { a: { type: ['string', 'text'] } } }, '$.properties.a.type[1] is "text", which is not a JSON Schema type'],
			[{ type: 'object', properties: { 'job title': { type: 'object', properties: null } } }, '$.properties["job title"].properties must be an object of field schemas, got null'],
			[{ type: 'object', properties: { a: { properties: { b: { type: 'money' } } } } }, '$.properties.a.properties.b.type is "money", which is not a JSON Schema type'],
			[{ type: 'object', properties: { a: { type: 'string', enum: [] } } }, '$.properties.a.enum must be a non-empty list of the allowed values, got a list'],
		];
		for (const [schema, message] of cases) {
			const problem = firstSchemaProblem(schema);
			expect(`${problem?.path} ${problem?.rule}`).toBe(message);
			expect(serviceAccepts(schema)).toBe(false);
		}
	});

	it('fixed cases fast-check found: a non-object `items` is judged by its parent', () => {
		// Shrunk counterexamples of the mutation property (the test expected the child's own wording).
		const cases: Array<[Schema, string]> = [
			[{ type: 'array', items: 0 }, '$.items must be one schema object for every entry, got the number 0'],
			[{ type: 'object', properties: { title: { type: 'array', items: [] } } }, '$.properties.title.items must be one schema object for every entry, got a list'],
		];
		for (const [schema, message] of cases) {
			const problem = firstSchemaProblem(schema);
			expect(`${problem?.path} ${problem?.rule}`).toBe(message);
			expect(serviceAccepts(schema)).toBe(false);
		}
	});

	it('reports the first problem in document order, from the root it is given', () => {
		const schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'array' }, c: { type: 'money' } } };
		expect(firstSchemaProblem(schema, 'schema')).toEqual(expect.objectContaining({ path: 'schema.properties.b', rule: 'has type "array" but no "items"' }));
		expect(firstSchemaProblem(5)).toEqual(expect.objectContaining({ path: '$', rule: 'must be a schema object, got the number 5' }));
	});
});

// ---------------------------------------------------------------------------------------------------------------
// The node against the simulator: generated schemas, end to end

describe('Job Board: Scrape with generated schemas', () => {
	const ctx = useMarketplace();

	it('sends every valid schema unchanged, and the service accepts it', async () => {
		await fc.assert(
			fc.asyncProperty(validRoot(3), fc.boolean(), async (schema, asExpression) => {
				ctx.sim.reset();
				const result = await ctx.run({ ...scrape, urls: A, schema: asParameter(schema, asExpression), options: { min: 1, max: 1 } });
				expect(result.error).toBeUndefined();
				const requests = ctx.requests(ROUTES.jobBoardScrape);
				expect(requests).toHaveLength(1);
				expect(requests[0].status).toBe(200);
				expect(requests[0].body).toEqual({ urls: [A], schema, min: 1, max: 1 });
			}),
			{ numRuns: 100 },
		);
	});

	it('refuses a valid schema broken at any depth, naming field, path and rule, and sends nothing', async () => {
		await fc.assert(
			fc.asyncProperty(broken, fc.boolean(), async ({ schema, expected }, asExpression) => {
				ctx.sim.reset();
				const result = await ctx.run({ ...scrape, urls: A, schema: asParameter(schema, asExpression) });
				expect(result.error?.message.startsWith(`Invalid '${FIELD}': ${expected('schema')}`)).toBe(true);
				expect(result.error?.description).toBeTruthy();
				expect(ctx.sim.server.log.count()).toBe(0);
			}),
			{ numRuns: 150 },
		);
	});

	it('sends a schema exactly 16 levels deep and refuses one level more, with nothing sent', async () => {
		const atLimit = { type: 'object', properties: { jobs: chainOf(Array.from({ length: LIMIT - 1 }, (): Step => ({ items: true }))) } };
		const ok = await ctx.run({ ...scrape, urls: A, schema: JSON.stringify(atLimit), options: { min: 1, max: 1 } });
		expect(ok.error).toBeUndefined();
		expect(ctx.requests(ROUTES.jobBoardScrape)[0].status).toBe(200);

		ctx.sim.reset();
		const beyond = { type: 'object', properties: { jobs: chainOf(Array.from({ length: LIMIT }, (): Step => ({ items: true }))) } };
		const result = await ctx.run({ ...scrape, urls: A, schema: JSON.stringify(beyond) });
		expect(result.error?.message).toBe(`Invalid '${FIELD}': schema.properties.jobs${'.items'.repeat(LIMIT)} is nested more than 16 levels deep [item 0]`);
		expect(ctx.sim.server.log.count()).toBe(0);
	});

	it('refuses a schema 10,000 levels deep without a stack overflow, and sends nothing', async () => {
		// Built as text, iteratively: the input itself must not need the stack.
		const levels = 10_000;
		const json = `${'{"type": "array", "items": '.repeat(levels)}{"type": "string"}${'}'.repeat(levels)}`;
		const result = await ctx.run({ ...scrape, urls: A, schema: json });
		expect(result.error?.message).toBe(`Invalid '${FIELD}': schema${'.items'.repeat(LIMIT + 1)} is nested more than 16 levels deep [item 0]`);
		expect(result.error?.description).toContain('at most 16 levels');
		expect(ctx.sim.server.log.count()).toBe(0);
	});

	it('accepts type lists, $ref, enum, required and description, and the service does too', async () => {
		const schema = {
			type: 'object',
			required: ['jobs'],
			properties: {
				jobs: {
					type: 'array',
					description: 'The jobs on the page',
					items: {
						type: 'object',
						required: ['title'],
						properties: {
							title: { type: 'string' },
							salary: { type: ['string', 'null'] },
							employment_type: { enum: ['Full-time', 'Part-time'] },
							company: { $ref: '#/definitions/company' },
						},
					},
				},
			},
		};
		const result = await ctx.run({ ...scrape, urls: A, schema: JSON.stringify(schema), options: { min: 1, max: 2 } });
		expect(result.error).toBeUndefined();
		expect(ctx.requests(ROUTES.jobBoardScrape)[0]).toEqual(expect.objectContaining({ status: 200, body: expect.objectContaining({ schema }) }));
	});

	it('takes an undefined sub-schema from an expression as absent, as JSON sends it', async () => {
		const expression = '={{ { "type": "array", "items": { "type": "object", "properties": { "title": { "type": "string" }, "salary": undefined } } } }}';
		const result = await ctx.run({ ...scrape, urls: A, schema: expression, options: { min: 1, max: 1 } });
		expect(result.error).toBeUndefined();
		const [request] = ctx.requests(ROUTES.jobBoardScrape);
		expect(request.status).toBe(200);
		expect((request.body as { schema: unknown }).schema).toStrictEqual({ type: 'array', items: { type: 'object', properties: { title: { type: 'string' } } } });
	});

	const notObjects: Array<[string, string, string]> = [
		['a list', '[{"type": "string"}]', 'a list'],
		['a number', '5', 'the number 5'],
		['null', 'null', 'null'],
		['a text', '"object"', 'the text "object"'],
		['a boolean from an expression', '={{ true }}', 'the boolean true'],
		['a list from an expression', '={{ [1, 2] }}', 'a list'],
	];
	it.each(notObjects)('refuses %s as the schema, naming its type', async (_name, schema, got) => {
		const result = await ctx.run({ ...scrape, urls: A, schema });
		expect(result.error?.message).toBe(`Invalid '${FIELD}': it must be a JSON object (a JSON Schema), got ${got} [item 0]`);
		expect(ctx.sim.server.log.count()).toBe(0);
	});

	it('names the parse problem of schema text that is not JSON', async () => {
		const result = await ctx.run({ ...scrape, urls: A, schema: '{"type": "object", "properties": {"title": {"type": "string"},}}' });
		expect(result.error?.message).toMatch(/^Invalid 'Schema': it is not valid JSON \(.+\) \[item 0\]$/);
		expect(ctx.sim.server.log.count()).toBe(0);
	});
});
