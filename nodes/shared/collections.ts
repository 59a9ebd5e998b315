import type { INodeProperties } from 'n8n-workflow';

/** n8n's "Add Option" collection (`options`): settings that change how the node works, none of them needed. */
export function optionsCollection(options: INodeProperties[], more: Pick<INodeProperties, 'description' | 'displayOptions'> = {}): INodeProperties {
	return { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, ...more, options };
}

/** n8n's "Add Field" collection (`additionalFields`): optional fields of the request, each sent only when added. */
export function additionalFields(options: INodeProperties[], more: Pick<INodeProperties, 'description' | 'displayOptions'> = {}): INodeProperties {
	return { displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, ...more, options };
}
