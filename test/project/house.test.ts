/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the repository's own source files with Node's fs */
// The shape of the house, kept by a test so it does not drift back: small files and functions, `nodes/shared/`
// free of any one API or node, and imports that only point down (no cycles, nothing from tests).
import { readdirSync, readFileSync } from 'node:fs';
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
 * The repository files a source file imports at run time (relative imports; `import type` is gone once compiled),
 * normalised to repository paths.
 */
function importsOf(file: string, source: ts.SourceFile): string[] {
	return source.statements
		.filter(ts.isImportDeclaration)
		.filter((statement) => !statement.importClause?.isTypeOnly)
		.map((statement) => (statement.moduleSpecifier as ts.StringLiteral).text)
		.filter((specifier) => specifier.startsWith('.'))
		.map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)))
		.map((target) => (files.includes(`${target}.ts`) ? `${target}.ts` : `${target}/index.ts`));
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

	it('keeps nodes/shared free of any one node or API: it imports only nodes/shared', () => {
		const outward = files
			.filter((file) => file.startsWith('nodes/shared/'))
			.flatMap((file) => importsOf(file, parsed.get(file)!).map((target) => `${file} -> ${target}`))
			.filter((edge) => !edge.split(' -> ')[1].startsWith('nodes/shared/'));
		expect(outward).toEqual([]);
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
