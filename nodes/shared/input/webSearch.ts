import { field, rules } from './fields';

/**
 * The fields of a web search, declared once for every node that searches (the Platform's Google search with the
 * token, the Gateway's paid search): the same field is checked the same way whatever pays for it. Each node words
 * them its own way with `Field.with`.
 */
export const SEARCH_FIELDS = {
	language: field(
		{
			displayName: 'Language',
			name: 'language',
			type: 'string',
			default: 'en',
			placeholder: 'e.g. en',
			description: 'Language code of the results, e.g. en, pt-BR, es-419 or zh-Hant',
		},
		rules.languageCode,
	),
	page: field({
		displayName: 'Page',
		name: 'page',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 1,
		description: 'The result page, from 1',
	}),
};
