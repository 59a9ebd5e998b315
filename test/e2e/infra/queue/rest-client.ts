/* eslint-disable @n8n/community-nodes/no-restricted-globals -- e2e tooling in plain Node: it calls n8n main's REST API as the editor does */
// Main's REST API as the editor uses it: run a workflow, read its executions, (de)activate it, download binary data.
import type { N8nRun } from '../../../../scripts/demo/n8n';

const sleep = async (ms: number) => await new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * flatted's format (n8n stores execution data with it): a JSON array whose first entry is the root; every string
 * inside an object or array is the index of the entry holding the value.
 */
function unflatten(text: string): unknown {
	const table = JSON.parse(text) as unknown[];
	const built = new Map<number, unknown>();
	const resolve = (value: unknown): unknown => (typeof value === 'string' ? entry(Number(value)) : value);
	const entry = (index: number): unknown => {
		const raw = table[index];
		if (raw === null || typeof raw !== 'object') return raw;
		if (built.has(index)) return built.get(index);
		if (Array.isArray(raw)) {
			const out: unknown[] = [];
			built.set(index, out);
			for (const value of raw) out.push(resolve(value));
			return out;
		}
		const out: Record<string, unknown> = {};
		built.set(index, out);
		for (const [key, value] of Object.entries(raw as Record<string, unknown>)) out[key] = resolve(value);
		return out;
	};
	return entry(0);
}

/** An execution as main's REST API returns it, with its data unflattened. */
export interface RestExecution {
	id: string;
	finished: boolean;
	mode: string;
	status: string;
	startedAt: string | null;
	stoppedAt: string | null;
	workflowId: string;
	/** The run in the shape `n8n execute --rawOutput` prints (status, data.resultData...). */
	run: N8nRun;
}

/** Main's REST API as the editor uses it, with an owner's session cookie. */
export class N8nRestClient {
	constructor(
		readonly baseUrl: string,
		private readonly cookie: string,
	) {}

	async request(method: string, route: string, body?: unknown): Promise<Response> {
		return await fetch(`${this.baseUrl}${route}`, {
			method,
			headers: { cookie: this.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }), 'browser-id': 'e2e-queue' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	}

	async json<T>(method: string, route: string, body?: unknown): Promise<T> {
		const res = await this.request(method, route, body);
		const text = await res.text();
		if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${text.slice(0, 2000)}`);
		return (JSON.parse(text) as { data: T }).data;
	}

	async workflow(id: string): Promise<Record<string, unknown> & { id: string; versionId?: string; nodes: Array<{ name: string; type: string }> }> {
		return await this.json('GET', `/rest/workflows/${id}`);
	}

	/**
	 * "Execute workflow" as the editor sends it (POST /rest/workflows/:id/run with the workflow and the trigger to
	 * start from); returns the execution id.
	 */
	async runManually(workflowId: string): Promise<string> {
		const workflowData = await this.workflow(workflowId);
		const trigger = workflowData.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
		if (!trigger) throw new Error(`Workflow ${workflowId} has no Manual Trigger`);
		const result = await this.json<{ executionId?: string; waitingForWebhook?: boolean }>('POST', `/rest/workflows/${workflowId}/run`, {
			workflowData,
			triggerToStartFrom: { name: trigger.name },
		});
		if (!result.executionId) throw new Error(`n8n started no execution: ${JSON.stringify(result)}`);
		return String(result.executionId);
	}

	async execution(id: string): Promise<RestExecution> {
		const raw = await this.json<Record<string, unknown>>('GET', `/rest/executions/${id}`);
		const data = typeof raw.data === 'string' ? unflatten(raw.data) : raw.data;
		return {
			id: String(raw.id),
			finished: raw.finished === true,
			mode: String(raw.mode),
			status: String(raw.status),
			startedAt: (raw.startedAt as string | null) ?? null,
			stoppedAt: (raw.stoppedAt as string | null) ?? null,
			workflowId: String(raw.workflowId),
			run: { status: String(raw.status), finished: raw.finished === true, data: data as N8nRun['data'] },
		};
	}

	/** Polls the execution until n8n has saved it waiting (a Wait node past 65 s), or fails after `timeoutMs`. */
	async waitUntilWaiting(id: string, timeoutMs = 60_000, intervalMs = 500): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const { status } = await this.execution(id);
			if (status === 'waiting') return;
			if (!['new', 'running'].includes(status) || Date.now() > deadline) throw new Error(`Execution ${id} did not reach its Wait: it is ${status}`);
			await sleep(intervalMs);
		}
	}

	/** Polls the execution until it is no longer new, running or waiting. */
	async waitForExecution(id: string, timeoutMs = 180_000, intervalMs = 500): Promise<RestExecution> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const execution = await this.execution(id);
			if (!['new', 'running', 'waiting'].includes(execution.status)) return execution;
			if (Date.now() > deadline) throw new Error(`Execution ${id} still ${execution.status} after ${timeoutMs} ms`);
			await sleep(intervalMs);
		}
	}

	/** Executions of a workflow, newest first (id, status, mode), up to 100. */
	async executionsOf(workflowId: string): Promise<Array<{ id: string; status: string; mode: string }>> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const page = await this.json<{ results: Array<{ id: string; status: string; mode: string }> }>('GET', `/rest/executions?filter=${filter}&limit=100`);
		return page.results.map((e) => ({ id: String(e.id), status: e.status, mode: e.mode }));
	}

	async activate(workflowId: string): Promise<void> {
		const wf = await this.workflow(workflowId);
		await this.json('POST', `/rest/workflows/${workflowId}/activate`, { versionId: wf.versionId });
	}

	async deactivate(workflowId: string): Promise<void> {
		await this.json('POST', `/rest/workflows/${workflowId}/deactivate`, {});
	}

	/** A binary file of an execution, downloaded through main (GET /rest/binary-data?id=...&action=download). */
	async binary(id: string): Promise<{ status: number; bytes: Buffer; contentType: string | null }> {
		const res = await this.request('GET', `/rest/binary-data?id=${encodeURIComponent(id)}&action=download`);
		return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type') };
	}
}
