/**
 * The Job Board's JSON Schema rules, checked before a request is sent: the service refuses the rest. The simulator
 * checks the same rules on its own (test/simulator/marketplace/validation.ts): the two are written separately on
 * purpose, so that one mistake cannot hide in both. Only the keywords the service reads are checked; any other
 * keyword (`$ref`, `required`, `description`, `format`, ...) passes untouched.
 */

export const SCHEMA_TYPES: readonly string[] = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'];

/** Levels of `properties` and `items` below the top the service accepts; the check never walks deeper, so no schema can overflow the stack. */
export const MAX_SCHEMA_DEPTH = 16;

export interface SchemaProblem {
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
function checkNode({ value, path, depth }: Pending, stack: Pending[]): SchemaProblem | undefined {
	if (depth > MAX_SCHEMA_DEPTH) {
		return {
			path,
			rule: `is nested more than ${MAX_SCHEMA_DEPTH} levels deep`,
			fix: `Flatten the schema: the service accepts at most ${MAX_SCHEMA_DEPTH} levels of "properties" and "items" below the top.`,
		};
	}
	if (!isJsonObject(value)) {
		return {
			path,
			rule: `must be a schema object, got ${describeJson(value)}`,
			fix: 'Write each schema as an object, e.g. {"type": "string"}; true/false schemas are not accepted by the service.',
		};
	}

	// Absent and `undefined` are the same: JSON drops undefined values from what is sent.
	const type = value.type;
	let types: string[] = [];
	if (typeof type === 'string') {
		if (!SCHEMA_TYPES.includes(type)) return { path: `${path}.type`, rule: `is ${typeName(type)}, which is not a JSON Schema type`, fix: TYPE_FIX };
		types = [type];
	} else if (Array.isArray(type) && type.length > 0) {
		const bad = type.findIndex((entry) => typeof entry !== 'string' || !SCHEMA_TYPES.includes(entry));
		if (bad >= 0) return { path: `${path}.type[${bad}]`, rule: `is ${typeName(type[bad])}, which is not a JSON Schema type`, fix: TYPE_FIX };
		types = type as string[];
	} else if (type !== undefined) {
		return { path: `${path}.type`, rule: `must be a type name or a non-empty list of them, got ${describeJson(type)}`, fix: TYPE_FIX };
	}

	if (value.enum !== undefined && !(Array.isArray(value.enum) && value.enum.length > 0)) {
		return {
			path: `${path}.enum`,
			rule: `must be a non-empty list of the allowed values, got ${describeJson(value.enum)}`,
			fix: `List the allowed values, e.g. "enum": ["Full-time", "Part-time"], or remove "enum".`,
		};
	}

	// Without a `type`, `properties` or `items` still say what the schema is, and the service checks them.
	const children: Pending[] = [];
	if (types.includes('object') || (type === undefined && value.properties !== undefined)) {
		const properties = value.properties;
		if (properties === undefined) {
			return {
				path,
				rule: 'has type "object" but no "properties"',
				fix: `Add "properties" to ${path}, listing the fields to extract, e.g. "properties": {"title": {"type": "string"}}.`,
			};
		}
		if (!isJsonObject(properties)) {
			return {
				path: `${path}.properties`,
				rule: `must be an object of field schemas, got ${describeJson(properties)}`,
				fix: 'Write "properties" as an object naming each field, e.g. "properties": {"title": {"type": "string"}}.',
			};
		}
		for (const [key, child] of Object.entries(properties)) {
			if (child !== undefined) children.push({ value: child, path: `${path}.properties${pathKey(key)}`, depth: depth + 1 });
		}
	}
	if (types.includes('array') || (type === undefined && value.items !== undefined)) {
		const items = value.items;
		if (items === undefined) {
			return {
				path,
				rule: 'has type "array" but no "items"',
				fix: `Add "items" to ${path}, the schema of one entry, e.g. "items": {"type": "object", "properties": {…}}.`,
			};
		}
		if (!isJsonObject(items)) {
			return {
				path: `${path}.items`,
				rule: `must be one schema object for every entry, got ${describeJson(items)}`,
				fix: 'Write "items" as one schema, e.g. "items": {"type": "string"}; a list of schemas per position is not accepted by the service.',
			};
		}
		children.push({ value: items, path: `${path}.items`, depth: depth + 1 });
	}
	for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
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
