import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { additionalFields } from '../../../shared/descriptions/collections';
import type { Operation } from '../../../shared/execution/operation';
import { field, isEmpty, parameter, rules, validatorFor } from '../../../shared/input/fields';
import { collection, readFields, Request } from '../../../shared/input/fieldSets';
import type { InputValidator } from '../../../shared/input/validation';
import { AI_AGENTS } from '../../transport/vocabulary';
import { RecordOutput, SCRAPE_URL } from '../common';
import { runScraper } from '../run';
import { AGENT_OPTION_KEYS, LISTING_OPTION_FIELDS, listingOptions, MAP_OPTION_FIELDS, mapOptions } from './agentOptions';

/** The Map agent takes no instruction and no proxy country; each agent's options show only for it (agentOptions.ts). */
type Agent = (typeof AI_AGENTS)[number];

const WITH_INSTRUCTION = { agent: ['general', 'listing'] };

const URL = SCRAPE_URL.with({ description: 'The page the scraper starts from' });

const AGENT = field(
	{
		displayName: 'Agent',
		name: 'agent',
		type: 'options',
		default: 'general',
		options: [
			{ name: 'General', value: 'general', description: 'Extract fields from one page' },
			{ name: 'Listing', value: 'listing', description: 'Extract a list of similar items (products, posts, jobs)' },
			{ name: 'Map', value: 'map', description: 'Find the pages of a site by following its links (takes no prompt)' },
		],
		description: 'The kind of AI agent that runs the scraper',
	},
	rules.oneOf(AI_AGENTS),
);

const PROMPT = field({
	displayName: 'Prompt',
	name: 'prompt',
	type: 'string',
	// Not n8n's required flag: with the agent from an expression the field shows for Map too, which takes none.
	// The node requires it for General and Listing itself (INSTRUCTION).
	typeOptions: { rows: 4 },
	default: '',
	placeholder: 'e.g. Extract every product with its name, price and rating',
	description: 'What to extract, in plain language. Required for the General and Listing agents.',
	hint: 'The first run gives sample output only: keep the scraperId it returns and use Rerun for full results',
	displayOptions: { show: WITH_INSTRUCTION },
});

/** The prompt as the General and Listing agents read it: required. */
const INSTRUCTION = field({ ...PROMPT.property, required: true });

const PROXY_COUNTRY = field(
	{
		displayName: 'Proxy Country',
		name: 'proxyCountry',
		type: 'string',
		default: '',
		placeholder: 'e.g. us',
		description: 'Two-letter country code of the proxy the page is fetched through',
	},
	rules.countryCode,
);

const ADDITIONAL = collection((options) => additionalFields(options, { displayOptions: { show: WITH_INSTRUCTION } }), [PROXY_COUNTRY]);
const LISTING_OPTIONS = listingOptions({ displayOptions: { show: { agent: ['listing'] } } });
const MAP_OPTIONS = mapOptions({ displayOptions: { show: { agent: ['map'] } } });
const OUTPUT = new RecordOutput('Whether to output one item per record of the example output');

/** What each agent reads, in this order, and sends: the instruction and proxy country only to the General and Listing. */
const AGENT_FIELDS = {
	general: [URL, AGENT, INSTRUCTION, ADDITIONAL],
	listing: [URL, AGENT, INSTRUCTION, ADDITIONAL, LISTING_OPTIONS],
	map: [URL, AGENT, MAP_OPTIONS],
};
const CREATE = {
	general: new Request([URL, INSTRUCTION, AGENT, PROXY_COUNTRY]),
	listing: new Request([URL, INSTRUCTION, AGENT, PROXY_COUNTRY, ...LISTING_OPTION_FIELDS]),
	map: new Request([URL, AGENT, ...MAP_OPTION_FIELDS], AGENT_OPTION_KEYS),
};

/**
 * Options of an agent other than the one chosen are refused, naming the first one set: the editor hides them, so
 * they are set only where the agent is an expression, and sending them to another agent would be ignored silently.
 */
function refuseOtherAgentsOptions(ctx: IExecuteFunctions, v: InputValidator, agent: Agent, itemIndex: number): void {
	const owners = [
		['listing', LISTING_OPTIONS, 'Listing'],
		['map', MAP_OPTIONS, 'Map'],
	] as const;
	for (const [owner, options, owned] of owners) {
		if (owner === agent) continue;
		const set = Object.keys((parameter(ctx, options.name, itemIndex, {}) ?? {}) as IDataObject);
		const label = options.property.displayName;
		if (set.length > 0) v.fail(label, `these options are for the ${owned} agent only, and the agent is ${agent}`, `Remove them from '${label}', or choose the ${owned} agent.`);
	}
}

/** The Map agent crawls; it takes no instruction and no proxy country (the vendor's clients refuse both too). */
function refuseForMap(ctx: IExecuteFunctions, v: InputValidator, itemIndex: number): void {
	const set = (value: unknown) => !isEmpty(value) && String(value).trim() !== '';
	const additional = (parameter(ctx, ADDITIONAL.name, itemIndex, {}) ?? {}) as IDataObject;
	if (set(parameter(ctx, PROMPT.name, itemIndex, ''))) {
		v.fail(PROMPT.label, 'the Map agent takes no prompt', `Clear '${PROMPT.label}', or choose the General or Listing agent.`);
	}
	if (set(additional[PROXY_COUNTRY.name])) {
		v.fail(PROXY_COUNTRY.label, 'the Map agent takes no proxy country', `Remove '${PROXY_COUNTRY.label}', or choose the General or Listing agent.`);
	}
}

/** The interface names the instruction `prompt`; every vendor client sends it as `message`: both, the same text. */
function withMessage(body: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(body).flatMap(([key, value]) => (key === INSTRUCTION.name ? [[key, value], ['message', value]] : [[key, value]])));
}

export const aiScraperCreateAndRun: Operation = {
	value: 'createAndRun',
	name: 'Create and Run',
	action: 'Create and run AI scraper',
	description: 'Create an AI scraper from a prompt and run it once on a URL',
	properties: [URL.property, AGENT.property, PROMPT.property, LISTING_OPTIONS.property, MAP_OPTIONS.property, ADDITIONAL.property, ...OUTPUT.properties],
	parallel: true,
	async execute(itemIndex, call) {
		const agent = readFields(this, itemIndex, [URL, AGENT]).get(AGENT);
		const v = validatorFor(this, itemIndex);
		refuseOtherAgentsOptions(this, v, agent, itemIndex);
		if (agent === 'map') refuseForMap(this, v, itemIndex);
		const values = readFields(this, itemIndex, AGENT_FIELDS[agent]);
		const body = withMessage(CREATE[agent].body(values));
		return await runScraper(call, { path: '/api/v1/scrapers-ai', body, output: OUTPUT.read(this, itemIndex) }, itemIndex);
	},
};
