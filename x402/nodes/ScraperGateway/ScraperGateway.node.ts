import { NodeConnectionTypes } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { describeResources, routeOperation } from '../../../nodes/shared/execution/operation';
import type { CallFactory, Resource } from '../../../nodes/shared/execution/operation';
import { pageFetch } from './actions/page/fetch';
import { searchWeb } from './actions/search/web';
import { testWalletCredential } from './methods/credentialTest';
import { gatewayCall } from './payment/call';
import type { GatewayCall } from './payment/call';

const resources: Array<Resource<GatewayCall>> = [
	{ value: 'page', name: 'Page', operations: [pageFetch] },
	{ value: 'search', name: 'Search', operations: [searchWeb] },
];

export class ScraperGateway implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scraper Gateway',
		name: 'scraperGateway',
		icon: { light: 'file:../../icons/scraper.svg', dark: 'file:../../icons/scraper.dark.svg' },
		group: ['transform'],
		// 2: Simplify on the page fetch (on by default), and for an AI Agent the Output choice; version 1 keeps every field.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{$parameter["resource"] + ": " + $parameter["operation"]}}',
		description: 'Fetch public web pages and search the web, paying 0.01 USDC per request with x402 (no API key)',
		defaults: { name: 'Scraper Gateway' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'x402WalletApi', required: true, testedBy: 'x402WalletTest' }],
		properties: describeResources(resources, 'page'),
	};

	methods = {
		credentialTest: {
			x402WalletTest: testWalletCredential,
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const calls: GatewayCall[] = [];
		const makeCall: CallFactory<GatewayCall> = (ctx, limiter) => {
			const call = gatewayCall(ctx, limiter);
			calls.push(call);
			return call;
		};
		const output = await routeOperation(this, resources, { makeCall });
		// Returned, not thrown: n8n's Retry On Fail runs no retry of this run, so what it paid need not be remembered.
		for (const call of calls) call.finished();
		return output;
	}
}
