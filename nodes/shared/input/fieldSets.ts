import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { shownBefore } from '../descriptions/collections';
import { Field, parameter, validatorFor } from './fields';
import type { ParameterContext } from './fields';

/**
 * Fields read together: a collection of them (Options, Additional Fields), a field that moved into one at a node
 * version, an operation's fields checked in order (`readFields`), and the request that sends them (`Request`).
 */

/**
 * A field that moved from the main panel into a collection (`options` unless said) at node version `since`: the same
 * declaration shown in both places, each to its versions, and read from where the workflow's version keeps it.
 */
export class Moved<T = unknown, M = unknown> {
	constructor(
		readonly field: Field<T, M>,
		readonly since: number,
		/** Its display conditions inside the collection, where the main panel's do not apply (a root parameter is `/name`). */
		private readonly optionDisplay?: IDisplayOptions,
		readonly collectionName = 'options',
	) {}

	/** The main-panel property, shown to the versions before `since` (saved workflows keep their value there). */
	get legacy(): INodeProperties {
		const { property } = this.field;
		return { ...property, displayOptions: { show: { ...property.displayOptions?.show, ...shownBefore(this.since) } } };
	}

	/** The collection's entry. */
	get option(): INodeProperties {
		const option: INodeProperties = { ...this.field.property, displayOptions: this.optionDisplay };
		if (!this.optionDisplay) delete option.displayOptions;
		return option;
	}

	/** Where the workflow's version keeps it; undefined when not added to the collection. */
	read(ctx: ParameterContext, itemIndex = 0): T | undefined {
		if (ctx.getNode().typeVersion < this.since) return this.field.read(ctx, itemIndex) as T | undefined;
		const collection = (parameter(ctx, this.collectionName, itemIndex, {}) ?? {}) as IDataObject;
		return this.field.from(validatorFor(ctx, itemIndex), collection);
	}
}

type Entry = Field<unknown, unknown> | Moved;

const fieldOf = (entry: Entry): Field<unknown, unknown> => (entry instanceof Moved ? entry.field : entry);

/** The fields inside one collection parameter (Options, Additional Fields, a filter), declared once each. */
export class Collection {
	constructor(
		readonly property: INodeProperties,
		readonly entries: readonly Entry[],
	) {}

	get name(): string {
		return this.property.name;
	}

	get fields(): Array<Field<unknown, unknown>> {
		return this.entries.map(fieldOf);
	}

	/** The main-panel properties of its moved fields, for the versions before they moved. */
	get legacy(): INodeProperties[] {
		return this.entries.filter((entry): entry is Moved => entry instanceof Moved).map((entry) => entry.legacy);
	}

	/** What the user added, each field checked in the order declared; unknown keys are ignored as n8n ignores them. */
	read(ctx: ParameterContext, itemIndex = 0): Array<[Field<unknown, unknown>, unknown]> {
		const v = validatorFor(ctx, itemIndex);
		const raw = (parameter(ctx, this.name, itemIndex, {}) ?? {}) as IDataObject;
		return this.entries.map((entry) => (entry instanceof Moved ? [entry.field, entry.read(ctx, itemIndex)] : [entry, entry.from(v, raw)]));
	}
}

/**
 * A collection parameter whose entries are the fields given, sorted by display name as n8n's guidelines ask; its
 * `name`, `displayName` and placeholder come from `shell` (see `optionsCollection`).
 */
export function collection(shell: (options: INodeProperties[]) => INodeProperties, entries: readonly Entry[]): Collection {
	const options = entries.map((entry) => (entry instanceof Moved ? entry.option : entry.property));
	return new Collection(shell(options.sort((a, b) => a.displayName.localeCompare(b.displayName))), entries);
}

/** Checked values of some fields, each found by its field; a field left empty or not added reads as undefined. */
export class Values {
	private readonly byField: Map<Field<unknown, unknown>, unknown>;

	constructor(entries: Array<[Field<unknown, unknown>, unknown]>) {
		this.byField = new Map(entries);
	}

	/** The value as its place gives it: never undefined for a required main-panel field. */
	get<M>(f: Field<unknown, M>): M {
		if (!this.byField.has(f)) throw new Error(`The field '${f.name}' was not read`);
		return this.byField.get(f) as M;
	}

	/** The value of a field that may be left out (an option), undefined when it was. */
	of<T>(f: Field<T, unknown>): T | undefined {
		return this.get(f) as T | undefined;
	}
}

/** Reads and checks fields of the main panel and collections, in the order given, before anything is sent. */
export function readFields(ctx: ParameterContext, itemIndex: number, entries: ReadonlyArray<Field<unknown, unknown> | Collection>): Values {
	return new Values(entries.flatMap((entry) => (entry instanceof Collection ? entry.read(ctx, itemIndex) : [[entry, entry.read(ctx, itemIndex)]])));
}

/**
 * The fields a request sends, in the order it sends them, each under its name or the key `sentAs` gives it (the one
 * place a request key differs from a field's name). Its `labels` name a request key by the field's display name, so
 * the service's own errors about a key name the field the user sees.
 */
export class Request {
	constructor(
		readonly fields: ReadonlyArray<Field<unknown, unknown>>,
		readonly sentAs: Readonly<Record<string, string>> = {},
	) {
		const unknown = Object.keys(sentAs).filter((name) => !fields.some((f) => f.name === name));
		if (unknown.length > 0) throw new Error(`sentAs names fields the request does not send: ${unknown.join(', ')}`);
	}

	keyOf(f: Field<unknown, unknown>): string {
		return this.sentAs[f.name] ?? f.name;
	}

	/** The values set, under their request keys; a value left out stays out (the service applies its default). */
	body(values: Values): IDataObject {
		const body: IDataObject = {};
		for (const f of this.fields) {
			const checked = values.of(f);
			if (checked !== undefined) body[this.keyOf(f)] = checked as IDataObject[string];
		}
		return body;
	}

	labels(): Record<string, string> {
		return Object.fromEntries(this.fields.map((f) => [this.keyOf(f), f.label]));
	}
}
