import { LIMIT, RETURN_ALL } from '../descriptions/listing';

/**
 * What a guarded walk says when a listing does not behave (the guard itself: `PagingGuard` in pages.ts). Kept apart
 * so the guard reads as rules and the wording as sentences.
 */

/** How a walk ended: the listing's last page, empty pages past its count, not advancing, or far past its end. */
export type WalkEnd = 'last' | 'emptied' | 'stalled' | 'overran';

/** What the guard saw of a walk, for its messages. */
export interface WalkReport {
	/** Pages read. */
	pages: number;
	/** The most records the listing claimed from the walk's first page on. */
	claimed?: number;
	/** The first empty page read where the listing said more follow, e.g. "page 3". */
	emptyAt?: string;
	/** The last page read, e.g. "page 14". */
	endedAt: string;
	/** Full pages read past the end the listing gave, in a row. */
	pastEnd: number;
}

interface WalkTerms {
	/** The listing as messages name it, e.g. "the results list". */
	listing: string;
	/** Records of the listing read. */
	read: number;
	/** Records output, where a filter of the walk left some out (else all read). */
	kept?: number;
	/** Records asked for: Infinity with Return All. */
	limit: number;
}

/** A stop (the walk ends without output) or a hint (the output is what the listing gave, and it claimed more). */
interface WalkSays {
	stop?: { message: string; description: string };
	hint?: string;
}

const records = (count: number) => `${count} record${count === 1 ? '' : 's'}`;
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** How to take the records a stopped walk did read: 'Limit' at that count. */
function takeWhatWasRead(terms: WalkTerms): string {
	const kept = terms.kept ?? terms.read;
	if (kept === 0) return 'Run the node again later.';
	const limit = `set '${LIMIT.label}' to ${kept} or fewer to output the records read so far`;
	return terms.limit === Infinity ? `Turn off '${RETURN_ALL.label}' and ${limit}.` : `${capital(limit)}.`;
}

export function walkSays(report: WalkReport, end: WalkEnd, terms: WalkTerms): WalkSays | undefined {
	const { listing, read, limit } = terms;
	const name = capital(listing);
	if (end === 'stalled') {
		return {
			stop: {
				message: `${name} is not advancing: ${report.endedAt} held only records already read`,
				description:
					`After ${records(read)}, ${listing} sent records it had sent before instead of the next ones, so reading on ` +
					`could go on without end. A list that changes while it is read can do this: run the node again. ${takeWhatWasRead(terms)}`,
			},
		};
	}
	if (end === 'overran') {
		const said = report.claimed === undefined ? 'ended earlier' : `holds ${records(report.claimed)}`;
		return {
			stop: {
				message: `${name} kept sending full pages past the end it gave`,
				description:
					`It said it ${said}, yet ${report.pastEnd} full pages followed that end, and reading stopped at ${report.endedAt} ` +
					`with ${records(read)} read so that it cannot run on without end. ${takeWhatWasRead(terms)}`,
			},
		};
	}
	const wanted = Math.min(limit, report.claimed ?? 0);
	if (end === 'last' && read >= wanted) return undefined;
	const claim = report.claimed === undefined ? 'said more records follow' : `said it holds ${records(report.claimed)}`;
	const gap = report.emptyAt === undefined ? '' : ` (${report.emptyAt} came back empty where it said more follow)`;
	return {
		hint:
			`${name} ${claim}, but ${records(read)} could be read${gap}. Records deleted while the list is read, or a count ` +
			`that is out of date, can do this: run the node again to check.`,
	};
}
