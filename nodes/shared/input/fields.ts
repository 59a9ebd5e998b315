import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions, IPollFunctions } from 'n8n-workflow';

import type { DateTime } from 'luxon';

import { InputValidator } from './validation';

/**
 * A field is declared once, as the property literal n8n's lint and reviewers read; everything else follows from it:
 * its value is read by its `name`, checked by the rules the declaration states (type, range, options, required) or a
 * named rule where the declaration cannot state one, and named in errors by its own `displayName`. Where a request
 * sends it under another key, one small `sentAs` mapping beside the declarations says so (`Request`, fieldSets.ts).
 */

/** A rule the declaration cannot state (a URL, a country code, a JSON Schema): the value checked, as it is sent. */
export type Rule<T> = (v: InputValidator, value: unknown, label: string) => T;

/** The named rules most fields need, each a check of `InputValidator` under the field's own label. */
export const rules = {
	httpUrl: ((v, value, label) => v.httpUrl(value, label)) as Rule<string>,
	/** One or more URLs, one per line or comma-separated, or a list from an expression. */
	httpUrls: ((v, value, label) => v.httpUrlList(value, label, { required: true })) as Rule<string[]>,
	countryCode: ((v, value, label) => v.countryCode(value, label)) as Rule<string | undefined>,
	languageCode: ((v, value, label) => v.languageCode(value, label)) as Rule<string | undefined>,
	uuid: ((v, value, label) => v.uuid(value, label)) as Rule<string>,
	regex: ((v, value, label) => v.regex(value, label)) as Rule<string | undefined>,
	/** Texts one per line or comma-separated, or a list from an expression. */
	textList: ((v, value, label) => v.textList(value, label)) as Rule<string[]>,
	/** One of a vocabulary's values, typed, named in its message in the vocabulary's order (the editor sorts its own). */
	oneOf:
		<T extends string>(allowed: readonly T[]): Rule<T> =>
		(v, value, label) =>
			v.oneOf(value, label, allowed),
	/** A date picker's value in the workflow's time zone, as a UTC DateTime. */
	dateTime: ((v, value, label) => v.dateTime(value, label)) as Rule<DateTime>,
};

/** What the declaration's `type` reads as, when no named rule is given. */
type Declared<P> = P extends { type: 'boolean' }
	? boolean
	: P extends { type: 'number' }
		? number
		: P extends { type: 'multiOptions' }
			? string[]
			: string;

/** A node's context that reads parameters: an operation's (per item) or a trigger's poll (one set). */
export type ParameterContext = IExecuteFunctions | IPollFunctions;

/** A parameter's value for an item; `fallback` when the workflow's version or display conditions do not show it. */
export function parameter(ctx: ParameterContext, name: string, itemIndex: number, fallback: unknown): unknown {
	return 'getInputData' in ctx ? ctx.getNodeParameter(name, itemIndex, fallback) : ctx.getNodeParameter(name, fallback);
}

/** The validator of an item, in the workflow's time zone (dates are read in it). */
export function validatorFor(ctx: ParameterContext, itemIndex: number): InputValidator {
	return new InputValidator(ctx.getNode(), itemIndex, ctx.getTimezone());
}

