import { shownBefore, shownFrom } from '../shared/descriptions/collections';

/**
 * The versions of Scraper Marketplace at which a stored parameter changed shape. Saved workflows keep the version
 * they were made with, so each change is shown and read by version (ScraperMarketplace.node.ts lists them too).
 */
export const MARKETPLACE_VERSIONS = {
	/** Id fields became resource locators (From list / By ID); version 1 workflows keep their number fields. */
	locator: 2,
	/** Optional parameters moved into Options (Parallel Requests too), Simplify on top, sorting in Sort. */
	options: 3,
} as const;

/** The node's display conditions for the versions from Options on, and before. */
export const FROM_OPTIONS = shownFrom(MARKETPLACE_VERSIONS.options);
export const BEFORE_OPTIONS = shownBefore(MARKETPLACE_VERSIONS.options);
