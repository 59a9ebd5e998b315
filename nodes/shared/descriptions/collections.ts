import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/**
 * The node version that moved optional parameters into `Options` (Parallel Requests among them), put Simplify on top
 * and sorting in its own collection, as n8n's UX guidelines ask. Saved workflows of earlier versions keep theirs.
 */
export const OPTIONS_VERSION = 3;

/** Display conditions for the versions before and from `OPTIONS_VERSION`. */
export const BEFORE_OPTIONS: NonNullable<IDisplayOptions['show']> = { '@version': [{ _cnd: { lt: OPTIONS_VERSION } }] };
export const FROM_OPTIONS: NonNullable<IDisplayOptions['show']> = { '@version': [{ _cnd: { gte: OPTIONS_VERSION } }] };

/** n8n's "Add Option" collection (`options`): settings that change how the node works, none of them needed. */
export function optionsCollection(options: INodeProperties[], more: Pick<INodeProperties, 'description' | 'displayOptions'> = {}): INodeProperties {
	return { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, ...more, options };
}

/** n8n's "Add Field" collection (`additionalFields`): optional fields of the request, each sent only when added. */
export function additionalFields(options: INodeProperties[], more: Pick<INodeProperties, 'description' | 'displayOptions'> = {}): INodeProperties {
	return { displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, ...more, options };
}

/**
 * A parameter that moved from the main panel into Options at `OPTIONS_VERSION`: the same property in both places,
 * each shown to its versions. The Options entry is returned for the caller's Options collection.
 */
export function movedToOptions(property: INodeProperties): { legacy: INodeProperties; option: INodeProperties } {
	const { displayOptions, ...option } = property;
	return { legacy: { ...property, displayOptions: { show: { ...displayOptions?.show, ...BEFORE_OPTIONS } } }, option };
}

/** The value of a parameter `movedToOptions`, wherever the workflow's node version keeps it. */
export function readMoved(ctx: IExecuteFunctions, name: string, itemIndex: number, fallback: unknown): unknown {
	if (ctx.getNode().typeVersion < OPTIONS_VERSION) return ctx.getNodeParameter(name, itemIndex, fallback);
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return options[name] ?? fallback;
}
