// Adds to package-lock.json the platform-specific optional packages (e.g. @swc/core-darwin-arm64) that the
// registry mirror this project is developed against does not serve. npm leaves them out of the lock when it
// cannot fetch them, and `npm ci` then rejects the lock ("Missing: ... from lock file"), because its ideal tree
// still holds a placeholder for every optional dependency. Listing them (version from the parent's
// optionalDependencies, os/cpu/libc from the package name) satisfies that check; installs then skip them on
// every other platform, as npm always does for optional packages.
//
// Run after any `npm install` that changes dependencies: `node scripts/complete-lockfile.mjs`.
// `--check` only reports (exit 1 when entries are missing); test/project/package.test.ts runs it.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const lockPath = path.join(root, 'package-lock.json');
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony'];
const CPU = { arm64: 'arm64', aarch64: 'arm64', x64: 'x64', amd64: 'x64', ia32: 'ia32', arm: 'arm', ppc64: 'ppc64', s390x: 's390x', riscv64: 'riscv64', loong64: 'loong64', mips64el: 'mips64el' };

export function platformOf(name) {
	const parts = name.split('/').pop().split('-');
	const os = parts.find((p) => OS.includes(p));
	const cpu = parts.map((p) => CPU[p]).find(Boolean);
	const libc = parts.includes('musl') || parts.some((p) => p.startsWith('musl')) ? 'musl' : parts.includes('gnu') || parts.some((p) => p.startsWith('gnu')) ? 'glibc' : undefined;
	return { os, cpu, libc };
}

function locate(parentPath, name) {
	// Node's lookup: the parent's own node_modules, then each ancestor's, then the top.
	let dir = parentPath;
	for (;;) {
		const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
		if (packages[candidate]) return candidate;
		if (!dir) return undefined;
		const index = dir.lastIndexOf('/node_modules/');
		dir = index === -1 ? '' : dir.slice(0, index);
	}
}

const added = [];
for (const [parentPath, entry] of Object.entries(packages)) {
	for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
		if (locate(parentPath, name)) continue;
		const key = packages[`node_modules/${name}`] ? `${parentPath}/node_modules/${name}` : `node_modules/${name}`;
		const { os, cpu, libc } = platformOf(name);
		const record = { version, optional: true };
		if (entry.dev) record.dev = true;
		if (os) record.os = [os];
		if (cpu) record.cpu = [cpu];
		if (libc) record.libc = [libc];
		packages[key] = record;
		added.push(`${key}@${version}`);
	}
}

if (process.argv.includes('--check')) {
	if (added.length) {
		console.error(`package-lock.json lacks ${added.length} optional platform packages (npm ci will refuse it):\n  ${added.join('\n  ')}\nRun: node scripts/complete-lockfile.mjs`);
		process.exit(1);
	}
	console.log('package-lock.json lists every optional platform package');
} else {
	lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
	writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
	console.log(added.length ? `Added ${added.length} optional platform packages to package-lock.json` : 'Nothing to add');
}
