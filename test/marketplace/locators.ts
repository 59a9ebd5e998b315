import type { IDataObject } from 'n8n-workflow';

/** A resource locator value as the editor stores it: picked from the list, or typed By ID. */
export const picked = (id: unknown) => ({ __rl: true, mode: 'list', value: String(id), cachedResultName: `Picked ${String(id)}` });
export const typed = (id: unknown) => ({ __rl: true, mode: 'id', value: String(id) });
export const LOCATOR_SHAPES: Array<[string, (id: unknown) => IDataObject]> = [
	['picked from the list', picked],
	['typed By ID', typed],
];

/** A message without the ` [item N]` that names the input item it came from (when the shared item loop adds it). */
export function messageOf(error: { message?: string } | string | undefined, itemIndex = 0): string {
	const text = typeof error === 'string' ? error : (error?.message ?? '');
	const mark = ` [item ${itemIndex}]`;
	return text.endsWith(mark) ? text.slice(0, -mark.length) : text;
}

/** Validation names the field (in single or double quotes, whichever the shared messages use). */
export const invalid = (label: string) => new RegExp(`^Invalid ['"]${label}['"]: `);
