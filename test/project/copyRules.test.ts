/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the product's own source with Node's fs and the TypeScript parser */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import type { ICredentialType, INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeType } from 'n8n-workflow';
import ts from 'typescript';

import { loadPackage } from '../harness';

/**
 * n8n's "UX guidelines for community nodes", as far as text can be checked. Our operation lists and shared
 * properties are generated, so n8n's lint never reads their words: this reads every built description instead.
 */

const ROOT = path.join(__dirname, '..', '..');
const ARTICLES = /\b(a|an|the)\b/i;
/** Words that keep their capitals inside a sentence-case action. */
const PROPER = new Set(['AI', 'API', 'HTML', 'ID', 'IDs', 'JSON', 'PDF', 'PDFs', 'URL', 'URLs', 'USDC', 'Google', 'Markdown', 'CSS', 'UTC']);
/** Small words Title Case leaves in lower case. */
const SMALL = new Set(['m²', 'a', 'an', 'and', 'as', 'at', 'by', 'for', 'from', 'in', 'into', 'of', 'on', 'or', 'per', 'the', 'to', 'with']);
const SIMPLIFY_DESCRIPTION = 'Whether to return a simplified version of the response instead of the raw data';
/** What error messages and descriptions never say (n8n: say what happened instead). */
const BANNED = /\b(errors?|problems?|failures?|failed to|mistakes?)\b/i;

interface Described {
	owner: string;
	property: INodeProperties;
}

function isCollectionEntry(entry: INodeProperties | INodePropertyOptions | INodePropertyCollection): entry is INodePropertyCollection {
	return 'values' in entry;
}

/** Every property of a description, collection options and fixed-collection values included. */
function flatten(owner: string, properties: INodeProperties[]): Described[] {
	const out: Described[] = [];
	for (const property of properties) {
		out.push({ owner, property });
		if (property.type === 'collection' && property.options) flatten(owner, property.options as INodeProperties[]).forEach((d) => out.push(d));
		if (property.type === 'fixedCollection' && property.options) {
			for (const group of property.options) if (isCollectionEntry(group)) flatten(owner, group.values).forEach((d) => out.push(d));
		}
	}
	return out;
}

const { nodes, credentials } = loadPackage();
const nodeTypes: Array<[string, INodeType]> = [...nodes.entries()];
const credentialTypes: ICredentialType[] = [...credentials.values()];
const all: Described[] = [
	...nodeTypes.flatMap(([name, type]) => flatten(name, type.description.properties)),
	...credentialTypes.flatMap((credential) => flatten(credential.name, credential.properties)),
];

