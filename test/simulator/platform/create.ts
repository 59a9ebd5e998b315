import type { MapOptions } from './agents';
import { AI_AGENTS, type AiAgent, type CreateOptions } from './types';
import { Issues, optionalEnum, optionalIntegerInRange, optionalPattern, optionalRegex, requireHttpUrl, requireString } from './validation';

/**
 * The body of POST /api/v1/scrapers-ai as the interface and the vendor's clients send it (public facts, "Create
 * options"): the instruction as `prompt` (the interface) or `message` (every vendor client), the listing agent's
 * `maxPages`, the map agent's `maxDepth` (0-5), `maxPages` (1-1000), `limit` (1-100000) and URL patterns, and no
 * instruction or proxy country for the map agent. Every field is checked for the agent it belongs to: one sent to
 * another agent is a 422 (`notForAgent`), so a client that sends it is caught here.
 */

export interface CreateInput {
	url: string;
	agent: AiAgent;
	/** The instruction (the same text whether sent as `prompt`, `message` or both); none for the map agent. */
	instruction?: string;
	/** Which of the two names carried it, as recorded on the scraper. */
	sentAs: Array<'prompt' | 'message'>;
	proxyCountry?: string;
	/** The general agent's mode, as the vendor's n8n node sends it (`Super` or `Cheap`); absent when not sent. */
	mode?: 'Super' | 'Cheap';
	/** Only the options the client sent. */
	options: CreateOptions;
}

const PROXY_COUNTRY = /^[a-zA-Z]{2}$/;

/** The numeric options, who takes them and their bounds. `maxPages` of the listing agent: the map agent's bounds. */
const NUMBERS: ReadonlyArray<{ field: 'maxDepth' | 'maxPages' | 'limit'; agents: readonly AiAgent[]; min: number; max: number }> = [
	{ field: 'maxDepth', agents: ['map'], min: 0, max: 5 },
	{ field: 'maxPages', agents: ['listing', 'map'], min: 1, max: 1000 },
	{ field: 'limit', agents: ['map'], min: 1, max: 100_000 },
];
const PATTERNS = ['includePatterns', 'excludePatterns'] as const;

function isSent(value: unknown): boolean {
	return value !== undefined && value !== null && value !== '';
}

function notForAgent(issues: Issues, field: string, agent: AiAgent): void {
	issues.add(field, 'notForAgent', `${field} is not accepted for the ${agent} agent`);
}

/** `prompt` and/or `message`: at least one; when both, the same text. Reported as `prompt` when neither is sent. */
function readInstruction(body: Record<string, unknown>, issues: Issues): { text?: string; sentAs: CreateInput['sentAs'] } {
	const sentAs = (['prompt', 'message'] as const).filter((field) => body[field] !== undefined && body[field] !== null);
	if (sentAs.length === 0) {
		issues.add('prompt', 'required', 'prompt is required');
		return { sentAs };
	}
	const texts = sentAs.map((field) => requireString(issues, body, field));
	if (texts.some((text) => text === undefined)) return { sentAs };
	if (texts.length === 2 && texts[0] !== texts[1]) {
		issues.add('message', 'equals', 'message must equal prompt when both are sent');
		return { sentAs };
	}
	return { text: texts[0], sentAs };
}

function readOptions(body: Record<string, unknown>, issues: Issues, agent: AiAgent): CreateOptions {
	const options: CreateOptions = {};
	for (const { field, agents, min, max } of NUMBERS) {
		if (!isSent(body[field])) continue;
		if (!agents.includes(agent)) notForAgent(issues, field, agent);
		else {
			const value = optionalIntegerInRange(issues, body, field, min, max);
			if (value !== undefined) options[field] = value;
		}
	}
	for (const field of PATTERNS) {
		if (!isSent(body[field])) continue;
		if (agent !== 'map') notForAgent(issues, field, agent);
		else if (optionalRegex(issues, body, field)) options[field] = body[field] as string;
	}
	return options;
}

/** The create body checked field by field (every issue listed in one 422); undefined when any is invalid. */
export function readCreateBody(body: Record<string, unknown>, issues: Issues): CreateInput | undefined {
	const url = requireHttpUrl(issues, body, 'url');
	// The vendor's n8n node names the agent `graph`, its other clients `agent`: either, and both only when they agree.
	const graph = optionalEnum(issues, body, 'graph', AI_AGENTS);
	const named = optionalEnum(issues, body, 'agent', AI_AGENTS);
	if (graph !== undefined && named !== undefined && graph !== named) issues.add('graph', 'equals', 'graph must name the same agent as agent');
	const agent = named ?? graph ?? 'general';
	const mode = optionalEnum(issues, body, 'mode', ['Super', 'Cheap'] as const);
	if (mode !== undefined && agent !== 'general') notForAgent(issues, 'mode', agent);
	let instruction: { text?: string; sentAs: CreateInput['sentAs'] } = { sentAs: [] };
	let proxyCountry: string | undefined;
	if (agent === 'map') {
		for (const field of ['prompt', 'message', 'proxyCountry']) if (isSent(body[field])) notForAgent(issues, field, agent);
	} else {
		instruction = readInstruction(body, issues);
		proxyCountry = optionalPattern(issues, body, 'proxyCountry', PROXY_COUNTRY, 'a two-letter country code');
	}
	const options = readOptions(body, issues, agent);
	if (!issues.ok || url === undefined) return undefined;
	return { url, agent, instruction: instruction.text, sentAs: instruction.sentAs, proxyCountry, mode, options };
}

/** The crawl a map scraper was created with: the interface's rerun defaults where the create left an option out. */
export function mapOptionsOf(options: CreateOptions | undefined, defaults: Readonly<MapOptions>): MapOptions {
	return {
		maxDepth: options?.maxDepth ?? defaults.maxDepth,
		maxPages: options?.maxPages ?? defaults.maxPages,
		limit: options?.limit ?? defaults.limit,
		includePatterns: options?.includePatterns === undefined ? defaults.includePatterns : new RegExp(options.includePatterns),
		excludePatterns: options?.excludePatterns === undefined ? defaults.excludePatterns : new RegExp(options.excludePatterns),
	};
}
