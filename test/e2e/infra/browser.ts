/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end test support in plain Node: it launches Debian's chromium */
import { existsSync } from 'node:fs';
import path from 'node:path';

import { chromium, type BrowserContext } from 'playwright-core';

import { REPO_ROOT } from '../../../scripts/demo/pack';
import { CHROMIUM } from './provision';

/** Where the browser tests put their screenshots: one folder per n8n version (git-ignored). */
export const SCREENSHOTS = path.join(REPO_ROOT, 'test', 'e2e', 'screenshots');
/** Without these, chromium's connections to unreachable hosts stall it on this network. */
const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** Debian's chromium (installed by `npm run test:e2e`), headless, with the new profile folder `profile`, 1440x900. */
export async function launchChromium(profile: string): Promise<BrowserContext> {
	if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: \`npm run test:e2e\` installs Debian's chromium first.`);
	return await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, viewport: { width: 1440, height: 900 } });
}
