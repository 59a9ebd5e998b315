/**
 * Records a section C run extracts, one shape per scraper kind (portal listings, PDF links, search-engine and
 * social-platform leads): the `content` of a succeeded run result. Snake_case as the real service spells them.
 */

/** Extracted data: one portal listing. */
export interface PortalListing {
	listing_id: string;
	address: string;
	suburb: string;
	state: string;
	postcode: string;
	price: string;
	price_value: number | null;
	channel: string;
	bedrooms: number;
	bathrooms: number;
	parking: number;
	land_size: number | null;
	land_size_unit: 'm²';
	property_type: string;
	url: string;
	agent: { name: string; agency: string; phone: string };
	listed_at: string;
}

/** Extracted data: one PDF link. */
export interface PdfLink {
	title: string;
	url: string;
	source_url: string;
	keyword: string;
	prompt: string;
	/** The prompt's true/false answer for this file. */
	matched: boolean;
	size_kb: number;
	pages: number;
}

/** Extracted data: one search-engine lead. */
export interface SearchLead {
	name: string;
	company: string;
	title: string;
	email: string;
	phone: string;
	website: string;
	address: string;
	source_url: string;
	page: number;
}

/** Extracted data: one social-platform lead. */
export interface SocialLead {
	username: string;
	display_name: string;
	profile_url: string;
	post_url: string;
	post_text: string;
	sentiment: 'positive' | 'neutral' | 'negative';
	followers: number;
	likes: number;
	posted_at: string;
	keyword: string;
}
