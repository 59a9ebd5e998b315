import type { IDataObject } from 'n8n-workflow';

import type { Rule } from './fields';

/**
 * A JSON Schema's rules as the service reads them (the Job Board's schema; the Platform's Output Schema is held to the
 * same), checked before a request is sent: the service refuses the rest. The simulator
 * checks the same rules on its own (test/simulator/marketplace/validation.ts): the two are written separately on
 * purpose, so that one mistake cannot hide in both. Only the keywords the service reads are checked; any other
 * keyword (`$ref`, `required`, `description`, `format`, ...) passes untouched.
 */

const SCHEMA_TYPES: readonly string[] = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'];

/** Levels of `properties` and `items` below the top the service accepts; the check never walks deeper, so no schema can overflow the stack. */
export const MAX_SCHEMA_DEPTH = 16;

interface SchemaProblem {
	/** Where, as a JSON path from the root name, e.g. `$.properties.jobs.items.properties.salary.type`. */
	path: string;
	/** What is wrong, read after the path: `has type "array" but no "items"`. */
	rule: string;
	/** How to fix it. */
	fix: string;
}

interface Pending {
	value: unknown;
	path: string;
	depth: number;
}

const TYPE_FIX = `Use one of ${SCHEMA_TYPES.join(', ')}, or a list of them such as ["string", "null"].`;

/**
 * The first problem of a JSON Schema in document order (a schema's own keywords before its sub-schemas), or
 * undefined when the service will accept it. `root` names the top in paths: `$`, or a parameter's name.
 */
export function firstSchemaProblem(schema: unknown, root = '$'): SchemaProblem | undefined {
	// An explicit stack instead of recursion: no depth of input (not even a cycle from an expression) can overflow it.
	const stack: Pending[] = [{ value: schema, path: root, depth: 0 }];
	for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
		const problem = checkNode(next, stack);
		if (problem) return problem;
	}
	return undefined;
}

/** One schema's own keywords; its sub-schemas go on the stack, the first on top so they come out in order. */
function checkNode(node: Pending, stack: Pending[]): SchemaProblem | undefined {
	const problem = depthProblem(node) ?? shapeProblem(node);
	if (problem) return problem;
	const schema = node.value as Record<string, unknown>;
	const typed = readTypes(schema.type, node.path);
	if ('problem' in typed) return typed.problem;
	const other = enumProblem(schema, node.path);
	if (other) return other;
	const children: Pending[] = [];
	for (const container of CONTAINERS) {
		const found = containerChildren(container, schema, node, typed.types, children);
		if (found) return found;
	}
	for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
	return undefined;
}

function depthProblem({ path, depth }: Pending): SchemaProblem | undefined {
	if (depth <= MAX_SCHEMA_DEPTH) return undefined;
	return {
		path,
		rule: `is nested more than ${MAX_SCHEMA_DEPTH} levels deep`,
		fix: `Flatten the schema: the service accepts at most ${MAX_SCHEMA_DEPTH} levels of "properties" and "items" below the top.`,
	};
}

function shapeProblem({ value, path }: Pending): SchemaProblem | undefined {
	if (isJsonObject(value)) return undefined;
	return {
		path,
		rule: `must be a schema object, got ${describeJson(value)}`,
		fix: 'Write each schema as an object, e.g. {"type": "string"}; true/false schemas are not accepted by the service.',
	};
}

/** `type` as a list of names (empty when absent), or what is wrong with it. */
function readTypes(type: unknown, path: string): { types: string[] } | { problem: SchemaProblem } {
	// Absent and `undefined` are the same: JSON drops undefined values from what is sent.
	if (type === undefined) return { types: [] };
	if (typeof type === 'string') {
		if (SCHEMA_TYPES.includes(type)) return { types: [type] };
		return { problem: { path: `${path}.type`, rule: `is ${typeName(type)}, which is not a JSON Schema type`, fix: TYPE_FIX } };
	}
	if (Array.isArray(type) && type.length > 0) {
		const bad = type.findIndex((entry) => typeof entry !== 'string' || !SCHEMA_TYPES.includes(entry));
		if (bad < 0) return { types: type as string[] };
		return { problem: { path: `${path}.type[${bad}]`, rule: `is ${typeName(type[bad])}, which is not a JSON Schema type`, fix: TYPE_FIX } };
	}
	return { problem: { path: `${path}.type`, rule: `must be a type name or a non-empty list of them, got ${describeJson(type)}`, fix: TYPE_FIX } };
}

