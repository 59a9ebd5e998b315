// Builds the x402 package into x402/dist: each node and credential its package.json lists becomes one
// self-contained file. Why a bundle: n8n installs community packages without their dependencies, and the gateway
// needs viem (signing), @x402/* (the protocol) and undici (the paid request) at run time. The shared mechanics
// from ../nodes/shared are compiled in too. n8n-workflow stays external: n8n provides it (peerDependency).
// Run from the repository root with `npm run build` (after its `npm ci`), or here with `npm run build`.
import { build } from 'esbuild';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const out = path.join(here, 'dist');
const pkg = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));
const entries = [...pkg.n8n.nodes, ...pkg.n8n.credentials];
const sourceOf = (dist) => path.join(here, dist.replace(/^dist\//, '').replace(/\.js$/, '.ts'));

rmSync(out, { recursive: true, force: true });
await build({
	entryPoints: entries.map(sourceOf),
	outdir: out,
	outbase: here,
	bundle: true,
	platform: 'node',
	target: 'node20',
	format: 'cjs',
	external: ['n8n-workflow'],
	legalComments: 'linked',
	logLevel: 'warning',
});

// Lint directives of the bundled libraries (and our own) mean nothing in the output, and the repository's lint,
// which sees x402/dist after a build, reports them as unused: drop those one-line comments.
for (const entry of entries) {
	const file = path.join(here, entry);
	const code = readFileSync(file, 'utf8');
	writeFileSync(file, code.replace(/^[ \t]*(\/\/ eslint-(disable|enable)[^\n]*|\/\* eslint-(disable|enable)[^\n]*?\*\/[ \t]*)\n/gm, ''));
}

// What n8n reads beside each bundle: the node's codex (.node.json) and the icons (x402/icons links to the
// repository's icons/, which both packages share).
for (const entry of pkg.n8n.nodes) {
	const codex = sourceOf(entry).replace(/\.ts$/, '.json');
	cpSync(codex, path.join(out, path.relative(here, codex)));
}
mkdirSync(path.join(out, 'icons'), { recursive: true });
cpSync(path.join(here, 'icons'), path.join(out, 'icons'), { recursive: true, dereference: true });
console.log(`Bundled ${entries.length} entry points into x402/dist/`);
