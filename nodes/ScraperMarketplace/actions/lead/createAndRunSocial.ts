import type { Operation } from '../../../shared/execution/operation';
import { field } from '../../../shared/input/fields';
import { readFields, Request } from '../../../shared/input/fieldSets';
import { createAndRun, createAndRunWaitProperties, NAME, nameProperty, waitingConcurrency } from '../common';

const KEYWORDS = field({
	displayName: 'Keywords',
	name: 'keywords',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. crm software',
	description: 'Words the posts must mention',
});

const SENTIMENT = field({
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
});

const EXPECTED_LEADS = field({
	displayName: 'Expected Leads',
	name: 'expectedData',
	type: 'number',
	required: true,
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: 50,
	description: 'How many leads (posts) to collect at most',
});

const BODY = new Request([NAME, KEYWORDS, SENTIMENT, EXPECTED_LEADS], { sentimentType: 'sentiment_type', expectedData: 'expected_data' });

export const leadCreateAndRunSocial: Operation = {
	value: 'createAndRunSocial',
	name: 'Create and Run Social Scraper',
	action: 'Create and run social platform lead scraper',
	description: 'Find leads among social platform posts that mention your keywords, filtered by sentiment',
	properties: [
		nameProperty('People talking about CRM software'),
		KEYWORDS.property,
		SENTIMENT.property,
		EXPECTED_LEADS.property,
		...createAndRunWaitProperties('one lead'),
	],
	concurrency: waitingConcurrency,
	parallel: true,
	async execute(itemIndex, call) {
		const values = readFields(this, itemIndex, BODY.fields);
		return await createAndRun(call, itemIndex, '/api/scrapers/leads-generator/social/create-and-run', BODY.body(values), BODY.labels());
	},
};
