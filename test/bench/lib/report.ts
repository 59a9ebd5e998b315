/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- benchmark code runs in plain Node, never inside n8n: it reads the machine and asks git for the commit it measured */
import { execSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

import { median, round } from './stats';

/** One reported number: the pack's figure, its baseline from the same run, and their ratio. */
export interface Measure {
	/** Stable name, used to pair a figure with its "before" value. */
	slug: string;
	label: string;
	unit: string;
	/** Median of `samples` (or an exact count). */
	value: number;
	samples?: number[];
	baseline?: { label: string; value: number; samples?: number[] };
	/** value / baseline.value, unless given (e.g. a minimum). */
	ratio?: number;
	/** What the ratio means, e.g. "lower is better". */
	ratioNote?: string;
	/** Set when the figure crosses a threshold a user would notice. */
	flag?: string;
	/** Listed in the summary table. */
	headline?: boolean;
}

export interface FigureResult {
	id: number;
	title: string;
	/** How it was measured (bullets). */
	setup: string[];
	measures: Measure[];
	notes: string[];
}

export interface Machine {
	cpu: string;
	cores: number;
	memoryGiB: number;
	node: string;
	n8nCore: string;
	platform: string;
	commit: string;
	/** What was loaded: the built bundle (dist/, as n8n loads it) or the TypeScript source. */
	package?: string;
	loadStart: number[];
	loadEnd?: number[];
}

export interface BenchRun {
	date: string;
	durationSeconds: number;
	reps: number;
	warmups: number;
	machine: Machine;
	figures: FigureResult[];
	/** Repetitions that failed for an environmental reason and were run again. */
	retried?: string[];
}

const ROOT = path.resolve(__dirname, '../../..');

function gitCommit(): string {
	try {
		const head = execSync('git rev-parse --short HEAD', { cwd: ROOT, encoding: 'utf8' }).trim();
		const dirty = execSync('git status --porcelain -- nodes credentials', { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
		return dirty ? `${head} (nodes/ or credentials/ modified)` : head;
	} catch {
		return 'unknown';
	}
}

export function machineInfo(): Machine {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the installed version, as n8n-core reports it
	const n8nCore = (require('n8n-core/package.json') as { version: string }).version;
	return {
		cpu: os.cpus()[0]?.model ?? 'unknown',
		cores: os.cpus().length,
		memoryGiB: round(os.totalmem() / 2 ** 30, 1),
		node: process.version,
		n8nCore,
		platform: `${os.type()} ${os.release()} ${os.arch()}`,
		// A run outside the repository (e.g. a tree with a fix reverted) names what it measured.
		commit: process.env.BENCH_COMMIT ?? gitCommit(),
		package: process.env.SCRAPER_PACKAGE_FROM === 'dist' ? 'dist/, the bundle n8n loads (built by `npm run build` first)' : 'the TypeScript source, run by tsx',
		loadStart: os.loadavg().map((l) => round(l, 2)),
	};
}

/** A measure whose value and baseline are medians of samples; the ratio is pack / baseline. */
export function timedMeasure(
	slug: string,
	label: string,
	samples: number[],
	baseline: { label: string; samples: number[] } | undefined,
	extra: Partial<Measure> = {},
): Measure {
	const value = median(samples);
	const measure: Measure = { slug, label, unit: 'ms', value, samples, ...extra };
	if (baseline) {
		const base = median(baseline.samples);
		measure.baseline = { label: baseline.label, value: base, samples: baseline.samples };
		measure.ratio ??= value / base;
	}
	return measure;
}

function fmt(value: number, unit: string): string {
	if (!Number.isFinite(value)) return String(value);
	if (unit === 'ms') return value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`;
	if (unit === 'MB') return `${value.toFixed(1)} MB`;
	if (unit === 'requests' && value === 1) return '1 request';
	if (unit === '') return Number.isInteger(value) ? value.toLocaleString('en-US') : value.toFixed(2);
	const text = Number.isInteger(value) ? value.toLocaleString('en-US') : value.toFixed(2);
	return `${text} ${unit}`;
}

function fmtSamples(samples: number[] | undefined, unit: string): string {
	if (!samples || samples.length === 0) return '';
	const digits = unit === 'ms' ? 0 : 1;
	return samples.map((s) => s.toFixed(digits)).join(', ');
}

function ratioText(m: Measure): string {
	if (m.ratio === undefined) return '';
	return `${m.ratio.toFixed(2)}x`;
}

function measureTable(measures: Measure[]): string[] {
	const lines = [
		'| Measure | Pack | Baseline | Ratio | Samples (pack / baseline) |',
		'|---|---|---|---|---|',
	];
	for (const m of measures) {
		const baseline = m.baseline ? `${fmt(m.baseline.value, m.unit)} (${m.baseline.label})` : '';
		const samples = [fmtSamples(m.samples, m.unit), fmtSamples(m.baseline?.samples, m.unit)].filter(Boolean).join(' / ');
		const ratio = `${ratioText(m)}${m.ratioNote ? ` ${m.ratioNote}` : ''}${m.flag ? ` **${m.flag}**` : ''}`;
		lines.push(`| ${m.label} | ${fmt(m.value, m.unit)} | ${baseline} | ${ratio} | ${samples} |`);
	}
	return lines;
}

/** The figures in Markdown, with the machine they ran on and, when given, the numbers before the fixes. */
export function renderMarkdown(run: BenchRun, before?: BenchRun, isBefore = false): string {
	const out: string[] = [...introduction(run, isBefore), ...machineTable(run), ...summaryTable(run)];
	for (const figure of run.figures) out.push(...figureSection(figure));
	if (run.retried && run.retried.length > 0) {
		out.push('## Repetitions run again', '', 'These failed for a reason outside the pack (listed as they happened) and were run again:', '');
		for (const line of run.retried) out.push(`- ${line}`);
		out.push('');
	}
	if (before) {
		out.push(...beforeAfter(run, before));
	}
	return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

function introduction(run: BenchRun, isBefore: boolean): string[] {
	return [
		'# Benchmark results',
		'',
		'Generated by `npm run bench` (`test/bench/run.ts`); do not edit by hand. Benchmarks report, they assert no times.',
		`Every time is the median of ${run.reps} repetitions after ${run.warmups} warm-up, with its baseline measured in the`,
		'same process, taking turns with it in each repetition (garbage collected before each timed run). Memory figures come',
		'from child processes (one per repetition).',
		'',
		...(isBefore
			? [
					'## Before the fixes',
					'',
					'This run is the **before** of the fixes its notes propose (`npm run bench -- --save-before`, saved as',
					'`test/bench/before.json`). `npm run bench` measures again and adds a "Before and after the fixes" table to RESULTS.md.',
					'',
				]
			: []),
	];
}

function machineTable(run: BenchRun): string[] {
	const m = run.machine;
	return [
		'## Machine',
		'',
		'| | |',
		'|---|---|',
		`| CPU | ${m.cpu}, ${m.cores} cores |`,
		`| Memory | ${m.memoryGiB} GiB |`,
		`| OS | ${m.platform} |`,
		`| Node | ${m.node} |`,
		`| n8n-core | ${m.n8nCore} |`,
		`| Date | ${run.date} |`,
		`| Commit | ${m.commit} |`,
		`| Package measured | ${m.package ?? 'the TypeScript source, run by tsx'} |`,
		`| Load average (1/5/15 min) at start, end | ${m.loadStart.join(' / ')}; ${(m.loadEnd ?? []).join(' / ')} |`,
		`| Whole run | ${run.durationSeconds.toFixed(0)} s |`,
		'',
	];
}

/** Every figure's headline measures in one table. */
function summaryTable(run: BenchRun): string[] {
	const out = ['## Summary', '', '| # | Figure | Pack | Baseline | Ratio |', '|---|---|---|---|---|'];
	for (const figure of run.figures) {
		for (const measure of figure.measures.filter((x) => x.headline)) {
			const baseline = measure.baseline ? `${fmt(measure.baseline.value, measure.unit)} (${measure.baseline.label})` : '';
			const ratio = `${ratioText(measure)}${measure.ratioNote ? ` ${measure.ratioNote}` : ''}${measure.flag ? ` **${measure.flag}**` : ''}`;
			out.push(`| ${figure.id} | ${figure.title}: ${measure.label} | ${fmt(measure.value, measure.unit)} | ${baseline} | ${ratio} |`);
		}
	}
	out.push('', 'Measures marked with a flag cross a threshold a user would notice (overhead ratio above 1.10, more than one', 'request per paid item, memory above 3x the payload); the notes under the figure give the cause.', '');
	return out;
}

function figureSection(figure: FigureResult): string[] {
	const out = [`## ${figure.id}. ${figure.title}`, ''];
	for (const line of figure.setup) out.push(`- ${line}`);
	out.push('', ...measureTable(figure.measures), '');
	for (const note of figure.notes) out.push(note, '');
	return out;
}

/** The headline measures of the run recorded before the fixes next to today's. */
function beforeAfter(run: BenchRun, before: BenchRun): string[] {
	const out = [
		'## Before and after the fixes',
		'',
		`"Before" is \`test/bench/before.json\` (full report: \`test/bench/RESULTS.before.md\`): the same suite on the same machine,`,
		`run on ${before.date} (${before.machine.commit}; load average ${before.machine.loadStart.join(' / ')} at its start), before the causes`,
		'found by the figures were fixed.',
		'',
		'| # | Measure | Before | After | Before ratio | After ratio |',
		'|---|---|---|---|---|---|',
	];
	for (const figure of run.figures) {
		const old = before.figures.find((f) => f.id === figure.id);
		if (!old) continue;
		for (const measure of figure.measures) {
			const previous = old.measures.find((x) => x.slug === measure.slug);
			if (!previous) continue;
			out.push(
				`| ${figure.id} | ${measure.label} | ${fmt(previous.value, previous.unit)} | ${fmt(measure.value, measure.unit)} | ${ratioText(previous)} | ${ratioText(measure)} |`,
			);
		}
	}
	out.push('');
	return out;
}
