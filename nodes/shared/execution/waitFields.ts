import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { field } from '../input/fields';
import { Moved } from '../input/fieldSets';
import type { Field } from '../input/fields';

/** The longest wait an execution should hold: a day. A longer job is better checked later with its ID. */
export const MAX_WAIT_SECONDS = 86_400;
/** The longest pause between two checks: an hour. */
export const MAX_POLL_INTERVAL_SECONDS = 3_600;

export interface WaitSettings {
	maxWaitMs: number;
	pollIntervalMs: number;
}

/**
 * The Wait for Completion switch with its Max Wait and Poll Interval, for operations that start asynchronous work.
 * `what` names the work in the descriptions ("job", "run"); `defaultOn` suits work that is useless until done. From
 * the node's version `optionsSince` Max Wait and Poll Interval are entries of the caller's Options collection (both
 * have sensible defaults); before it they sit below the switch, as saved workflows keep them.
 */
export class WaitFields {
	readonly waitSwitch: Field<boolean, boolean>;
	readonly maxWait: Moved<number>;
	readonly pollInterval: Moved<number>;

	constructor(what: string, defaultOn: boolean, doneWhen: string, optionsSince: number) {
		this.waitSwitch = field({
			displayName: 'Wait for Completion',
			name: 'waitForCompletion',
			type: 'boolean',
			// The scanner reads a boolean's default as written: a literal here, the caller's choice set below.
			default: false,
			description: `Whether to wait until ${doneWhen} before continuing`,
		});
		this.waitSwitch.property.default = defaultOn;
		const whenWaiting = { show: { waitForCompletion: [true] } };
		const switchLabel = this.waitSwitch.label;
		// Inside Options the switch is a root parameter: `/` reads it from the top.
		const optionWhenWaiting = { show: { '/waitForCompletion': [true] } };
		const maxWait = field({
			displayName: 'Max Wait (Seconds)',
			name: 'maxWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_WAIT_SECONDS, numberPrecision: 0 },
			default: 600,
			displayOptions: whenWaiting,
			description: `Stop waiting after this long (at most ${MAX_WAIT_SECONDS} s, a day) and output the latest state of the ${what} (completed false). Only used with '${switchLabel}'.`,
		});
		const pollInterval = field({
			displayName: 'Poll Interval (Seconds)',
			name: 'pollIntervalSeconds',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_POLL_INTERVAL_SECONDS, numberPrecision: 0 },
			default: 5,
			displayOptions: whenWaiting,
			description: `How often to check the ${what} at first; the interval grows gently while it runs. Only used with '${switchLabel}'.`,
		});
		this.maxWait = new Moved(maxWait, optionsSince, optionWhenWaiting);
		this.pollInterval = new Moved(pollInterval, optionsSince, optionWhenWaiting);
	}

	/** The switch, and before `optionsSince` Max Wait and Poll Interval below it. */
	get main(): INodeProperties[] {
		return [this.waitSwitch.property, this.maxWait.legacy, this.pollInterval.legacy];
	}

	/** Max Wait and Poll Interval, for the caller's Options collection. */
	get options(): Moved[] {
		return [this.maxWait, this.pollInterval];
	}

	/** The wait the user asked for, checked; undefined when Wait for Completion is off. */
	read(ctx: IExecuteFunctions, itemIndex: number): WaitSettings | undefined {
		if (!this.waitSwitch.read(ctx, itemIndex)) return undefined;
		const seconds = (moved: Moved<number>) => moved.read(ctx, itemIndex) ?? (moved.field.property.default as number);
		return { maxWaitMs: seconds(this.maxWait) * 1000, pollIntervalMs: seconds(this.pollInterval) * 1000 };
	}
}
