import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { additionalFields } from '../../../shared/descriptions/collections';
import type { Operation } from '../../../shared/execution/operation';
import { field, isEmpty, parameter, rules, validatorFor } from '../../../shared/input/fields';
import { collection, readFields, Request } from '../../../shared/input/fieldSets';
import type { InputValidator } from '../../../shared/input/validation';
import { AI_AGENTS } from '../../transport/vocabulary';
import { RecordOutput, resultOutput, SCRAPE_URL } from '../common';
import { sendRun } from '../run';
import { checkedOutput, NOT_MATCHING, OUTPUT_SCHEMA, withSchema } from './outputSchema';
import { instructionOf, PRESET } from './presets';
import type { Preset } from './presets';
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
	description: 'What to extract, in plain language. Required for the General and Listing agents, unless a Preset says it.',
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

const MODE = field({
	displayName: 'Mode',
	name: 'mode',
	type: 'options',
	default: 'Super',
	options: [
		{ name: 'Cheap', value: 'Cheap', description: 'Fewer tokens, for simple pages' },
		{ name: 'Super', value: 'Super', description: 'The most capable extraction' },
	],
	description: 'How hard the General agent works on the page. Not added: the service default.',
	displayOptions: { show: { '/agent': ['general'] } },
});

const ADDITIONAL = collection((options) => additionalFields(options, { displayOptions: { show: WITH_INSTRUCTION } }), [PROXY_COUNTRY, MODE, OUTPUT_SCHEMA]);
const LISTING_OPTIONS = listingOptions({ displayOptions: { show: { agent: ['listing'] } } });
const MAP_OPTIONS = mapOptions({ displayOptions: { show: { agent: ['map'] } } });
const OUTPUT = new RecordOutput('Whether to output one item per record of the example output', [NOT_MATCHING]);

/** What each agent reads, in this order, and sends: the instruction and proxy country only to the General and Listing. */
const AGENT_FIELDS = {
	general: [URL, AGENT, INSTRUCTION, ADDITIONAL],
	preset: [URL, AGENT, PRESET, PROMPT, ADDITIONAL],
	listing: [URL, AGENT, INSTRUCTION, ADDITIONAL, LISTING_OPTIONS],
	map: [URL, AGENT, MAP_OPTIONS],
};
const CREATE = {
	general: new Request([URL, INSTRUCTION, AGENT, PROXY_COUNTRY, MODE]),
	preset: new Request([URL, PROMPT, AGENT, PROXY_COUNTRY, MODE]),
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

/**
 * The names every client of the service reads: the instruction as `prompt` (the interface) and `message` (every vendor
 * client), the agent as `agent` and `graph` (the vendor's n8n node), each pair the same value.
 */
function withVendorNames(body: IDataObject): IDataObject {
	const twins: Record<string, string> = { [INSTRUCTION.name]: 'message', [AGENT.name]: 'graph' };
	return Object.fromEntries(Object.entries(body).flatMap(([key, value]) => (key in twins ? [[key, value], [twins[key], value]] : [[key, value]])));
}

/** A Preset or a Mode belongs to the General agent: set by an expression for another agent, it is refused. */
function refuseGeneralOnly(ctx: IExecuteFunctions, v: InputValidator, agent: Agent, itemIndex: number): void {
	if (agent === 'general') return;
	const preset = parameter(ctx, PRESET.name, itemIndex, 'none');
	if (!isEmpty(preset) && preset !== 'none') v.fail(PRESET.label, `presets are for the General agent, and the agent is ${agent}`, `Set '${PRESET.label}' to 'None (Use Prompt)', or choose the General agent.`);
	const additional = (parameter(ctx, ADDITIONAL.name, itemIndex, {}) ?? {}) as IDataObject;
	if (!isEmpty(additional[MODE.name])) v.fail(MODE.label, `it is for the General agent, and the agent is ${agent}`, `Remove '${MODE.label}', or choose the General agent.`);
}

/**
 * The request of the agent chosen and its Output Schema: a General agent with a preset sends the preset's prompt with
 * the user's words after it; an Output Schema is told to the agent after the instruction.
 */
function createBody(ctx: IExecuteFunctions, itemIndex: number, agent: Agent): { body: IDataObject; schema?: IDataObject } {
	const preset = agent === 'general' ? PRESET.read(ctx, itemIndex) : 'none';
	const values = readFields(ctx, itemIndex, preset === 'none' ? AGENT_FIELDS[agent] : AGENT_FIELDS.preset);
	const body = preset === 'none' ? CREATE[agent].body(values) : { ...CREATE.preset.body(values), [PROMPT.name]: instructionOf(preset as Preset, values.of(PROMPT)) };
	const schema = agent === 'map' ? undefined : values.of(OUTPUT_SCHEMA);
	if (schema) body[PROMPT.name] = withSchema(String(body[PROMPT.name]), schema);
	return { body, schema };
}

export const aiScraperCreateAndRun: Operation = {
	value: 'createAndRun',
	name: 'Create and Run',
	action: 'Create and run AI scraper',
	description: 'Create an AI scraper from a prompt and run it once on a URL',
	properties: [URL.property, AGENT.property, PRESET.property, PROMPT.property, LISTING_OPTIONS.property, MAP_OPTIONS.property, ADDITIONAL.property, ...OUTPUT.properties],
	parallel: true,
	async execute(itemIndex, call) {
		const agent = readFields(this, itemIndex, [URL, AGENT]).get(AGENT);
		const v = validatorFor(this, itemIndex);
		refuseOtherAgentsOptions(this, v, agent, itemIndex);
		refuseGeneralOnly(this, v, agent, itemIndex);
		if (agent === 'map') refuseForMap(this, v, itemIndex);
		const { body, schema } = createBody(this, itemIndex, agent);
		const output = OUTPUT.read(this, itemIndex);
		const drop = readFields(this, itemIndex, [OUTPUT.options]).of(NOT_MATCHING) === 'drop';
		// Every client of the service sends accept: application/json on create.
		const record = await sendRun(call, { path: '/api/v1/scrapers-ai', body: withVendorNames(body), acceptJson: true }, itemIndex);
		return schema ? checkedOutput(record, output, schema, drop, itemIndex) : resultOutput(record, output, itemIndex);
	},
};
