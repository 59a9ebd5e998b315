import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { additionalFields } from '../../../shared/descriptions/collections';
import type { Operation } from '../../../shared/execution/operation';
import { InputValidator } from '../../../shared/input/validation';
import { AI_AGENTS } from '../../transport/vocabulary';
import { outputOptions, runScraper } from '../common';
import { addAgentOptions, listingOptionsProperty, mapOptionsProperty } from './agentOptions';

/** The Map agent takes no instruction and no proxy country; each agent's options show only for it (agentOptions.ts). */
type Agent = (typeof AI_AGENTS)[number];

const WITH_INSTRUCTION = { agent: ['general', 'listing'] };

/**
 * Options of an agent other than the one chosen are refused, naming the first one set: the editor hides them, so
 * they are set only where the agent is an expression, and sending them to another agent would be ignored silently.
 */
function refuseOtherAgentsOptions(ctx: IExecuteFunctions, v: InputValidator, agent: Agent, itemIndex: number): void {
	const owners = [
		['listing', 'listingOptions', 'Listing Agent Options'],
		['map', 'mapOptions', 'Map Agent Options'],
	] as const;
	for (const [owner, name, label] of owners) {
		if (owner === agent) continue;
		const set = Object.keys(ctx.getNodeParameter(name, itemIndex, {}) as IDataObject);
		const owned = owner === 'map' ? 'Map' : 'Listing';
		if (set.length > 0) v.fail(label, `these options are for the ${owned} agent only, and the agent is ${agent}`, `Remove them from '${label}', or choose the ${owned} agent.`);
	}
}

/** The Map agent crawls; it takes no instruction and no proxy country (the vendor's clients refuse both too). */
function refuseForMap(v: InputValidator, prompt: unknown, proxyCountry: unknown): void {
	const set = (value: unknown) => value !== undefined && value !== null && String(value).trim() !== '';
	if (set(prompt)) v.fail('Prompt', 'the Map agent takes no prompt', "Clear 'Prompt', or choose the General or Listing agent.");
	if (set(proxyCountry)) v.fail('Proxy Country', 'the Map agent takes no proxy country', "Remove 'Proxy Country', or choose the General or Listing agent.");
}

/** The chosen agent's own options, each checked and added to `body` only when set. */
function addChosenAgentOptions(ctx: IExecuteFunctions, v: InputValidator, agent: Agent, body: IDataObject, itemIndex: number): void {
	if (agent === 'general') return;
	addAgentOptions(v, agent, ctx.getNodeParameter(agent === 'map' ? 'mapOptions' : 'listingOptions', itemIndex, {}) as IDataObject, body);
}

export const aiScraperCreateAndRun: Operation = {
	value: 'createAndRun',
	name: 'Create and Run',
	action: 'Create and run AI scraper',
	description: 'Create an AI scraper from a prompt and run it once on a URL',
	properties: [
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://example.com/products',
			description: 'The page the scraper starts from',
		},
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
		{
			displayName: 'Prompt',
			name: 'prompt',
			type: 'string',
			// Not n8n's required flag: with the agent from an expression the field shows for Map too, which takes none.
			// The node requires it for General and Listing itself.
			typeOptions: { rows: 4 },
			default: '',
			placeholder: 'e.g. Extract every product with its name, price and rating',
			description: 'What to extract, in plain language. Required for the General and Listing agents.',
			hint: "The first run gives sample output only: keep the 'Scraper ID' it returns and use Rerun for full results",
			displayOptions: { show: WITH_INSTRUCTION },
		},
		listingOptionsProperty({ displayOptions: { show: { agent: ['listing'] } } }),
		mapOptionsProperty({ displayOptions: { show: { agent: ['map'] } } }),
		additionalFields(
			[
				{
					displayName: 'Proxy Country',
					name: 'proxyCountry',
					type: 'string',
					default: '',
					placeholder: 'e.g. us',
					description: 'Two-letter country code of the proxy the page is fetched through',
				},
			],
			{ displayOptions: { show: WITH_INSTRUCTION } },
		),
		...outputOptions('Whether to output one item per record of the example output'),
	],
	parallel: true,
	async execute(itemIndex, call) {
		const v = new InputValidator(this.getNode(), itemIndex);
		const url = v.httpUrl(this.getNodeParameter('url', itemIndex), 'URL');
		const agent = v.oneOf(this.getNodeParameter('agent', itemIndex), 'Agent', AI_AGENTS);
		const prompt = this.getNodeParameter('prompt', itemIndex, '');
		const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		refuseOtherAgentsOptions(this, v, agent, itemIndex);
		const body: IDataObject = { url };
		if (agent === 'map') {
			refuseForMap(v, prompt, additional.proxyCountry);
		} else {
			// The interface names the instruction `prompt`; every vendor client sends it as `message`: both, the same text.
			body.prompt = v.requiredString(prompt, 'Prompt');
			body.message = body.prompt;
		}
		body.agent = agent;
		const proxyCountry = agent === 'map' ? undefined : v.countryCode(additional.proxyCountry, 'Proxy Country');
		if (proxyCountry !== undefined) body.proxyCountry = proxyCountry;
		addChosenAgentOptions(this, v, agent, body, itemIndex);
		return await runScraper(call, { path: '/api/v1/scrapers-ai', body }, itemIndex);
	},
};
