import { walletCredential } from '../../gateway/support';
import { GatewaySimulator } from '../../simulator/gateway';
import { DEMO_MANUAL_SCRAPER_IDS, PLATFORM_DEMO_TOKEN, PlatformSimulator } from '../../simulator/platform';
import { platformCredentials } from '../lib/platform';
import type { FigureResult } from '../lib/report';
import type { BenchSettings } from '../lib/stats';
import { MEMORY_CASES, median } from '../lib/stats';
import { RECORDS, SCREENSHOT_BYTES, THRESHOLD, bulkNotes, growthMeasure, retainedMeasure, screenshotNotes, series, urlsForRecords } from './memory/measures';
import type { CaseResults } from './memory/measures';
import { pageScreenshotCases } from './memory/pageScreenshots';


async function screenshotCases(settings: BenchSettings): Promise<CaseResults> {
	const sim = await GatewaySimulator.start({ testWalletCount: 1 });
	try {
		const wallet = sim.testWallets[0];
		const credentials = walletCredential(sim, wallet);
		let n = 0;
		const page = () => ({ url: `https://gallery.example.com/bench/${++n}`, warmUrl: `https://gallery.example.com/warm/${n}` });
		const gateway = { url: sim.url, network: sim.network, tokenAddress: sim.tokenAddress };
		const results = await series(
			settings,
			'20 MB screenshot',
			{
				nodeMemory: () => ({ kind: 'screenshot-node', binaryMode: 'memory', credentials, ...page() }),
				nodeFilesystem: () => ({ kind: 'screenshot-node', binaryMode: 'filesystem', credentials, ...page() }),
				download: () => ({ kind: 'screenshot-download', gateway, privateKey: wallet.privateKey, ...page() }),
				text: () => ({ kind: 'screenshot-text', gateway, privateKey: wallet.privateKey, ...page() }),
				reader: () => ({ kind: 'screenshot-reader', gateway, privateKey: wallet.privateKey, ...page() }),
			},
			() => (sim.options.screenshotBytes = SCREENSHOT_BYTES),
			() => (sim.options.screenshotBytes = undefined),
		);
		for (const name of ['nodeMemory', 'nodeFilesystem', 'text', 'reader']) {
			if (results[name].payload.some((bytes) => bytes !== SCREENSHOT_BYTES)) throw new Error(`${name} got ${results[name].payload.join(', ')} bytes of screenshot`);
		}
		const body = median(results.download.payload);
		const download = { label: 'download into a Buffer', series: results.download };
		return {
			measures: [
				growthMeasure('5.screenshotNodeFs', '20 MB screenshot -> binary, node (binary data on disk: n8n 2.x\'s default "filesystem" mode)', results.nodeFilesystem, SCREENSHOT_BYTES, download, true),
				growthMeasure('5.screenshotNode', '20 MB screenshot -> binary, node (binary data in memory: n8n\'s "default" mode, and the harness alone)', results.nodeMemory, SCREENSHOT_BYTES, download),
				growthMeasure('5.screenshotReader', 'Reference, no n8n: the pack\'s reader alone (x402/nodes/ScraperGateway/transport/base64Fields.ts: the field decoded while the answer streams in)', results.reader, SCREENSHOT_BYTES, download),
				growthMeasure('5.screenshotText', 'Reference, no n8n: undici body.text() + JSON.parse + base64 decode (what the node did before the reader)', results.text, SCREENSHOT_BYTES, download),
				growthMeasure('5.screenshotDownload', 'Baseline: the answer downloaded into a Buffer (undici body.arrayBuffer)', results.download, SCREENSHOT_BYTES),
				retainedMeasure('5.screenshotNodeRetained', 'Node, binary data in memory', results.nodeMemory, SCREENSHOT_BYTES),
				retainedMeasure('5.screenshotNodeFsRetained', 'Node, binary data on disk', results.nodeFilesystem, SCREENSHOT_BYTES),
			],
			notes: [
				`Screenshot payload: ${SCREENSHOT_BYTES.toLocaleString('en-US')} bytes of JPEG (GatewaySimulator option screenshotBytes); the gateway's JSON answer carrying it as base64 is ${body.toLocaleString('en-US')} bytes.`,
			],
			analysis: screenshotNotes(results, body),
		};
	} finally {
		await sim.close();
	}
}

