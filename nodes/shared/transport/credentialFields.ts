import type { INodeProperties } from 'n8n-workflow';

/**
 * The two fields every token credential has, declared once: each credential spreads them with its own description,
 * default and placeholder, and the credential checks (credentials.ts) name them by these display names.
 */
export const API_TOKEN: INodeProperties = {
	displayName: 'API Token',
	name: 'apiToken',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	required: true,
};

export const BASE_URL: INodeProperties = {
	displayName: 'Base URL',
	name: 'baseUrl',
	type: 'string',
	default: '',
	required: true,
};
