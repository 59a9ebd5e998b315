/**
 * The simulated screenshot (`data.screenshot`): a browser-like picture of the page, drawn from its content and
 * encoded as a real baseline JPEG by `jpeg/encode.ts`, optionally padded to a given size.
 */
import { SeededRandom } from '../core/random';
import { encodeJpeg } from './jpeg/encode';
import { padJpegToBytes } from './jpeg/pad';
import type { PageDocument } from './page';

export const SCREENSHOT_WIDTH = 320;
export const SCREENSHOT_HEIGHT = 200;

const screenshotCache = new Map<string, Buffer>();
const SCREENSHOT_CACHE_SIZE = 32;

/**
 * A browser-like screenshot of the page: toolbar, accent header, text lines as grey bars, links in blue.
 * Deterministic, so the natural-size JPEG of recent pages is cached (encoding is the costly part).
 */
export function renderScreenshot(page: PageDocument, targetBytes?: number): Buffer {
	const key = `${page.url}|${page.servedFrom}`;
	let jpeg = screenshotCache.get(key);
	if (!jpeg) {
		jpeg = drawScreenshot(page);
		if (screenshotCache.size >= SCREENSHOT_CACHE_SIZE) screenshotCache.delete(screenshotCache.keys().next().value as string);
		screenshotCache.set(key, jpeg);
	}
	return targetBytes !== undefined ? padJpegToBytes(jpeg, targetBytes) : jpeg;
}

function drawScreenshot(page: PageDocument): Buffer {
	const width = SCREENSHOT_WIDTH;
	const height = SCREENSHOT_HEIGHT;
	const pixels = new Uint8Array(width * height * 3).fill(255);
	const fill = (x0: number, y0: number, w: number, h: number, [r, g, b]: [number, number, number]) => {
		for (let y = Math.max(0, y0); y < Math.min(height, y0 + h); y++) {
			for (let x = Math.max(0, x0); x < Math.min(width, x0 + w); x++) {
				const o = (y * width + x) * 3;
				pixels[o] = r;
				pixels[o + 1] = g;
				pixels[o + 2] = b;
			}
		}
	};
	fill(0, 0, width, 16, [222, 222, 226]); // browser toolbar
	fill(40, 4, 200, 8, [250, 250, 250]); // address bar
	fill(0, 16, width, 28, page.accent); // site header
	const random = new SeededRandom(`shot:${page.url}`);
	let y = 52;
	fill(12, y, Math.min(width - 24, 10 + page.heading.length * 7), 10, [30, 30, 30]); // h1
	y += 18;
	for (const paragraph of page.paragraphs) {
		const lines = Math.max(1, Math.round(paragraph.length / 60));
		for (let i = 0; i < lines && y < height - 30; i++) {
			let x = 12;
			const lineEnd = i === lines - 1 ? random.int(120, width - 12) : width - 12;
			while (x < lineEnd) {
				const word = random.int(10, 34);
				fill(x, y, Math.min(word, lineEnd - x), 4, [120, 120, 124]);
				x += word + 4;
			}
			y += 8;
		}
		y += 6;
	}
	for (const link of page.links) {
		if (y > height - 24) break;
		fill(20, y, Math.min(width - 40, link.text.length * 5), 4, [26, 13, 171]);
		y += 9;
	}
	fill(0, height - 14, width, 14, [240, 240, 242]); // footer
	return encodeJpeg({ width, height, pixels }, 80);
}
