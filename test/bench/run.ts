/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the benchmark runner is plain Node: it reads arguments, writes files and exits */
// First: n8n-core reads its user folder when it loads; keep it away from the real ~/.n8n.
import '../harness/setup';

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { memoryFigure } from './figures/memory';
import { overheadFigure } from './figures/overhead';
import { pageFetchFigure } from './figures/pageFetch';
import { paidFigure } from './figures/paid';
import { parallelFigure } from './figures/parallel';
import { returnAllFigure } from './figures/returnAll';
import { throughputFigure } from './figures/throughput';
import { triggerFigure } from './figures/trigger';
import type { BenchRun, FigureResult } from './lib/report';
import { machineInfo, renderMarkdown } from './lib/report';
import type { BenchSettings, MemoryCaseName } from './lib/stats';
import { MEMORY_CASES, retried, round } from './lib/stats';

const HERE = __dirname;
const RESULTS_MD = path.join(HERE, 'RESULTS.md');
const RESULTS_JSON = path.join(HERE, 'results.json');
const BEFORE_JSON = path.join(HERE, 'before.json');
const BEFORE_MD = path.join(HERE, 'RESULTS.before.md');

const FIGURES: Record<number, (settings: BenchSettings) => Promise<FigureResult>> = {
	1: overheadFigure,
	2: paidFigure,
	3: parallelFigure,
	4: triggerFigure,
	5: memoryFigure,
	6: returnAllFigure,
	7: throughputFigure,
	8: pageFetchFigure,
};

interface Args {
	only?: number[];
	reps: number;
	warmups: number;
	saveBefore: boolean;
	out?: string;
	memory?: MemoryCaseName[];
}

function parseArgs(argv: string[]): Args {
	const args: Args = { reps: 5, warmups: 1, saveBefore: false };
	for (const arg of argv) {
		const [name, value] = arg.replace(/^--/, '').split('=');
		if (name === 'only') args.only = value.split(',').map(Number);
		else if (name === 'reps') args.reps = Math.max(1, Number(value));
		else if (name === 'warmups') args.warmups = Math.max(0, Number(value));
		else if (name === 'save-before') args.saveBefore = true;
		else if (name === 'out') args.out = path.resolve(value);
		else if (name === 'memory') args.memory = value.split(',').filter((c): c is MemoryCaseName => (MEMORY_CASES as readonly string[]).includes(c));
		else throw new Error(`unknown argument ${arg}: use --only=1,6 --reps=5 --warmups=1 --memory=${MEMORY_CASES.join(',')} --save-before --out=FILE`);
	}
	return args;
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	// Measure what users run: the bundle `npm run bench` has just built (tsx's source costs more per call).
	// Set before any node loads; the memory children inherit it.
	process.env.SCRAPER_PACKAGE_FROM ??= 'dist';
	const settings: BenchSettings = {
		reps: args.reps,
		warmups: args.warmups,
		log: (line) => process.stderr.write(`${line}\n`),
		memoryCases: args.memory,
	};
	const machine = machineInfo();
	const started = Date.now();
	const figures: FigureResult[] = [];
	const selected = (args.only ?? Object.keys(FIGURES).map(Number)).sort((a, b) => a - b);
	for (const id of selected) {
		const run = FIGURES[id];
		if (!run) throw new Error(`no figure ${id}`);
		const figureStart = Date.now();
		settings.log(`figure ${id} ...`);
		figures.push(await run(settings));
		settings.log(`figure ${id} done in ${((Date.now() - figureStart) / 1000).toFixed(0)} s`);
	}
	machine.loadEnd = os.loadavg().map((l) => round(l, 2));
	const result: BenchRun = {
		date: new Date(started).toISOString(),
		durationSeconds: (Date.now() - started) / 1000,
		reps: args.reps,
		warmups: args.warmups,
		machine,
		figures,
		retried,
	};
	const before = existsSync(BEFORE_JSON) && !args.saveBefore ? (JSON.parse(readFileSync(BEFORE_JSON, 'utf8')) as BenchRun) : undefined;
	const markdown = renderMarkdown(result, before, args.saveBefore);
	const complete = args.only === undefined && args.memory === undefined;
	// A partial run never overwrites the committed results unless asked to; a "before" run writes its own files.
	const out = args.out ?? (complete ? (args.saveBefore ? BEFORE_MD : RESULTS_MD) : undefined);
	if (out) writeFileSync(out, markdown);
	if (complete && !args.saveBefore) writeFileSync(RESULTS_JSON, `${JSON.stringify(result, null, '\t')}\n`);
	if (args.saveBefore) writeFileSync(BEFORE_JSON, `${JSON.stringify(result, null, '\t')}\n`);
	process.stdout.write(out ? `wrote ${path.relative(process.cwd(), out)}\n` : markdown);
}

main().then(
	// n8n-core keeps module-level timers open after a run: leave explicitly.
	() => process.exit(0),
	(error: unknown) => {
		process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
		process.exit(1);
	},
);
