/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the repository's own source files with Node's fs */
// The shape of the house, kept by a test so it does not drift back: small files and functions, `nodes/shared/`
// free of any one API or node, and imports that only point down (no cycles, nothing from tests).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');
const SOURCE_DIRS = ['nodes', 'credentials', 'x402/nodes', 'x402/credentials'];
const MAX_FILE_LINES = 250;
const MAX_FUNCTION_LINES = 60;

function sourceFiles(dir: string): string[] {
	return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = `${dir}/${entry.name}`;
		if (entry.isDirectory()) return sourceFiles(relative);
		return entry.name.endsWith('.ts') ? [relative] : [];
	});
}

const files = SOURCE_DIRS.flatMap(sourceFiles);
/** What the tests run on and what a user runs: held to the product's sizes too (test files themselves aside). */
const INFRA_DIRS = ['scripts', 'test/simulator', 'test/harness', 'test/e2e', 'test/bench'];
const infraFiles = INFRA_DIRS.flatMap(sourceFiles).filter((file) => !file.endsWith('.test.ts'));
const parsed = new Map(files.map((file) => [file, ts.createSourceFile(file, readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true)]));

function lineOf(source: ts.SourceFile, position: number): number {
	return source.getLineAndCharacterOfPosition(position).line + 1;
}

/** Every function, method and arrow longer than the limit, as `file:line name (n lines)`. */
function longFunctions(file: string, source: ts.SourceFile): string[] {
	const found: string[] = [];
	const visit = (node: ts.Node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const lines = lineOf(source, node.getEnd()) - lineOf(source, node.getStart()) + 1;
			if (lines > MAX_FUNCTION_LINES) {
				const name = node.name?.getText(source) ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : '(anonymous)');
				found.push(`${file}:${lineOf(source, node.getStart())} ${name} (${lines} lines)`);
			}
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/**
 * The repository files a source file imports, type-only imports and re-exports included (a cycle of types is still a
 * circle a reader follows), normalised to repository paths.
 */
function importsOf(file: string, source: ts.SourceFile): string[] {
	return source.statements
		.filter((statement): statement is ts.ImportDeclaration | ts.ExportDeclaration => ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement))
		.flatMap((statement) => (statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? [statement.moduleSpecifier.text] : []))
		.filter((specifier) => specifier.startsWith('.'))
		.map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)))
		.map((target) => (files.includes(`${target}.ts`) ? `${target}.ts` : `${target}/index.ts`));
}

/**
 * The service a file serves: its house, with each trigger's entry folder counted with its service (n8n's lint wants a
 * node's file in a folder named like it, so `ScraperBulkTrigger.node.ts` cannot sit in `ScraperPlatform/`).
 */
function serviceOf(file: string): string {
	const house = houseOf(file) ?? file.split('/')[0];
	return TRIGGER_SERVICE[house] ?? house;
}

const TRIGGER_SERVICE: Record<string, string> = {
	'nodes/ScraperBulkTrigger': 'nodes/ScraperPlatform',
	'nodes/ScraperRunTrigger': 'nodes/ScraperMarketplace',
};

/** `nodes/ScraperPlatform/actions/bulk/start.ts` -> `nodes/ScraperPlatform` (the service's house), else undefined. */
function houseOf(file: string): string | undefined {
	return /^(nodes\/[^/]+|x402\/nodes\/[^/]+)\//.exec(file)?.[1];
}

