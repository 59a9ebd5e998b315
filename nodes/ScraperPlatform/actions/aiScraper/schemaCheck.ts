import type { IDataObject } from 'n8n-workflow';

import { describeJson, isJsonObject, MAX_SCHEMA_DEPTH } from '../../../shared/input/jsonSchema';

/**
 * Checks an extracted record against the user's Output Schema: each way it breaks the schema as `<JSON path> <rule>`,
 * e.g. `$.price must be a number, got the text "12 €"`. The keywords a sheet's shape depends on are read: type,
 * enum, const, required, properties, additionalProperties (false), items, minimum, maximum, exclusiveMinimum,
 * exclusiveMaximum, minLength, maxLength, pattern, minItems, maxItems; others pass. The walk is iterative and stops
 * at the schema checker's depth, so no record can overflow the stack.
 */

interface Pending {
	value: unknown;
	schema: IDataObject;
	path: string;
	depth: number;
}

function typeOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
	return typeof value;
}

const matchesType = (value: unknown, type: string) => typeOf(value) === type || (type === 'number' && typeOf(value) === 'integer');

const keyPath = (path: string, key: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`);

/** The rules of one schema that are not about its children: type, values, bounds, lengths, pattern. */
function ownBreaks({ value, schema, path }: Pending): string[] {
	const out: string[] = [];
	const broke = (rule: string) => out.push(`${path} ${rule}`);
	const types = schema.type === undefined ? [] : ([] as unknown[]).concat(schema.type).map(String);
	if (types.length > 0 && !types.some((type) => matchesType(value, type))) return [`${path} must be ${types.join(' or ')}, got ${describeJson(value)}`];
	if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => JSON.stringify(allowed) === JSON.stringify(value))) broke(`must be one of ${JSON.stringify(schema.enum)}`);
	if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) broke(`must be ${JSON.stringify(schema.const)}`);
	if (typeof value === 'number') {
		const bound = (key: string, fails: (limit: number) => boolean, words: string) => typeof schema[key] === 'number' && fails(schema[key] as number) && broke(`must be ${words} ${schema[key] as number}, got ${value}`);
		bound('minimum', (limit) => value < limit, 'at least');
		bound('maximum', (limit) => value > limit, 'at most');
		bound('exclusiveMinimum', (limit) => value <= limit, 'more than');
		bound('exclusiveMaximum', (limit) => value >= limit, 'less than');
	}
	const length = typeof value === 'string' ? [...value].length : Array.isArray(value) ? value.length : undefined;
	const unit = (n: number) => (typeof value === 'string' ? (n === 1 ? 'character' : 'characters') : n === 1 ? 'entry' : 'entries');
	const [min, max] = typeof value === 'string' ? ['minLength', 'maxLength'] : ['minItems', 'maxItems'];
	if (length !== undefined && typeof schema[min] === 'number' && length < (schema[min] as number)) broke(`must have at least ${schema[min] as number} ${unit(schema[min] as number)}, has ${length}`);
	if (length !== undefined && typeof schema[max] === 'number' && length > (schema[max] as number)) broke(`must have at most ${schema[max] as number} ${unit(schema[max] as number)}, has ${length}`);
	if (typeof value === 'string' && typeof schema.pattern === 'string' && !safeTest(schema.pattern, value)) broke(`must match the pattern ${schema.pattern}`);
	return out;
}

/** A pattern the schema checker let through that JavaScript cannot compile is not held against the record. */
function safeTest(pattern: string, value: string): boolean {
	try {
		return new RegExp(pattern, 'u').test(value);
	} catch {
		return true;
	}
}

/** The rules about an object's or a list's children, and the children to check next. */
function childBreaks({ value, schema, path, depth }: Pending, next: Pending[]): string[] {
	const out: string[] = [];
	if (isJsonObject(value)) {
		const properties = isJsonObject(schema.properties) ? schema.properties : {};
		for (const key of Array.isArray(schema.required) ? schema.required.map(String) : []) {
			if (value[key] === undefined) out.push(`${keyPath(path, key)} is required`);
		}
		for (const [key, child] of Object.entries(value)) {
			const sub = properties[key];
			if (isJsonObject(sub)) next.push({ value: child, schema: sub as IDataObject, path: keyPath(path, key), depth: depth + 1 });
			else if (sub === undefined && schema.additionalProperties === false) out.push(`${keyPath(path, key)} is not a field of the schema`);
		}
	}
	if (Array.isArray(value) && isJsonObject(schema.items)) {
		value.forEach((entry, i) => next.push({ value: entry, schema: schema.items as IDataObject, path: `${path}[${i}]`, depth: depth + 1 }));
	}
	return out;
}

/** Every way `record` breaks `schema`, in document order; empty when it matches. */
export function schemaBreaks(record: unknown, schema: IDataObject): string[] {
	const out: string[] = [];
	const stack: Pending[] = [{ value: record, schema, path: '$', depth: 0 }];
	for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
		const own = ownBreaks(at);
		out.push(...own);
		// A value of the wrong type has no children worth checking against the schema.
		if (own.length > 0 && /^\S+ must be \S+( or \S+)*, got /.test(own[0])) continue;
		const next: Pending[] = [];
		out.push(...childBreaks(at, next));
		if (at.depth < MAX_SCHEMA_DEPTH) stack.push(...next.reverse());
	}
	return out;
}
