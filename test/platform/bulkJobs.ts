/** What the Bulk operations' tests share: the URL lists they start jobs with and how they read a job's URLs. */

/** `n` shop item URLs; those at the indexes in `failing` end in the simulator's failure marker. */
export const urls = (n: number, failing: number[] = []) =>
	Array.from({ length: n }, (_, i) => `https://shop.example.com/item/${i + 1}${failing.includes(i) ? '/sim-fail' : ''}`);

export interface UrlDetail {
	url: string;
	status: string;
}

export function statusCounts(details: UrlDetail[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const d of details) counts[d.status] = (counts[d.status] ?? 0) + 1;
	return counts;
}
