import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/execution/operation';
import { InputValidator } from '../../../shared/input/validation';
import { createAndRun, createAndRunWaitProperties, nameProperty, waitingConcurrency } from '../common';

const SENTIMENT_TYPES = ['all', 'positive', 'neutral', 'negative'] as const;

const LABELS = {
	keywords: 'Keywords',
	sentiment_type: 'Sentiment',
	expected_data: 'Expected Leads',
};

export const leadCreateAndRunSocial: Operation = {
	value: 'createAndRunSocial',
	name: 'Create and Run Social Scraper',
	action: 'Create and run social platform lead scraper',
	description: 'Find leads among social platform posts that mention your keywords, filtered by sentiment',
	properties: [
		nameProperty('People talking about CRM software'),
		{
			displayName: 'Keywords',
			name: 'keywords',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. crm software',
			description: 'Words the posts must mention',
		},
		{
			displayName: 'Sentiment',
			name: 'sentimentType',
			type: 'options',
			default: 'all',
			options: [
				{ name: 'All', value: 'all', description: 'Every post, whatever its tone' },
				{ name: 'Negative', value: 'negative', description: 'Complaints and frustration' },
				{ name: 'Neutral', value: 'neutral', description: 'Questions and plain mentions' },
				{ name: 'Positive', value: 'positive', description: 'Praise and recommendations' },
			],
			description: 'The tone of the posts to keep',
		},
		{
			displayName: 'Expected Leads',
			name: 'expectedData',
			type: 'number',
			required: true,
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 50,
			description: 'How many leads (posts) to collect at most',
		},
		...createAndRunWaitProperties('one lead'),
	],
	concurrency: waitingConcurrency,
	parallel: true,
	async execute(itemIndex, call) {
		const v = new InputValidator(this.getNode(), itemIndex);
		const body: IDataObject = {
			name: v.requiredString(this.getNodeParameter('name', itemIndex), 'Name'),
			keywords: v.requiredString(this.getNodeParameter('keywords', itemIndex), 'Keywords'),
			sentiment_type: v.oneOf(this.getNodeParameter('sentimentType', itemIndex), 'Sentiment', SENTIMENT_TYPES),
			expected_data: v.integer(this.getNodeParameter('expectedData', itemIndex), 'Expected Leads', { min: 1 }),
		};

		return await createAndRun(call, itemIndex, '/api/scrapers/leads-generator/social/create-and-run', body, LABELS);
	},
};
