/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the harness is test code that loads the package the way n8n does, in plain Node */
// Our two packages as n8n loads them: node and credential classes from each package.json's `n8n` lists, node types
// named `<package>.<node>`, and the engine's view of them (NodeTypes).
import { existsSync } from 'node:fs';
import path from 'node:path';

import { NodeConnectionTypes, NodeHelpers } from 'n8n-workflow';
import type { ICredentialType, INodeType, INodeTypeDescription, INodeTypes, IVersionedNodeType } from 'n8n-workflow';

import corePackageJson from '../../package.json';
import x402PackageJson from '../../x402/package.json';

const ROOT = path.resolve(__dirname, '../..');

/** The repository's two packages: the verifiable core at the root and the x402 gateway package in x402/. */
const PACKAGES = [
	{ dir: ROOT, json: corePackageJson },
	{ dir: path.join(ROOT, 'x402'), json: x402PackageJson },
];
export const PACKAGE_NAME = corePackageJson.name;
export const X402_PACKAGE_NAME = x402PackageJson.name;

/**
 * Tests run the TypeScript source. The benchmarks set SCRAPER_PACKAGE_FROM=dist to measure the bundle n8n loads
 * (`npm run build`): tsx's transpiled source carries helpers (function naming) that cost time per call.
 */
function fromDist(): boolean {
	return process.env.SCRAPER_PACKAGE_FROM === 'dist';
}

/** `dist/nodes/X/X.node.js` of a package -> the file to load: the build itself, or the TypeScript source. */
function sourceOf(packageDir: string, distPath: string): string {
	if (fromDist()) return path.join(packageDir, distPath);
	return path.join(packageDir, distPath.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
}

function loadExport<T>(file: string): T {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- modules are listed in package.json, as n8n loads them
	const mod = require(file) as Record<string, new () => T>;
	const Class = Object.values(mod).find((value) => typeof value === 'function');
	if (!Class) throw new Error(`${file} exports no class`);
	return new Class();
}

let registry: { nodes: Map<string, INodeType>; credentials: Map<string, ICredentialType> } | undefined;

/** Our nodes and credentials, loaded from each package.json's `n8n` lists and named as n8n names community nodes. */
export function loadPackage() {
	if (registry) return registry;
	const nodes = new Map<string, INodeType>();
	const credentials = new Map<string, ICredentialType>();
	for (const { dir, json } of PACKAGES) {
		const files = [...json.n8n.nodes, ...json.n8n.credentials].map((file) => sourceOf(dir, file));
		const missing = files.find((file) => !existsSync(file));
		if (missing) throw new Error(`${missing} is missing${fromDist() ? ': run `npm run build` first' : ''}`);
		for (const file of json.n8n.nodes) {
			const node = loadExport<INodeType>(sourceOf(dir, file));
			nodes.set(`${json.name}.${node.description.name}`, node);
		}
		for (const file of json.n8n.credentials) {
			const credential = loadExport<ICredentialType>(sourceOf(dir, file));
			credentials.set(credential.name, credential);
		}
	}
	registry = { nodes, credentials };
	return registry;
}

/** A node's full type (`<package>.<name>`) from its short name, in whichever of our packages declares it. */
export function fullNodeType(nodeType: string): string {
	if (nodeType.includes('.')) return nodeType;
	const { nodes } = loadPackage();
	const found = [...nodes.keys()].find((type) => type.endsWith(`.${nodeType}`));
	if (!found) throw new Error(`None of our packages has a node named ${nodeType}`);
	return found;
}

/**
 * A node type as n8n offers it to an AI Agent (n8n's convertNodeToAiTool): `<type>Tool`, no main input, an ai_tool
 * output, the same behaviour.
 */
export function asToolType(node: INodeType): INodeType {
	const description: INodeTypeDescription = {
		...node.description,
		name: `${node.description.name}Tool`,
		displayName: `${node.description.displayName} Tool`,
		inputs: [],
		outputs: [NodeConnectionTypes.AiTool],
	};
	return { ...node, description, execute: node.execute };
}

/** Node types by full name, as n8n's loader serves them to the engine. */
export class NodeTypes implements INodeTypes {
	constructor(private readonly types: Map<string, INodeType>) {}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types.get(nodeType);
		if (!type) throw new Error(`Unknown node type ${nodeType}`);
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes() {
		return {};
	}
}
