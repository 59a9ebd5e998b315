import { field } from '../../../shared/input/fields';

/**
 * Structured presets: a General agent scraper for one kind of page, whose instruction is a prompt of our own that
 * names the fields a spreadsheet wants for it, in camelCase so they become clean column names. The service's own n8n
 * node offers the same ten categories ("Extract Structured Data").
 */

/** Said after every preset's field list: a missing value stays empty rather than invented. */
const EMPTY_RULE = 'Give numbers as numbers without currency signs or thousands separators, dates as YYYY-MM-DD, and leave a field empty when the page does not show it.';

const record = (what: string, fields: string) => `Extract ${what} on this page as one record with the fields ${fields}. ${EMPTY_RULE}`;
const records = (what: string, fields: string) => `Extract every ${what} on this page, one record each, with the fields ${fields}. ${EMPTY_RULE}`;

/** Each preset's prompt, by its value. */
export const PRESET_PROMPTS = {
	article: record('the article', 'title, author, publishedDate, summary (two sentences), text, tags (a list) and imageUrl'),
	forumThread: record('the forum thread', 'title, author, postedDate, replyCount, viewCount and posts (a list of author, postedDate and text)'),
	hotel: record('the hotel', 'name, address, city, country, starRating, guestRating, reviewCount, pricePerNight, currency (ISO code), amenities (a list) and phone'),
	jobPosting: records('job posting', 'title, company, location, employmentType, remote (true or false), salaryMin, salaryMax, currency (ISO code), postedDate and applyUrl'),
	post: records('post', 'author, handle, postedDate, text, likeCount, commentCount, shareCount and url'),
	product: records('product', 'name, brand, price, currency (ISO code), availability, rating, reviewCount, sku, url and imageUrl'),
	property: records('property listing', 'address, city, price, currency (ISO code), propertyType, bedrooms, bathrooms, floorArea, areaUnit, agent and url'),
	restaurant: record('the restaurant', 'name, address, cuisine, priceRange, rating, reviewCount, openingHours, phone and website'),
	socialMediaProfile: record('the social media profile', 'name, handle, bio, followerCount, followingCount, postCount, verified (true or false), website and location'),
	touristAttraction: record('the tourist attraction', 'name, location, description, openingHours, ticketPrice, currency (ISO code), rating, reviewCount and website'),
} as const;

export type Preset = keyof typeof PRESET_PROMPTS;

export const PRESET = field({
	displayName: 'Preset',
	name: 'preset',
	type: 'options',
	default: 'none',
	options: [
		{ name: 'Article', value: 'article', description: 'Title, author, date, summary, text, tags' },
		{ name: 'Forum Thread', value: 'forumThread', description: 'Title, author, date, replies and their posts' },
		{ name: 'Hotel', value: 'hotel', description: 'Name, address, stars, guest rating, price per night, amenities' },
		{ name: 'Job Posting', value: 'jobPosting', description: 'Title, company, location, type, salary range, apply link' },
		{ name: 'None (Use Prompt)', value: 'none', description: 'Say what to extract in Prompt' },
		{ name: 'Post', value: 'post', description: 'Author, date, text, likes, comments, shares' },
		{ name: 'Product', value: 'product', description: 'Name, brand, price, currency, availability, rating' },
		{ name: 'Property', value: 'property', description: 'Address, price, type, bedrooms, bathrooms, floor area' },
		{ name: 'Restaurant', value: 'restaurant', description: 'Name, address, cuisine, price range, rating, hours' },
		{ name: 'Social Media Profile', value: 'socialMediaProfile', description: 'Name, handle, bio, followers, posts' },
		{ name: 'Tourist Attraction', value: 'touristAttraction', description: 'Name, location, hours, ticket price, rating' },
	],
	description: 'A ready-made instruction for one kind of page, naming the fields a sheet wants. Prompt then adds to it.',
	displayOptions: { show: { agent: ['general'] } },
});

/** The instruction sent: the preset's prompt with the user's own words after it, or the user's prompt alone. */
export function instructionOf(preset: Preset | 'none', prompt: string | undefined): string | undefined {
	if (preset === 'none') return prompt;
	return prompt ? `${PRESET_PROMPTS[preset]}\n\n${prompt}` : PRESET_PROMPTS[preset];
}
