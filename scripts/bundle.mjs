// Bundles each node and credential listed in package.json into one self-contained file in dist/.
// Why: n8n installs community packages without their dependencies, and the lint forbids runtime
// `dependencies`, so libraries the nodes use at run time (luxon, viem, @x402/*, undici) must ship inside
// dist. n8n-workflow stays external: n8n provides it (peerDependency).
import { build } from 'esbuild';
import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const entries = [...pkg.n8n.nodes, ...pkg.n8n.credentials];
const sourceOf = (dist) => path.join(root, dist.replace(/^dist\//, '').replace(/\.js$/, '.ts'));

await build({
	entryPoints: entries.map(sourceOf),
	outdir: path.join(root, 'dist'),
	outbase: root,
	bundle: true,
	platform: 'node',
	target: 'node20',
	format: 'cjs',
	external: ['n8n-workflow'],
	legalComments: 'linked',
	logLevel: 'warning',
});

// tsc's per-file output is now inside the bundles: remove it so the package ships only what n8n loads.
const keep = new Set(entries.map((e) => path.join(root, e)));
const walk = (dir) => {
	for (const name of readdirSync(dir)) {
		const file = path.join(dir, name);
		if (statSync(file).isDirectory()) {
			walk(file);
			if (readdirSync(file).length === 0) rmSync(file, { recursive: true });
		} else if ((/\.(js|d\.ts|js\.map)$/.test(name) && !keep.has(file)) || name.endsWith(".tsbuildinfo")) {
			rmSync(file);
		}
	}
};
walk(path.join(root, 'dist'));
console.log(`Bundled ${entries.length} entry points into dist/`);
