/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the simulator is test code that runs in plain Node, never inside n8n */
/**
 * Real-time waits of a simulated API (per-route latency, `slow` faults), kept so that closing the server ends them
 * at once: `close()` never hangs on a timer, and the requests that were waiting are dropped, never handled.
 */

interface PendingWait {
	timer: NodeJS.Timeout;
	resolve: (completed: boolean) => void;
}

export class RealTimeWaits {
	private readonly pending = new Set<PendingWait>();

	/** Waits `ms` of real time; resolves true when done, false when `endAll()` cut it short. */
	sleep(ms: number): Promise<boolean> {
		if (!(ms > 0)) return Promise.resolve(true);
		return new Promise<boolean>((resolve) => {
			const wait: PendingWait = {
				timer: setTimeout(() => {
					this.pending.delete(wait);
					resolve(true);
				}, ms),
				resolve,
			};
			this.pending.add(wait);
		});
	}

	/** Ends every wait in progress (each resolves false). */
	endAll(): void {
		for (const wait of [...this.pending]) {
			clearTimeout(wait.timer);
			this.pending.delete(wait);
			wait.resolve(false);
		}
	}
}