/** A value is empty when n8n holds nothing for it (an option not added, a text left blank). */
export function isEmpty(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

/** The values an `options` or `multiOptions` declaration offers. */
function offered(property: INodeProperties): string[] {
	return ((property.options ?? []) as INodePropertyOptions[]).map((option) => String(option.value));
}

/** The check of a value of a declaration without a named rule: its type, range and options. */
function declaredRule(property: INodeProperties): Rule<unknown> {
	const range = { min: property.typeOptions?.minValue, max: property.typeOptions?.maxValue };
	switch (property.type) {
		case 'boolean':
			return (v, value, label) => v.boolean(value, label);
		case 'number':
			return property.typeOptions?.numberPrecision === 0
				? (v, value, label) => v.integer(value, label, range)
				: (v, value, label) => v.decimal(value, label, range);
		case 'options':
			return (v, value, label) => v.oneOf(value, label, offered(property));
		case 'multiOptions':
			return (v, value, label) => {
				const chosen = v.textList(value, label);
				if (property.required && chosen.length === 0) v.fail(label, 'choose at least one', `Pick one or more in '${label}'.`);
				return chosen.map((entry) => v.oneOf(entry, label, offered(property)));
			};
		case 'string':
			return (v, value, label) => v.requiredString(value, label);
		default:
			throw new Error(`The field '${property.name}' of type ${property.type} needs a named rule`);
	}
}

/**
 * One parameter: its declaration and its check. `T` is the checked value; `Main` what reading it from the main panel
 * gives (a required field, or one n8n always holds a value for, is never undefined there).
 */
export class Field<T = unknown, Main = T | undefined> {
	private readonly rule: Rule<T>;

	constructor(
		readonly property: INodeProperties,
		rule?: Rule<T>,
		/** Whether an option added but blank (its expression gave nothing) is refused by its rule, not read as not added. */
		private readonly blankRefused = false,
	) {
		this.rule = rule ?? (declaredRule(property) as Rule<T>);
	}

	/** The same field, whose option added but left blank is refused: for a filter that, blank, would widen a listing. */
	refusingBlank(): Field<T, Main> {
		return new Field<T, Main>(this.property, this.rule, true);
	}

	get name(): string {
		return this.property.name;
	}

	/** Its display name, as every message about it names it. */
	get label(): string {
		return this.property.displayName;
	}

	/** The same field worded for one node (its description, default or placeholder): the same name, label and rule. */
	with(wording: Partial<Pick<INodeProperties, 'description' | 'default' | 'placeholder' | 'hint' | 'displayOptions'>>): Field<T, Main> {
		return new Field<T, Main>({ ...this.property, ...wording }, this.rule, this.blankRefused);
	}

	/** The value checked: undefined when empty and not required; a required one's rule refuses it empty, in its words. */
	check(v: InputValidator, value: unknown, label = this.label): T | undefined {
		// A switch is never blank: left out it is not set, but "" or null from an expression must still be true or false.
		const unset = this.property.type === 'boolean' ? value === undefined : isEmpty(value);
		if (unset && !this.property.required) return undefined;
		return this.rule(v, value, label);
	}

	/** From the main panel; a parameter the workflow's version does not show reads as its default. */
	read(ctx: ParameterContext, itemIndex = 0): Main {
		const value = parameter(ctx, this.name, itemIndex, this.property.default);
		return this.check(validatorFor(ctx, itemIndex), value) as Main;
	}

	/** From a collection's value (Options, Additional Fields): undefined when the user did not add it. */
	from(v: InputValidator, collection: IDataObject): T | undefined {
		const value = collection[this.name];
		// Added, even where its expression gave nothing: refused as such, never read as not added.
		if (this.blankRefused && this.name in collection) {
			if (isEmpty(value)) v.fail(this.label, 'it was added but is empty', `Enter a value for '${this.label}', or remove the option.`);
			return this.rule(v, value, this.label);
		}
		return this.check(v, value);
	}
}

/** Never undefined from the main panel: required, or a value n8n always holds (a switch, a number, a choice). */
type MainOf<P, T> = P extends { required: true } ? T : P extends { type: 'boolean' | 'number' | 'options' } ? T : T | undefined;

/** A field of the main panel or of a collection, checked as its declaration states. */
export function field<const P extends INodeProperties>(property: P): Field<Declared<P>, MainOf<P, Declared<P>>>;
/** A field with a named rule (a URL, a code, a schema): the rule's value is what is checked and sent. */
export function field<const P extends INodeProperties, T>(property: P, rule: Rule<T>): Field<T, MainOf<P, T>>;
export function field(property: INodeProperties, rule?: Rule<unknown>): Field {
	return new Field(property, rule);
}