function enumProblem(schema: Record<string, unknown>, path: string): SchemaProblem | undefined {
	if (schema.enum === undefined || (Array.isArray(schema.enum) && schema.enum.length > 0)) return undefined;
	return {
		path: `${path}.enum`,
		rule: `must be a non-empty list of the allowed values, got ${describeJson(schema.enum)}`,
		fix: `List the allowed values, e.g. "enum": ["Full-time", "Part-time"], or remove "enum".`,
	};
}

/** A keyword that holds sub-schemas: `properties` of an object, `items` of an array. */
interface Container {
	type: 'object' | 'array';
	keyword: 'properties' | 'items';
	/** Read after `Add "<keyword>" to <path>, `. */
	addHint: string;
	/** Read after `must be `. */
	shape: string;
	fix: string;
	/** The sub-schemas of a well-formed keyword value. */
	children: (held: Record<string, unknown>, path: string) => Array<{ value: unknown; path: string }>;
}

const CONTAINERS: readonly Container[] = [
	{
		type: 'object',
		keyword: 'properties',
		addHint: 'listing the fields to extract, e.g. "properties": {"title": {"type": "string"}}',
		shape: 'an object of field schemas',
		fix: 'Write "properties" as an object naming each field, e.g. "properties": {"title": {"type": "string"}}.',
		children: (held, path) =>
			Object.entries(held)
				.filter(([, child]) => child !== undefined)
				.map(([key, child]) => ({ value: child, path: `${path}.properties${pathKey(key)}` })),
	},
	{
		type: 'array',
		keyword: 'items',
		addHint: 'the schema of one entry, e.g. "items": {"type": "object", "properties": {…}}',
		shape: 'one schema object for every entry',
		fix: 'Write "items" as one schema, e.g. "items": {"type": "string"}; a list of schemas per position is not accepted by the service.',
		children: (held, path) => [{ value: held, path: `${path}.items` }],
	},
];

/**
 * Checks one container keyword and adds its sub-schemas to `children`. Without a `type`, `properties` or `items`
 * still say what the schema is, and the service checks them.
 */
function containerChildren(
	container: Container,
	schema: Record<string, unknown>,
	{ path, depth }: Pending,
	types: string[],
	children: Pending[],
): SchemaProblem | undefined {
	const held = schema[container.keyword];
	if (!types.includes(container.type) && !(schema.type === undefined && held !== undefined)) return undefined;
	if (held === undefined) {
		return {
			path,
			rule: `has type "${container.type}" but no "${container.keyword}"`,
			fix: `Add "${container.keyword}" to ${path}, ${container.addHint}.`,
		};
	}
	if (!isJsonObject(held)) {
		return { path: `${path}.${container.keyword}`, rule: `must be ${container.shape}, got ${describeJson(held)}`, fix: container.fix };
	}
	for (const child of container.children(held, path)) children.push({ ...child, depth: depth + 1 });
	return undefined;
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `.title` for a plain name, `["job title"]` for any other key, so the path stays unambiguous. */
function pathKey(key: string): string {
	return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** A would-be type name as written (`"money"`), anything else by its kind. */
function typeName(value: unknown): string {
	return typeof value === 'string' ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value) : describeJson(value);
}

/** A value named with its JSON type, for messages: `the number 5`, `a list`, `null`. */
export function describeJson(value: unknown): string {
	if (value === null) return 'null';
	if (value === undefined) return 'nothing';
	if (Array.isArray(value)) return 'a list';
	switch (typeof value) {
		case 'string':
			return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
		case 'number':
			return `the number ${value}`;
		case 'boolean':
			return `the boolean ${value}`;
		case 'object':
			return 'an object';
		default:
			return typeof value;
	}
}

/**
 * The rule of a JSON Schema field: JSON text (or an object from an expression) -> the schema object, checked against
 * the service's rules. Paths start at `root`, the key the schema is sent under, as the service's own errors name them
 * (`schema.type`).
 */
export function jsonSchemaRule(root: string, describing = 'one record'): Rule<IDataObject> {
	return (v, raw, label) => {
		if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) {
			v.fail(label, 'it is required', `Enter a JSON Schema describing ${describing}, e.g. the example the field starts with.`);
		}
		let schema: unknown = raw;
		if (typeof raw === 'string') {
			try {
				schema = JSON.parse(raw);
			} catch (error) {
				v.fail(label, `it is not valid JSON (${(error as Error).message})`, 'Fix the JSON: check quotes, commas and brackets.');
			}
		}
		if (!isJsonObject(schema)) {
			v.fail(
				label,
				`it must be a JSON object (a JSON Schema), got ${describeJson(schema)}`,
				'Enter an object such as {"type": "object", "properties": {"title": {"type": "string"}}}.',
			);
		}
		const problem = firstSchemaProblem(schema, root);
		if (problem) v.fail(label, `${problem.path} ${problem.rule}`, problem.fix);
		return schema as IDataObject;
	};
}
