/* eslint-disable @n8n/community-nodes/no-restricted-globals -- demo/e2e tooling in plain Node: reads argv */
// `node --import tsx scripts/demo/install-n8n.ts [version ...]`: installs n8n versions into the cache ahead of time.
// Versions: x.y.z, `oldest` (N8N_OLDEST), `stable` (N8N_STABLE), `next` (N8N_NEXT), `newest` (the newest that installs here, found at run time).
import { N8N_NEXT, N8N_OLDEST, N8N_STABLE, ensureN8n, log, newestInstallableN8n } from './runtime';

async function resolve(arg: string): Promise<string> {
	if (arg === 'next') return N8N_NEXT;
	if (arg === 'stable') return N8N_STABLE;
	if (arg === 'oldest') return N8N_OLDEST;
	if (arg !== 'newest') return arg;
	const newest = await newestInstallableN8n();
	for (const s of newest.skipped) log(`Skipping n8n ${s.version}: ${s.reason}`);
	log(`Newest n8n that installs here: ${newest.version} (${newest.source === 'registry' ? 'from the registry' : 'fallback: N8N_NEXT'})`);
	return newest.version;
}

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const versions = args.length > 0 ? args : ['stable'];
	for (const arg of versions) {
		const version = await resolve(arg);
		const rt = await ensureN8n(version);
		log(`n8n ${version} ready: ${rt.n8nBin} on Node ${rt.nodeVersion}`);
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