describe('the house', () => {
	it(`keeps every source file at ${MAX_FILE_LINES} lines or fewer`, () => {
		expect(files.length).toBeGreaterThan(60);
		const long = files
			.map((file) => ({ file, lines: parsed.get(file)!.getLineAndCharacterOfPosition(parsed.get(file)!.end).line }))
			.filter(({ lines }) => lines > MAX_FILE_LINES)
			.map(({ file, lines }) => `${file} (${lines} lines)`);
		expect(long).toEqual([]);
	});

	it(`keeps every function at ${MAX_FUNCTION_LINES} lines or fewer`, () => {
		expect([...parsed].flatMap(([file, source]) => longFunctions(file, source))).toEqual([]);
	});

	it(`keeps scripts and test infrastructure at ${MAX_FILE_LINES} lines a file and ${MAX_FUNCTION_LINES} a function`, () => {
		expect(infraFiles.length).toBeGreaterThan(50);
		const sources = infraFiles.map((file) => [file, ts.createSourceFile(file, readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true)] as const);
		const long = sources
			.map(([file, source]) => ({ file, lines: source.getLineAndCharacterOfPosition(source.end).line }))
			.filter(({ lines }) => lines > MAX_FILE_LINES)
			.map(({ file, lines }) => `${file} (${lines} lines)`);
		expect(long).toEqual([]);
		expect(sources.flatMap(([file, source]) => longFunctions(file, source))).toEqual([]);
	});

	it('keeps nodes/shared free of any one node or API: it imports only nodes/shared', () => {
		const outward = files
			.filter((file) => file.startsWith('nodes/shared/'))
			.flatMap((file) => importsOf(file, parsed.get(file)!).map((target) => `${file} -> ${target}`))
			.filter((edge) => !edge.split(' -> ')[1].startsWith('nodes/shared/'));
		expect(outward).toEqual([]);
	});

	it("imports a node's actions only from that node: triggers and pickers share descriptions/ and transport/", () => {
		const intoActions = files.flatMap((file) =>
			importsOf(file, parsed.get(file)!)
				.filter((target) => /\/actions\//.test(target))
				.filter((target) => {
					const house = houseOf(target);
					const fromNode = file === `${house}/${path.posix.basename(house ?? '')}.node.ts`;
					return !(file.startsWith(`${house}/actions/`) || fromNode);
				})
				.map((target) => `${file} -> ${target}`),
		);
		expect(intoActions).toEqual([]);
	});

	it('keeps nodes/shared in named folders, each file reached by more than one house', () => {
		expect(files.filter((file) => /^nodes\/shared\/[^/]+\.ts$/.test(file))).toEqual([]);
		// The houses whose code reaches each shared file, directly or through other shared files.
		const reached = new Map<string, Set<string>>();
		const reach = (target: string, house: string, seen: Set<string>) => {
			if (!target.startsWith('nodes/shared/') || seen.has(target)) return;
			seen.add(target);
			if (!reached.has(target)) reached.set(target, new Set());
			reached.get(target)!.add(house);
			for (const next of importsOf(target, parsed.get(target)!)) reach(next, house, seen);
		};
		for (const file of files.filter((f) => !f.startsWith('nodes/shared/'))) {
			const house = serviceOf(file);
			for (const target of importsOf(file, parsed.get(file)!)) reach(target, house, new Set());
		}
		const shared = files.filter((file) => file.startsWith('nodes/shared/'));
		// Reached by one service only: that knowledge belongs to its service.
		expect(shared.filter((file) => (reached.get(file)?.size ?? 0) < 2).map((file) => `${file}: ${[...(reached.get(file) ?? [])].join(', ')}`)).toEqual([]);
	});

	it('has no import cycles and never imports tests or scripts', () => {
		const graph = new Map(files.map((file) => [file, importsOf(file, parsed.get(file)!)]));
		expect([...graph].flatMap(([file, targets]) => targets.filter((t) => !files.includes(t)).map((t) => `${file} -> ${t}`))).toEqual([]);
		const cycles: string[] = [];
		const state = new Map<string, 'open' | 'done'>();
		const visit = (file: string, trail: string[]) => {
			if (state.get(file) === 'done') return;
			if (state.get(file) === 'open') {
				cycles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
				return;
			}
			state.set(file, 'open');
			for (const target of graph.get(file) ?? []) visit(target, [...trail, file]);
			state.set(file, 'done');
		};
		for (const file of files) visit(file, []);
		expect(cycles).toEqual([]);
	});
});

/** Where each service's code lives, by the name of its test folder. */
const SERVICE_CODE: Record<string, string> = {
	platform: 'nodes/ScraperPlatform',
	marketplace: 'nodes/ScraperMarketplace',
	gateway: 'x402/nodes/ScraperGateway',
};
/** Test folders that are not a service's or a shared folder's: what tests the repository, the simulator, real n8n. */
const OTHER_TEST_FOLDERS = ['project', 'simulator-tests', 'e2e'];

const exists = (relative: string): boolean => existsSync(path.join(ROOT, relative));

/**
 * Why a test file stands where it does not belong, or undefined. Tests mirror the code (Microsoft Teams v2's
 * `test/v2/node/<resource>/<operation>.test.ts` is the model): `test/<service>/<resource>/<operation>.test.ts` for an
 * operation, `test/<service>/<folder>/` for the service's own code folders (trigger, transport, methods, runs,
 * payment), `test/<service>/node/` for what spans a node's operations, `test/<service>/<file>.test.ts` beside a file
 * at the service's root (and its credentials), `test/shared/<folder>/` for `nodes/shared/<folder>/`.
 */
function misplacedTest(file: string): string | undefined {
	const [, top, ...rest] = file.split('/');
	const name = path.posix.basename(file).replace(/(\.property)?\.test\.ts$/, '');
	const folder = rest.length > 1 ? rest[0] : undefined;
	if (OTHER_TEST_FOLDERS.includes(top)) return undefined;
	if (rest.length > 2) return 'too deep: test/<service or shared>/<folder>/<name>.test.ts at most';
	if (top === 'shared') return folder && exists(`nodes/shared/${folder}`) ? undefined : `no folder nodes/shared/${folder ?? ''} to mirror`;
	const code = SERVICE_CODE[top];
	if (!code) return `test/${top}/ is neither a service (${Object.keys(SERVICE_CODE).join(', ')}) nor shared/ nor ${OTHER_TEST_FOLDERS.join(', ')}`;
	if (folder === undefined) return exists(`${code}/${name}.ts`) || name === 'credentials' ? undefined : `no ${code}/${name}.ts beside it`;
	if (exists(`${code}/actions/${folder}`)) return exists(`${code}/actions/${folder}/${name}.ts`) ? undefined : `no ${code}/actions/${folder}/${name}.ts`;
	return folder === 'node' || exists(`${code}/${folder}`) ? undefined : `no folder ${code}/${folder} (nor actions/${folder}) to mirror`;
}

/**
 * Every display name of a parameter or credential field (`displayName: '...'` in a property literal), with where it is
 * declared; the node and credential names ("Scraper ...") are products, not fields.
 */
function declaredDisplayNames(): Set<string> {
	const names = new Set<string>();
	for (const [, source] of parsed) {
		const visit = (node: ts.Node) => {
			if (ts.isPropertyAssignment(node) && node.name.getText(source) === 'displayName' && ts.isStringLiteralLike(node.initializer)) {
				const name = node.initializer.text;
				if (name.length >= 3 && !/^Scraper /.test(name)) names.add(name);
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return names;
}

/** The keys whose string value declares something rather than repeating it: a display name, an option's name, an action. */
const DECLARING_KEYS = new Set(['displayName', 'name', 'action', 'value']);

/**
 * Where product code types a display name again: as a whole string (a check's label, a table entry) or quoted inside
 * a text ("Raise 'Max Wait (Seconds)'"). Each field is declared once; its label comes from its declaration.
 */
function retypedDisplayNames(): string[] {
	const names = [...declaredDisplayNames()];
	const found: string[] = [];
	for (const [file, source] of parsed) {
		const visit = (node: ts.Node) => {
			const text = ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) ? (node as ts.LiteralLikeNode).text : undefined;
			const declaring = node.parent && ts.isPropertyAssignment(node.parent) && node.parent.initializer === node && DECLARING_KEYS.has(node.parent.name.getText(source));
			if (text !== undefined && !declaring) {
				const hit = names.find((name) => text === name || text.includes(`'${name}'`));
				if (hit) found.push(`${file}:${lineOf(source, node.getStart())} '${hit}'`);
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return found;
}

describe('the fields', () => {
	it('type each display name once, in its declaration: checks, errors and tables take it from there', () => {
		expect(declaredDisplayNames().size).toBeGreaterThan(100);
		expect(retypedDisplayNames()).toEqual([]);
	});
});

describe('the tests', () => {
	it('mirror the code: each test file stands where the code it tests stands', () => {
		const tests = sourceFiles('test').filter((file) => file.endsWith('.test.ts'));
		expect(tests.length).toBeGreaterThan(100);
		expect(tests.map((file) => [file, misplacedTest(file)]).filter(([, why]) => why !== undefined)).toEqual([]);
	});

	it('give every operation a test file of its own', () => {
		const operations = Object.entries(SERVICE_CODE).flatMap(([service, code]) =>
			readdirSync(path.join(ROOT, code, 'actions'), { withFileTypes: true })
				.filter((entry) => entry.isDirectory())
				.flatMap((resource) => readdirSync(path.join(ROOT, code, 'actions', resource.name)).map((file) => ({ service, resource: resource.name, file }))),
		);
		const declared = operations.filter(({ service, resource, file }) => /export const \w+: Operation\b/.test(readFileSync(path.join(ROOT, SERVICE_CODE[service], 'actions', resource, file), 'utf8')));
		expect(declared.length).toBeGreaterThan(25);
		expect(declared.map(({ service, resource, file }) => `test/${service}/${resource}/${file.replace(/\.ts$/, '.test.ts')}`).filter((test) => !exists(test))).toEqual([]);
	});
});
