import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/execution/operation';
import { platformRequest } from '../../transport/api';

export const accountGet: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get subscription account',
	description: 'Get the subscription account of the token: plan limits, usage and rate limit. Proves the token works.',
	properties: [],
	async execute(itemIndex, call) {
		const response = await platformRequest(call, { method: 'GET', path: '/api/v1/subscription-accounts', idempotent: true }, itemIndex);
		return [{ json: response.data as IDataObject }];
	},
};
