/** What `n8n execute --rawOutput` printed, parsed. */
export interface ExecuteResult {
	code: number;
	stdout: string;
	stderr: string;
	/** The run data (IRun) n8n printed; undefined when it printed none. */
	run?: N8nRun;
}

export interface N8nItem {
	json: Record<string, unknown>;
	binary?: Record<string, { data?: string; id?: string; mimeType: string; fileName?: string; fileExtension?: string; fileSize?: string }>;
	pairedItem?: unknown;
}

interface N8nTaskData {
	executionStatus?: string;
	error?: { message?: string; description?: string };
	data?: { main?: Array<N8nItem[] | null> };
}

export interface N8nRun {
	status?: string;
	finished?: boolean;
	data: { resultData: { runData: Record<string, N8nTaskData[]>; lastNodeExecuted?: string; error?: { message?: string } } };
}

/**
 * The JSON document n8n prints among its log lines: from a line that opens an object at column 0 to a line that
 * closes it at column 0 (the task runner may log after it).
 */
export function parseRawOutput(stdout: string): N8nRun | undefined {
	const lines = stdout.split('\n');
	for (let i = 0; i < lines.length; i++) {
		if (lines[i] !== '{') continue;
		for (let j = i + 1; j < lines.length; j++) {
			if (lines[j] !== '}') continue;
			try {
				return JSON.parse(lines.slice(i, j + 1).join('\n')) as N8nRun;
			} catch {
				// A closing brace inside a string value: keep looking.
			}
		}
	}
	return undefined;
}