async function bulkCases(settings: BenchSettings): Promise<CaseResults> {
	const sim = new PlatformSimulator({ bulkUrlDurationMs: 1000 });
	await sim.listen();
	try {
		const urls = urlsForRecords(RECORDS, 'bench');
		const warmUrls = urlsForRecords(20, 'warm');
		// Every URL at once, so the job is complete one simulated second after it starts.
		sim.options.bulkConcurrency = urls.length;
		const bulkId = sim.startBulk(PLATFORM_DEMO_TOKEN, DEMO_MANUAL_SCRAPER_IDS[0], urls).id;
		const warmBulkId = sim.startBulk(PLATFORM_DEMO_TOKEN, DEMO_MANUAL_SCRAPER_IDS[0], warmUrls).id;
		sim.clock.advance(2_000);
		const merged = (sim.getRecord<{ mergedData: unknown[] }>(bulkId)?.data as { mergedData: unknown[] }).mergedData.length;
		if (merged !== RECORDS) throw new Error(`the bulk job has ${merged} merged records`);
		const credentials = platformCredentials(sim);
		const results = await series(
			settings,
			'10,000-record bulk job',
			{
				node: () => ({ kind: 'bulk-node', credentials, bulkId, warmBulkId }),
				download: () => ({ kind: 'bulk-download', baseUrl: sim.url, token: PLATFORM_DEMO_TOKEN, bulkId, warmBulkId }),
				decode: () => ({ kind: 'bulk-decode', baseUrl: sim.url, token: PLATFORM_DEMO_TOKEN, bulkId, warmBulkId }),
			},
			() => undefined,
			() => undefined,
		);
		for (const name of ['node', 'decode']) {
			if (results[name].items.some((items) => items !== RECORDS)) throw new Error(`${name} output ${results[name].items.join(', ')} items`);
		}
		const body = median(results.download.payload);
		const download = { label: 'download into a Buffer', series: results.download };
		return {
			measures: [
				growthMeasure('5.bulkNode', `${RECORDS.toLocaleString('en-US')}-record bulk job -> one item per merged record, node`, results.node, body, download),
				growthMeasure('5.bulkDecode', 'Reference: download + JSON.parse + one {json, pairedItem} per record, no n8n', results.decode, body, download),
				growthMeasure('5.bulkDownload', 'Baseline: the answer downloaded into a Buffer (undici body.arrayBuffer)', results.download, body),
				retainedMeasure('5.bulkNodeRetained', `${RECORDS.toLocaleString('en-US')}-record bulk job -> one item per merged record, node`, results.node, body, true),
				retainedMeasure('5.bulkDecodeRetained', 'Reference, no n8n', results.decode, body),
				retainedMeasure('5.bulkDownloadRetained', 'Baseline (the Buffer)', results.download, body),
			],
			notes: [
				`Bulk payload: the Bulk > Get answer (GET /api/v1/results/:id) for a job of ${urls.length.toLocaleString('en-US')} URLs whose merged records add up to ${RECORDS.toLocaleString('en-US')}: ${body.toLocaleString('en-US')} bytes of JSON. Multiples are of that size.`,
			],
			analysis: [
				...bulkNotes(results, body),
			],
		};
	} finally {
		await sim.close();
	}
}

/** Figure 5: peak RSS growth while a large answer becomes n8n data, as a multiple of the payload. */
export async function memoryFigure(settings: BenchSettings): Promise<FigureResult> {
	const cases = settings.memoryCases ?? MEMORY_CASES;
	const none: CaseResults = { measures: [], notes: [], analysis: [] };
	const bulk = cases.includes('bulk') ? await bulkCases(settings) : none;
	const screenshot = cases.includes('screenshot') ? await screenshotCases(settings) : none;
	const pageShots = cases.includes('pageScreenshots') ? await pageScreenshotCases(settings) : none;
	return {
		id: 5,
		title: 'Memory',
		setup: [
			'Each repetition of each case runs in a fresh Node process (test/bench/memory-child.ts, forked with --expose-gc); the cases take turns in each repetition. The child first runs the same case on a small payload (its warm-up: code loaded and compiled), then collects garbage, resets the kernel\'s peak-RSS mark (`/proc/self/clear_refs` = 5), runs the case once on the large payload and reads the peak (`VmHWM` in /proc/self/status). Growth = peak - RSS at the start of the case. The simulators run in the parent process, so serving the payload is not counted.',
			'The node cases run through the harness (n8n\'s WorkflowExecute); the output stays referenced until the peak is read.',
			`"x payload" is growth / payload size; more than ${THRESHOLD}x is flagged. Baseline: the same answer just downloaded into a Buffer (undici arrayBuffer). For the small bulk answer the summary uses what the items keep after a full GC (retained heap + external), which hardly varies; its peak RSS sits within the memory the process already holds.`,
			...screenshot.notes,
			...pageShots.notes,
			...bulk.notes,
		],
		measures: [...screenshot.measures, ...pageShots.measures, ...bulk.measures],
		notes: [...screenshot.analysis, ...pageShots.analysis, ...bulk.analysis],
	};
}
