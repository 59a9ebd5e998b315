// Generated bad input: for every parameter an operation shows, values a user could set (typed, or through an
// expression of any type) that break its rule, and values that keep it. The parameter model is read from the node's
// own description (type, required, options, min/max, decimals), with a few rules the description cannot say
// (URLs, ids, dates, patterns) named by the parameter.
import fc from 'fast-check';
import type { IDataObject, INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { loadPackage, fullNodeType } from '../../harness';

/** What a parameter accepts, beyond its n8n type. */
export type Rule =
	| { kind: 'text'; required: boolean }
	/** Text, or a list (one per line, comma-separated, or an array from an expression). */
	| { kind: 'list' }
	| { kind: 'url'; list: boolean; required: boolean }
	| { kind: 'uuid' }
	/** A bare domain such as example.com: no scheme, no path. */
	| { kind: 'domain' }
	| { kind: 'integer'; min?: number; max?: number }
	| { kind: 'decimal'; min?: number; max?: number }
	| { kind: 'boolean' }
	| { kind: 'option'; values: string[] }
	| { kind: 'multiOption'; values: string[] }
	| { kind: 'date' }
	| { kind: 'regex' }
	| { kind: 'countryCode' }
	| { kind: 'skip'; why: string };

export interface ParameterCase {
	/** Where the value goes: a top-level parameter, or an option inside a collection. */
	path: [string] | [string, string];
	/** The display name an error must name. */
	label: string;
	rule: Rule;
}

/** A value and how to set it: typed into the field, or as an expression returning it. */
export interface Drawn {
	value: unknown;
	/** The parameter value as saved: the raw value, or `={{ ... }}` for values a field cannot hold. */
	stored: unknown;
	describe: string;
}

/** An expression that returns `value` exactly (NaN and the infinities included). */
export function asExpression(value: unknown): string {
	if (typeof value === 'number' && !Number.isFinite(value)) return `={{ ${Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity'} }}`;
	return `={{ ${JSON.stringify(value)} }}`;
}

function typed(value: unknown): Drawn {
	return { value, stored: value, describe: JSON.stringify(value) ?? String(value) };
}

function viaExpression(value: unknown): Drawn {
	return { value, stored: asExpression(value), describe: `expression ${asExpression(value)}` };
}

// Strings an expression can carry without the template parser reading them as its own brackets.
const safeText = (arb: fc.Arbitrary<string>) => arb.filter((s) => !s.includes('{{') && !s.includes('}}') && !s.startsWith('='));
const oddUnicode = fc.constantFrom('\u0000', '\u202e', '\ud800', '\ufeff', '\u200b', 'é', '💥', '\u0007');
const nonText = fc.oneof(fc.constant(null), fc.boolean(), fc.dictionary(safeText(fc.string({ maxLength: 3 })), fc.integer(), { maxKeys: 2 }), fc.constant({}));
const notNumbers = fc.oneof(
	fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
	safeText(fc.string({ minLength: 1, maxLength: 6 })).filter((s) => s.trim() === '' || Number.isNaN(Number(s))),
	fc.constant({}),
	fc.constant([1]),
	fc.boolean(),
);

/** Values that break `rule`. */
export function invalidValues(rule: Rule): fc.Arbitrary<Drawn> {
	switch (rule.kind) {
		case 'text':
			return rule.required
				? fc.oneof(fc.constantFrom('', '   ', '\n\t').map(typed), nonText.map(viaExpression), fc.array(safeText(fc.string()), { maxLength: 2 }).map(viaExpression))
				: fc.oneof(fc.constantFrom(true, false).map(viaExpression), fc.constant({ a: 1 }).map(viaExpression), fc.constant([{ a: 1 }]).map(viaExpression));
		case 'list':
			return fc.oneof(fc.constantFrom('', '  ', ' \n \n').map(typed), fc.constantFrom([], [{}], [null], [[1]], {}, true).map(viaExpression));
		case 'url': {
			const malformed = fc.oneof(
				fc.constantFrom('not a url', 'ftp://example.com/file', 'javascript:alert(1)', 'http://', 'https://exa mple.com/', '//example.com/x', 'mailto:a@example.com', 'file:///etc/passwd'),
				safeText(fc.string({ minLength: 1, maxLength: 12 })).filter((s) => !/^\s*https?:\/\//i.test(s) && s.trim() !== '' && !s.includes(',') && !s.includes('\n')),
				fc.tuple(fc.constantFrom('https://example.com/a', 'http://shop.example.org/p?q=1'), fc.nat({ max: 20 }), fc.constantFrom('\t', '\n', '\r', '\u0000', '\u007f', '\\'))
					.map(([url, at, bad]) => `${url.slice(0, 8 + (at % Math.max(1, url.length - 8)))}${bad}${url.slice(8 + (at % Math.max(1, url.length - 8)))}`)
					.filter((s) => !(s.includes('\n') && rule.list)),
			);
			const base = fc.oneof(malformed.map(typed), nonText.filter((v) => v !== null).map(viaExpression));
			return rule.required ? fc.oneof(base, fc.constantFrom('', '  ').map(typed)) : base;
		}
		case 'domain':
			return fc.oneof(
				fc.constantFrom('', '  ').map(typed),
				fc.domain().chain((d) => fc.constantFrom(`ftp://${d}`, `https://${d.replace('.', ' ')}`, `${d}_x`, `-${d}`, `https://`)).map(typed),
				nonText.map(viaExpression),
			);
		case 'uuid':
			return fc.oneof(
				fc.constantFrom('', '123', 'not-a-uuid', '3f2b9c1e-8a4d-4e6f-9b2a-1c3d5e7f9a0', '3f2b9c1e8a4d4e6f9b2a1c3d5e7f9a0b', 'zf2b9c1e-8a4d-4e6f-9b2a-1c3d5e7f9a0b').map(typed),
				fc.uuid().map((u) => `${u}x`).map(typed),
				nonText.map(viaExpression),
			);
		case 'integer':
		case 'decimal': {
			const outside: fc.Arbitrary<number>[] = [];
			if (rule.min !== undefined) outside.push(fc.integer({ min: -1_000_000_000, max: rule.min - 1 }), fc.constant(rule.min - 0.5));
			if (rule.max !== undefined) outside.push(fc.integer({ min: rule.max + 1, max: 2 ** 53 - 1 }), fc.constant(rule.max + 0.5), fc.constant(1e300));
			if (rule.kind === 'integer') outside.push(fc.double({ min: rule.min ?? -1e6, max: rule.max ?? 1e6, noNaN: true }).filter((n) => !Number.isInteger(n)));
			return fc.oneof(...outside.map((arb) => arb.map(typed)), notNumbers.map(viaExpression));
		}
		case 'boolean':
			return fc.oneof(fc.constantFrom('yes', 'no', 'TRUE', '1', '', 'on').map(viaExpression), fc.constantFrom(0, 1, 2, -1).map(viaExpression), fc.constant({}).map(viaExpression), fc.constant([true]).map(viaExpression));
		case 'option':
		case 'multiOption': {
			// Blank entries are dropped like empty lines, so an unknown value here is one with some text.
			const unknown = safeText(fc.string({ minLength: 1, maxLength: 10 })).filter((s) => s.trim() !== '' && !rule.values.includes(s) && !rule.values.includes(s.trim()));
			// Not null: an expression giving nothing leaves an optional choice unset, as an empty field does.
			if (rule.kind === 'option') return fc.oneof(unknown.map(typed), fc.oneof(fc.integer(), fc.constant({})).map(viaExpression));
			return fc.oneof(unknown.map((s) => typed([rule.values[0], s])), fc.constant(42).map(viaExpression));
		}
		case 'date':
			return fc.oneof(fc.constantFrom('not a date', '2026-13-45', '31/01/2026', 'tomorrow', '2026-02-30T10:00:00').map(typed), fc.oneof(fc.constant({}), fc.boolean()).map(viaExpression));
		case 'regex':
			return fc.constantFrom('(', '[a-', '*x', 'a{2,1}', '(?<n>a)(?<n>b)').map(typed);
		case 'countryCode':
			return fc.oneof(fc.constantFrom('usa', 'u', '12', 'u$', 'ü1').map(typed), oddUnicode.map((c) => typed(`u${c}`)), fc.constant({}).map(viaExpression));
		case 'skip':
			return fc.constant(typed(undefined));
	}
}

/** Values that keep `rule` (drawn the same way). */
export function validValues(rule: Rule): fc.Arbitrary<Drawn> | undefined {
	switch (rule.kind) {
		case 'integer':
			return fc.integer({ min: rule.min ?? 0, max: rule.max ?? (rule.min ?? 0) + 1_000 }).chain((n) => fc.constantFrom(typed(n), viaExpression(n), typed(String(n))));
		case 'decimal':
			return fc.double({ min: rule.min ?? 0, max: rule.max ?? 100, noNaN: true, noDefaultInfinity: true }).map(typed);
		case 'boolean':
			return fc.constantFrom(typed(true), typed(false), viaExpression(true), viaExpression('false'));
		case 'option':
			return fc.constantFrom(...rule.values).map(typed);
		case 'domain':
			return fc.domain().chain((d) => fc.constantFrom(d, `https://${d}/path?q=1`, `http://${d}`, `${d}/shop`)).map(typed);
		case 'text':
			return safeText(fc.string({ minLength: 1, maxLength: 20 })).filter((s) => s.trim() !== '' && !s.includes(',')).map(typed);
		default:
			return undefined;
	}
}

/** Whether `version` meets one `@version` condition: a number, or `{ _cnd: { gte | lt | … } }`. */
function versionMatches(condition: unknown, version: number): boolean {
	if (typeof condition === 'number') return condition === version;
	const cnd = (condition as { _cnd?: Record<string, number> })._cnd ?? {};
	return Object.entries(cnd).every(([op, value]) =>
		op === 'gte' ? version >= value : op === 'gt' ? version > value : op === 'lte' ? version <= value : op === 'lt' ? version < value : version === value,
	);
}

/** Shown for the operation with `baseline` set, at `version`, in a workflow (not as an AI Agent's tool). */
function displayedFor(property: INodeProperties, resource: string, operation: string, baseline: IDataObject, version: number): boolean {
	const show = property.displayOptions?.show ?? {};
	if (!show.resource?.includes(resource) || !show.operation?.includes(operation)) return false;
	for (const [name, values] of Object.entries(show)) {
		if (name === 'resource' || name === 'operation') continue;
		if (name === '@version') {
			if (!(values as unknown[]).some((condition) => versionMatches(condition, version))) return false;
		} else if (name === '@tool') {
			if (!(values as unknown[]).includes(false)) return false;
		} else if (!(values as unknown[]).includes(baseline[name])) return false;
	}
	return true;
}

function ruleFor(property: INodeProperties | INodePropertyOptions | INodePropertyCollection, overrides: Record<string, Rule>): Rule {
	const p = property as INodeProperties;
	if (overrides[p.name]) return overrides[p.name];
	const min = p.typeOptions?.minValue as number | undefined;
	const max = p.typeOptions?.maxValue as number | undefined;
	switch (p.type) {
		case 'number':
			return p.typeOptions?.numberPrecision ? { kind: 'decimal', min, max } : { kind: 'integer', min, max };
		case 'boolean':
			return { kind: 'boolean' };
		case 'options':
			return { kind: 'option', values: (p.options as INodePropertyOptions[]).map((o) => String(o.value)) };
		case 'multiOptions':
			return { kind: 'multiOption', values: (p.options as INodePropertyOptions[]).map((o) => String(o.value)) };
		case 'dateTime':
			return { kind: 'date' };
		case 'string':
			if (/^urls?$/i.test(p.name)) return { kind: 'url', list: p.name.endsWith('s'), required: p.required === true };
			return { kind: 'text', required: p.required === true };
		default:
			return { kind: 'skip', why: `type ${p.type} has a test of its own` };
	}
}

/** Every parameter (and collection option) the operation shows with `baseline` set, with its rule. */
export function parameterCases(nodeType: string, resource: string, operation: string, baseline: IDataObject, overrides: Record<string, Rule> = {}): ParameterCase[] {
	const node = loadPackage().nodes.get(fullNodeType(nodeType));
	if (!node) throw new Error(`no node ${nodeType}`);
	const cases: ParameterCase[] = [];
	// The harness runs a node at its newest version.
	const version = Math.max(...[node.description.version].flat());
	for (const property of node.description.properties) {
		if (!displayedFor(property, resource, operation, baseline, version)) continue;
		if (property.type === 'collection') {
			for (const option of (property.options ?? []) as INodeProperties[]) {
				cases.push({ path: [property.name, option.name], label: option.displayName, rule: ruleFor(option, overrides) });
			}
			continue;
		}
		cases.push({ path: [property.name], label: property.displayName, rule: ruleFor(property, overrides) });
	}
	return cases;
}

/** `baseline` with one parameter (or collection option) set to `stored`. */
export function withValue(baseline: IDataObject, path: ParameterCase['path'], stored: unknown): IDataObject {
	const parameters: IDataObject = { ...baseline };
	if (path.length === 1) parameters[path[0]] = stored as IDataObject[string];
	else parameters[path[0]] = { ...((baseline[path[0]] as IDataObject | undefined) ?? {}), [path[1]]: stored as IDataObject[string] };
	return parameters;
}
