import type { IExecuteFunctions, INodeProperties, IPollFunctions } from 'n8n-workflow';

/** The node version that turned id fields into resource locators (`From list` / `By ID`). */
export const LOCATOR_VERSION = 2;

export interface IdParameter {
	name: string;
	displayName: string;
	description: string;
	/** The `listSearch` method of the node that lists the choices. */
	searchListMethod: string;
	/** Shape of a typed id, checked by the editor in By ID mode (the node checks it again before sending). */
	idPattern: { regex: string; errorMessage: string };
	placeholder: string;
	required?: boolean;
	/** The parameter as version 1 stored it (a plain text or number field), kept so saved workflows still load. */
	legacy: Omit<INodeProperties, 'name' | 'displayName' | 'displayOptions'>;
}

/**
 * An id parameter in both its shapes: the version 1 text/number field, and from version 2 a resource locator whose
 * list comes from the service. Both have the same name, so an operation reads it the same way (`readId`) whatever
 * version the workflow was saved with.
 */
export function idParameter(spec: IdParameter): INodeProperties[] {
	const required = spec.required ?? true;
	return [
		{
			...spec.legacy,
			displayName: spec.displayName,
			name: spec.name,
			required,
			description: spec.description,
			displayOptions: { show: { '@version': [1] } },
		} as INodeProperties,
		{
			displayName: spec.displayName,
			name: spec.name,
			type: 'resourceLocator',
			required,
			default: { mode: 'list', value: '' },
			description: spec.description,
			displayOptions: { show: { '@version': [{ _cnd: { gte: LOCATOR_VERSION } }] } },
			modes: [
				{
					displayName: 'From List',
					name: 'list',
					type: 'list',
					placeholder: `Select a ${spec.displayName.replace(/ ID$/, '')}...`,
					typeOptions: { searchListMethod: spec.searchListMethod, searchable: true },
				},
				{
					displayName: 'By ID',
					name: 'id',
					type: 'string',
					placeholder: spec.placeholder,
					validation: [{ type: 'regex', properties: spec.idPattern }],
				},
			],
		},
	];
}

/** The id the user chose: the locator's value from version 2, the plain value before; the caller checks its shape. */
export function readId(ctx: IExecuteFunctions | IPollFunctions, name: string, itemIndex: number, fallback: unknown = ''): unknown {
	return 'getInputData' in ctx
		? ctx.getNodeParameter(name, itemIndex, fallback, { extractValue: true })
		: ctx.getNodeParameter(name, fallback, { extractValue: true });
}

export const UUID_PATTERN = {
	regex: '^\\s*[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\s*$',
	errorMessage: 'Enter a UUID, e.g. 3f2b9c1e-8a4d-4e6f-9b2a-1c3d5e7f9a0b',
};

export const INTEGER_ID_PATTERN = { regex: '^\\s*[1-9][0-9]*\\s*$', errorMessage: 'Enter a whole number, e.g. 101' };
