import { shownBefore, shownFrom } from '../shared/descriptions/collections';

/**
 * The versions of Scraper Platform and of the Scraper Bulk Trigger (now hidden) at which a stored parameter changed
 * shape. Saved workflows keep the version they were made with, so each change is shown and read by version
 * (ScraperPlatform.node.ts and ScraperBulkTrigger.node.ts list them too).
 */
export const PLATFORM_VERSIONS = {
	/** Id fields became resource locators (From list / By ID); version 1 workflows keep their plain fields. */
	locator: 2,
	/** Optional parameters moved into Options (Parallel Requests too), Simplify on top, sorting in Sort. */
	options: 3,
	/** Account > Get gained Simplify (on by default); version 3 workflows keep the account's whole answer. */
	accountSimplify: 3.1,
	/**
	 * Search > Google's Return All stops at Max Pages (10 unless raised: each page uses plan tokens); version 3.1
	 * workflows keep reading until the last page, as they were made to.
	 */
	searchCeiling: 3.2,
} as const;

export const BULK_TRIGGER_VERSIONS = {
	/** Scraper ID became a resource locator; version 1 workflows keep their text field. */
	locator: 2,
} as const;

/** The Platform node's display conditions for the versions from Options on, and before. */
export const FROM_OPTIONS = shownFrom(PLATFORM_VERSIONS.options);
export const BEFORE_OPTIONS = shownBefore(PLATFORM_VERSIONS.options);