function titleCase(text: string): boolean {
	return text
		.replace(/\(.*?\)/g, '')
		.split(/[\s/-]+/)
		.filter(Boolean)
		.every((word, i) => (i > 0 && SMALL.has(word)) || /^[A-Z0-9.'"]/.test(word));
}

function sentenceCase(text: string): boolean {
	const [first, ...rest] = text.split(/\s+/);
	return /^[A-Z]/.test(first) && rest.every((word) => PROPER.has(word.replace(/[^A-Za-z]/g, '')) || !/^[A-Z]/.test(word));
}

describe('operations: actions and names (n8n UX guidelines)', () => {
	const operations = nodeTypes.flatMap(([name, type]) => {
		const resources = type.description.properties.find((p) => p.name === 'resource')?.options as INodePropertyOptions[] | undefined;
		return type.description.properties
			.filter((p) => p.name === 'operation')
			.flatMap((p) => {
				const resourceValue = p.displayOptions?.show?.resource?.[0];
				const resource = resources?.find((r) => r.value === resourceValue)?.name ?? '';
				return (p.options as INodePropertyOptions[]).map((op) => ({ node: name, resource, op }));
			});
	});

	it('finds the operations of all nodes', () => {
		expect(operations.length).toBeGreaterThanOrEqual(25);
	});

	it.each(operations.map((o) => [`${o.node.split('.')[1]} ${o.resource} > ${o.op.name}`, o]))('%s', (_label, { resource, op }) => {
		const action = String(op.action);
		expect(action).not.toMatch(ARTICLES);
		expect(sentenceCase(action)).toBe(true);
		// The resource is repeated in the action, so the actions list reads on its own.
		const noun = resource.toLowerCase().replace(/s$/, '');
		expect(action.toLowerCase()).toContain(noun);
		expect(titleCase(op.name)).toBe(true);
		expect(op.name.toLowerCase()).not.toContain(resource.toLowerCase());
		// The description adds information: it is not the action again.
		expect(String(op.description).toLowerCase().replace(/\.$/, '')).not.toBe(action.toLowerCase());
	});
});

describe('parameters (n8n UX guidelines)', () => {
	it('has a few hundred properties to check', () => {
		expect(all.length).toBeGreaterThan(150);
	});

	// A notice's display name is its text, a sentence (n8n's own notices are sentences).
	it('display names are Title Case', () => {
		const off = all.filter(({ property }) => property.type !== 'notice' && !titleCase(property.displayName)).map(({ owner, property }) => `${owner}: ${property.displayName}`);
		expect(off).toEqual([]);
	});

	it('option names of drop-downs are Title Case', () => {
		const off = all
			.filter(({ property }) => property.type === 'options' || property.type === 'multiOptions')
			.flatMap(({ owner, property }) => ((property.options ?? []) as INodePropertyOptions[]).map((o) => `${owner}: ${property.displayName} > ${o.name}`))
			.filter((label) => !titleCase(label.split(' > ')[1]));
		expect(off).toEqual([]);
	});

	it('example placeholders start with "e.g."', () => {
		const off = all
			.filter(({ property }) => property.placeholder && !['collection', 'fixedCollection'].includes(property.type))
			.filter(({ property }) => !String(property.placeholder).startsWith('e.g. '))
			.map(({ owner, property }) => `${owner}: ${property.displayName}: ${property.placeholder}`);
		const modes = all
			.flatMap(({ owner, property }) => (property.modes ?? []).map((mode) => ({ owner, mode })))
			.filter(({ mode }) => mode.placeholder && mode.type !== 'list' && !mode.placeholder.startsWith('e.g. '))
			.map(({ owner, mode }) => `${owner}: mode ${mode.name}: ${mode.placeholder}`);
		expect([...off, ...modes]).toEqual([]);
	});

	it('collections say what they add', () => {
		const off = all
			.filter(({ property }) => ['collection', 'fixedCollection'].includes(property.type) && property.placeholder)
			.filter(({ property }) => !/^Add [A-Z]/.test(String(property.placeholder)));
		expect(off.map(({ owner, property }) => `${owner}: ${property.displayName}`)).toEqual([]);
	});

	it('hints are at most 120 characters', () => {
		const off = all.filter(({ property }) => (property.hint ?? '').length > 120).map(({ owner, property }) => `${owner}: ${property.displayName}`);
		expect(off).toEqual([]);
	});

	it('booleans say "Whether ..."', () => {
		const off = all
			.filter(({ property }) => property.type === 'boolean' && !String(property.description ?? '').startsWith('Whether '))
			.map(({ owner, property }) => `${owner}: ${property.displayName}`);
		expect(off).toEqual([]);
	});

	it('Simplify is a boolean with the prescribed description', () => {
		const simplify = all.filter(({ property }) => property.displayName === 'Simplify');
		expect(simplify.length).toBeGreaterThan(0);
		for (const { property } of simplify) {
			// Before version 3 Simplify sat in a collection, off by default: saved workflows keep that default.
			const legacy = property.default === false && all.some(({ property: p }) => p.type === 'collection' && (p.options as INodeProperties[]).includes(property));
			expect(property).toMatchObject({ name: 'simplify', type: 'boolean', default: !legacy, description: SIMPLIFY_DESCRIPTION });
		}
	});

	it('parameter names inside descriptions and hints are quoted with single quotes', () => {
		const names = new Set(all.map(({ property }) => property.displayName));
		const off = all
			.flatMap(({ owner, property }) => [property.description, property.hint].filter(Boolean).map((text) => ({ owner, text: String(text) })))
			.filter(({ text }) => [...text.matchAll(/"([^"]+)"/g)].some((m) => names.has(m[1])))
			.map(({ owner, text }) => `${owner}: ${text}`);
		expect(off).toEqual([]);
	});

	it('option lists without a meaningful order are alphabetical', () => {
		// Lists whose order carries meaning (a scale, a recommended first choice) say so here.
		const ordered = new Set(['Agent', 'Channel', 'Sentiment', 'Land Size Minimum', 'Land Size Maximum', 'Wait Until', 'Output', 'Scraper Kind', 'URLs From', 'Search By', 'Direction', 'Property Types']);
		const off = all
			.filter(({ property }) => property.type === 'multiOptions' || (property.type === 'options' && !['resource', 'operation'].includes(property.name)))
			.filter(({ property }) => !ordered.has(property.displayName) && property.typeOptions?.loadOptionsMethod === undefined)
			.filter(({ property }) => {
				const names = ((property.options ?? []) as INodePropertyOptions[]).map((o) => o.name);
				return names.join('|') !== [...names].sort((a, b) => a.localeCompare(b)).join('|');
			})
			.map(({ owner, property }) => `${owner}: ${property.displayName}`);
		expect(off).toEqual([]);
	});

	it("the fields of every collection are alphabetical (n8n's lint asks it of the collections it can read)", () => {
		const off = all
			.filter(({ property }) => property.type === 'collection')
			.filter(({ property }) => {
				const names = ((property.options ?? []) as INodeProperties[]).map((o) => o.displayName);
				return names.join('|') !== [...names].sort((a, b) => a.localeCompare(b)).join('|');
			})
			.map(({ owner, property }) => `${owner}: ${property.displayName}`);
		expect(off).toEqual([]);
	});

	it('resources and the operations of each resource are alphabetical', () => {
		for (const [, type] of nodeTypes) {
			for (const selector of type.description.properties.filter((p) => p.name === 'resource' || p.name === 'operation')) {
				const names = (selector.options as INodePropertyOptions[]).map((o) => o.name);
				expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
			}
		}
	});
});

describe('credentials (n8n UX guidelines)', () => {
	it('API tokens and keys are password fields', () => {
		const secrets = credentialTypes.flatMap((credential) => credential.properties.filter((p) => /token|key|secret/i.test(p.name) && p.type === 'string'));
		expect(secrets.map((p) => p.displayName).sort()).toEqual(['API Token', 'API Token', 'Private Key']);
		for (const secret of secrets) expect(secret.typeOptions?.password).toBe(true);
	});
});

describe('codex files', () => {
	// n8n's node categories as its own nodes use them (its docs still say 'Marketing & Content'; nodes-base says 'Marketing').
	const CATEGORIES = ['AI', 'Analytics', 'Communication', 'Data & Storage', 'Development', 'Finance & Accounting', 'Marketing', 'Miscellaneous', 'Productivity', 'Sales', 'Utility'];
	// Each codex sits beside its node's source, which the package's manifest names (dist/nodes/… → nodes/…).
	const sources = [ROOT, path.join(ROOT, 'x402')].flatMap((root) =>
		(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } }).n8n.nodes.map((file) =>
			path.join(root, file.replace(/^dist\//, '').replace(/\.js$/, '.json')),
		),
	);
	const codexes = nodeTypes.map(([name, type]) => {
		const file = sources.find((source) => path.basename(source) === `${type.description.displayName.replace(/ /g, '')}.node.json`);
		if (!file) throw new Error(`${name}: no node file in the manifests`);
		return [name, type, JSON.parse(readFileSync(file, 'utf8'))] as const;
	});

	it.each(codexes.map(([name, type, codex]) => [name, type, codex]))('%s', (name, type, codex) => {
		const { version, defaultVersion } = type.description;
		const current = defaultVersion ?? (Array.isArray(version) ? Math.max(...version) : version);
		expect(codex.node).toBe(name);
		expect(codex.nodeVersion).toBe(Number.isInteger(current) ? `${current}.0` : String(current));
		expect(codex.categories.length).toBeGreaterThan(0);
		for (const category of codex.categories) expect(CATEGORIES).toContain(category);
		const links = JSON.stringify(codex.resources);
		expect(links).toContain('https://docs.mrscraper.com');
		expect(codex.resources.primaryDocumentation.length).toBeGreaterThan(0);
	});
});

/** Every string and template literal of the product's source, with where it is. */
function literals(dir: string): Array<{ where: string; text: string }> {
	const found: Array<{ where: string; text: string }> = [];
	const walk = (folder: string) => {
		for (const entry of readdirSync(folder)) {
			const file = path.join(folder, entry);
			if (statSync(file).isDirectory()) walk(file);
			else if (file.endsWith('.ts')) {
				const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
				const visit = (node: ts.Node) => {
					if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
						const { line } = source.getLineAndCharacterOfPosition(node.getStart());
						found.push({ where: `${path.relative(ROOT, file)}:${line + 1}`, text: node.text });
					}
					ts.forEachChild(node, visit);
				};
				visit(source);
			}
		}
	};
	walk(dir);
	return found;
}

describe('messages (n8n UX guidelines)', () => {
	const texts = ['nodes', 'credentials', 'x402/nodes', 'x402/credentials'].flatMap((dir) => literals(path.join(ROOT, dir)));

	it('reads the text of the product', () => {
		expect(texts.length).toBeGreaterThan(1000);
	});

	it('no sentence the user reads says error, problem, failure or mistake', () => {
		// A sentence has a space between two words; keys, status values and identifiers have none.
		const off = texts.filter(({ text }) => /[A-Za-z] [A-Za-z]/.test(text) && BANNED.test(text)).map(({ where, text }) => `${where}: ${text}`);
		expect(off).toEqual([]);
	});

	it('field names in messages are quoted with single quotes', () => {
		const names = new Set(all.map(({ property }) => property.displayName));
		const off = texts.filter(({ text }) => [...text.matchAll(/"([^"$]+)"/g)].some((m) => names.has(m[1]))).map(({ where, text }) => `${where}: ${text}`);
		expect(off).toEqual([]);
	});
});
