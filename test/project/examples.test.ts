/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the repository's example workflows with Node's fs */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { NodeHelpers } from 'n8n-workflow';
import type { INode, INodeParameters } from 'n8n-workflow';

import { loadPackage } from '../harness';

/**
 * The example workflows are what a newcomer opens first: they show each of our nodes at its current default version
 * (pickers, Simplify, Options), and every parameter they set is one that version shows, so none is silently dropped.
 */

const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
const files = readdirSync(EXAMPLES).filter((file) => file.endsWith('.json'));
const { nodes } = loadPackage();

/** Our node types by full name; an AI Agent's tool variant (`…Tool`) is the same node. */
function ourType(type: string) {
	return nodes.get(type) ?? nodes.get(type.replace(/Tool$/, ''));
}

const ours = files.flatMap((file) => {
	const workflow = JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as { nodes: INode[] };
	return workflow.nodes.filter((node) => ourType(node.type)).map((node) => ({ file, node }));
});

describe('example workflows', () => {
	it('use our nodes', () => {
		expect(files.length).toBeGreaterThanOrEqual(8);
		expect(ours.length).toBeGreaterThanOrEqual(files.length);
	});

	it.each(ours.map(({ file, node }) => [`${file}: ${node.name}`, node]))("%s is at its node's default version", (_label, node) => {
		const { version, defaultVersion } = ourType(node.type)!.description;
		const current = defaultVersion ?? (Array.isArray(version) ? Math.max(...version) : version);
		expect(node.typeVersion).toBe(current);
	});

	it.each(ours.map(({ file, node }) => [`${file}: ${node.name}`, node]))('%s sets only parameters its version shows', (_label, node) => {
		const description = ourType(node.type)!.description;
		// n8n's own reading of a saved node: what it keeps is what the editor shows and the node reads.
		const kept = NodeHelpers.getNodeParameters(description.properties, node.parameters, true, false, node, description) as INodeParameters;
		// n8n adds the poll times of a polling trigger itself.
		const own = Object.entries(node.parameters).filter(([name]) => name !== 'pollTimes');
		expect(own.length).toBeGreaterThan(0);
		for (const [name, value] of own) {
			expect([name, kept[name]]).toEqual([name, value]);
		}
	});
});
