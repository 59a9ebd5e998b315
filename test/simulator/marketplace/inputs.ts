/**
 * The request bodies of section C as the simulator reads them once validated (`validation.ts`), and the values
 * their fields allow, from the interface's field tables.
 */
import type { FieldError } from './types';

export const PORTAL_OPTIONS = ['locations', 'links'] as const;
export const PORTAL_CHANNELS = ['buy', 'rent', 'sold'] as const;
export const PROPERTY_TYPES = [
	'all',
	'house',
	'townhouse',
	'unit apartment',
	'villa',
	'retire',
	'land',
	'acreage',
	'rural',
	'unitblock',
] as const;
export const LAND_SIZES = [
	'any',
	'200',
	'300',
	'400',
	'500',
	'600',
	'700',
	'800',
	'900',
	'1000',
	'1200',
	'1500',
	'1750',
	'2000',
	'3000',
	'4000',
	'5000',
	'10000',
	'20000',
	'30000',
	'40000',
	'50000',
	'100000',
	'200000',
	'300000',
	'400000',
	'500000',
	'600000',
	'700000',
	'800000',
	'900000',
	'1000000',
	'1500000',
	'2000000',
	'3000000',
	'5000000',
	'10000000',
	'30000000',
	'50000000',
	'100000000',
] as const;
export const SEARCH_TYPES = ['url', 'keywords'] as const;
export const SENTIMENT_TYPES = ['all', 'positive', 'neutral', 'negative'] as const;
export const SCHEMA_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'] as const;

export const JOB_BOARD_DEFAULTS = { min: 10, max: 20, timeout: 180 } as const;
export const JOB_BOARD_TIMEOUT_RANGE = { min: 60, max: 600 } as const;
export const RESULTS_PAGING = { defaultPerPage: 15, maxPerPage: 100 } as const;

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

export interface PortalInput {
	name: string;
	options: (typeof PORTAL_OPTIONS)[number];
	urls: string[];
	locations: string[];
	channel: (typeof PORTAL_CHANNELS)[number];
	property_types: string[];
	including_surrounding_areas: boolean;
	only_show_properties_with_a_price: boolean;
	landsize_minimum?: string;
	landsize_maximum?: string;
}

export interface PdfKeyword {
	keyword: string;
	prompt: string;
}

export interface PdfInput {
	name: string;
	keywords: PdfKeyword[];
	unique: boolean;
	expected_pdf?: number;
}

export interface SearchLeadsInput {
	name: string;
	search_type: (typeof SEARCH_TYPES)[number];
	limit_pages: number;
	keywords?: string;
	url?: string;
}

export interface SocialLeadsInput {
	name: string;
	keywords: string;
	sentiment_type: (typeof SENTIMENT_TYPES)[number];
	expected_data: number;
}

export type JsonSchema = Record<string, unknown>;

export interface JobBoardInput {
	urls: string[];
	schema: JsonSchema;
	min: number;
	max: number;
	timeout: number;
}

export interface RunInput {
	urls?: string[];
}

export interface PagingInput {
	page: number;
	per_page: number;
}
