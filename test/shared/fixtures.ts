import type { INode } from 'n8n-workflow';

/** The node the shared mechanics report for when a test calls them alone. */
export const PLATFORM_NODE: INode = { id: '1', name: 'Scraper Platform', type: 'scraperPlatform', typeVersion: 2, position: [0, 0], parameters: {} };
export const MARKETPLACE_NODE: INode = { id: '2', name: 'Scraper Marketplace', type: 'scraperMarketplace', typeVersion: 3, position: [0, 0], parameters: {} };
