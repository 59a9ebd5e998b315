/**
 * The JSON Schema a job-board scrape takes: the subset the simulator understands (`type`, `properties`, `items`,
 * `enum`), checked field by field, and a schema's `type` as a list.
 */
import { isPlainObject, type Checker } from './checker';
import { SCHEMA_TYPES } from './inputs';

/**
 * Checks a caller's JSON Schema: known `type` names, an `object` needs a `properties` object, an `array` needs an
 * `items` schema, `enum` is a non-empty list; nested properties and items are checked the same way.
 */
export function checkSchema(c: Checker, schema: unknown, path: string, depth: number): void {
	if (depth > 16) {
		c.fail(path, 'max_depth', 'The schema is nested too deeply (more than 16 levels).');
		return;
	}
	if (!isPlainObject(schema)) {
		c.fail(path, 'object', `${path} must be a JSON Schema object.`);
		return;
	}
	const types = schemaTypes(schema);
	if (schema.type !== undefined && types.length === 0) {
		c.fail(`${path}.type`, 'in', `${path}.type must be one of: ${SCHEMA_TYPES.join(', ')}.`);
	}
	if (schema.enum !== undefined && (!Array.isArray(schema.enum) || schema.enum.length === 0)) {
		c.fail(`${path}.enum`, 'array', `${path}.enum must be a non-empty array.`);
	}
	if (types.includes('object') || (schema.type === undefined && schema.properties !== undefined)) {
		if (!isPlainObject(schema.properties)) {
			c.fail(`${path}.properties`, 'required', `${path} has type object and needs a properties object.`);
		} else {
			for (const [key, child] of Object.entries(schema.properties)) checkSchema(c, child, `${path}.properties.${key}`, depth + 1);
		}
	}
	if (types.includes('array') || (schema.type === undefined && schema.items !== undefined)) {
		if (!isPlainObject(schema.items)) {
			c.fail(`${path}.items`, 'required', `${path} has type array and needs an items schema.`);
		} else {
			checkSchema(c, schema.items, `${path}.items`, depth + 1);
		}
	}
}

/** The `type` of a schema as a list (JSON Schema allows a single name or a list); empty when invalid or absent. */
export function schemaTypes(schema: Record<string, unknown>): string[] {
	const raw = schema.type;
	const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : [];
	if (list.length === 0 || !list.every((t) => typeof t === 'string' && (SCHEMA_TYPES as readonly string[]).includes(t))) return [];
	return list as string[];
}
