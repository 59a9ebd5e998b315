import { PollContext } from 'n8n-core';
import { NodeHelpers, Workflow } from 'n8n-workflow';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeType,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { harnessAdditionalData } from './execute';
import { loadPackage, NodeTypes, PACKAGE_NAME } from './package';
import { NodeCall } from '../../nodes/shared/execution/call';

/** The triggers listed under their service, with their events. */
export const TRIGGER_TYPE = `${PACKAGE_NAME}.scraperPlatformTrigger`;
export const RUN_TRIGGER_TYPE = `${PACKAGE_NAME}.scraperMarketplaceTrigger`;
/** The types they replaced, hidden from the node creator and kept for saved workflows. */
export const BULK_TRIGGER_TYPE = `${PACKAGE_NAME}.scraperBulkTrigger`;
export const SCRAPER_RUN_TRIGGER_TYPE = `${PACKAGE_NAME}.scraperRunTrigger`;

export interface TriggerOptions {
	baseUrl: string;
	apiToken: string;
	/** Node parameters as the user sets them; n8n's own NodeHelpers fills in the defaults. */
	parameters?: INode['parameters'];
	/**
	 * Where the workflow's static data is "saved" between instances (n8n's database). Pass the same object to a
	 * new `TriggerInstance` to simulate a restart.
	 */
	database?: TriggerDatabase;
	/** The node version the workflow was saved with; the newest by default, as the editor adds it. */
	typeVersion?: number;
	/** Which of our triggers (full type); the Scraper Platform Trigger by default. */
	nodeType?: string;
	/** The credential type `apiToken`/`baseUrl` fill; the Scraper Platform API by default. */
	credentialType?: string;
	/** More fields of the credential besides `apiToken` and `baseUrl` (e.g. the Platform's Fetch Base URL). */
	credential?: IDataObject;
	/** The node's name in the workflow (its static data is kept under it); the type's display name by default. */
	name?: string;
}

/** The saved copy of the workflow's static data, as JSON, the way n8n stores it. */
export interface TriggerDatabase {
	staticData?: string;
	saves: number;
}

/**
 * One activated trigger: n8n-core's real PollContext over a Workflow whose static data lives in memory between
 * polls and is saved to `database` the way n8n's active workflow manager does it: after the activation poll and
 * whenever a poll emits. A new instance over the same database is a restart of n8n.
 */
export class TriggerInstance {
	readonly workflow: Workflow;
	readonly node: INode;
	readonly database: TriggerDatabase;
	private readonly additionalData: IWorkflowExecuteAdditionalData;
	private readonly nodeType: INodeType;
	private activated = false;

	constructor(options: TriggerOptions) {
		const { nodes, credentials } = loadPackage();
		const fullType = options.nodeType ?? TRIGGER_TYPE;
		const credentialType = options.credentialType ?? 'scraperPlatformApi';
		const type = nodes.get(fullType);
		if (!type) throw new Error(`${fullType} is not in the package`);
		this.nodeType = NodeHelpers.getVersionedNodeType(type);
		this.database = options.database ?? { saves: 0 };
		const node: INode = {
			id: 'trigger',
			name: options.name ?? type.description.displayName,
			type: fullType,
			typeVersion: options.typeVersion ?? Math.max(...[this.nodeType.description.version].flat()),
			position: [0, 0],
			parameters: {},
			credentials: { [credentialType]: { id: 'cred-1', name: `${credentialType} test` } },
		};
		// The editor saves `pollTimes` (added by n8n's loader to every polling node) with the other parameters.
		node.parameters = {
			...(NodeHelpers.getNodeParameters(this.nodeType.description.properties, options.parameters ?? {}, true, false, node, this.nodeType.description) ?? {}),
			pollTimes: { item: [{ mode: 'everyMinute' }] },
		};
		this.node = node;
		this.workflow = new Workflow({
			id: 'trigger-workflow',
			name: 'Trigger workflow',
			nodes: [node],
			connections: {},
			nodeTypes: new NodeTypes(new Map([[fullType, type]])),
			active: true,
			settings: { timezone: 'UTC', executionOrder: 'v1' },
			staticData: this.database.staticData ? (JSON.parse(this.database.staticData) as IDataObject) : undefined,
		});
		this.additionalData = harnessAdditionalData(credentials, {
			[credentialType]: { ...options.credential, apiToken: options.apiToken, baseUrl: options.baseUrl },
		});
	}

	/** The context n8n hands to `poll()` (a new one per call is fine: n8n keeps state only in static data). */
	context(mode: WorkflowExecuteMode = 'trigger'): PollContext {
		// n8n activates with 'activate' when a user turns the workflow on and with 'init' when it starts up again.
		const activation: WorkflowActivateMode = mode === 'manual' ? 'manual' : this.database.saves > 0 ? 'init' : 'activate';
		return new PollContext(this.workflow, this.node, this.additionalData, mode, activation);
	}

	/** One poll's call over a fresh context, as the trigger makes it for each poll (see NodeCall). */
	call(mode: WorkflowExecuteMode = 'trigger'): NodeCall<PollContext> {
		return new NodeCall(this.context(mode));
	}

	/** The node's static data as it is in memory now (a plain copy). */
	staticData(): IDataObject {
		return JSON.parse(JSON.stringify(this.workflow.getStaticData('node', this.node))) as IDataObject;
	}

	/**
	 * One active poll, as n8n's ActiveWorkflows runs it: errors propagate (n8n logs them and runs the error
	 * workflow), emitted items save the static data.
	 */
	async poll(): Promise<INodeExecutionData[]> {
		const firstPoll = !this.activated;
		const result = await this.nodeType.poll!.call(this.context('trigger'));
		this.activated = true;
		if (result !== null || firstPoll) this.save();
		return result?.[0] ?? [];
	}

	/** The editor's "Fetch Test Event". */
	async fetchTestEvent(): Promise<INodeExecutionData[]> {
		const result = await this.nodeType.poll!.call(this.context('manual'));
		return result?.[0] ?? [];
	}

	private save(): void {
		this.database.staticData = JSON.stringify(this.workflow.staticData);
		this.database.saves++;
	}
}
