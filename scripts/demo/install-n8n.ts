/* eslint-disable @n8n/community-nodes/no-restricted-globals -- demo/e2e tooling in plain Node: reads argv */
// `node --import tsx scripts/demo/install-n8n.ts [version ...]`: installs n8n versions into the cache ahead of time.
import { N8N_NEXT, N8N_STABLE, ensureN8n, log } from './runtime';

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const versions = args.length > 0 ? args.map((a) => (a === 'next' ? N8N_NEXT : a === 'stable' ? N8N_STABLE : a)) : [N8N_STABLE];
	for (const version of versions) {
		const rt = await ensureN8n(version);
		log(`n8n ${version} ready: ${rt.n8nBin} on Node ${rt.nodeVersion}`);
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
