import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/operation';
import { platformRequest } from '../../../shared/platform';
import { bulkIdOf, bulkIdProperty } from './common';

export const bulkCancel: Operation = {
	value: 'cancel',
	name: 'Cancel',
	action: 'Cancel a bulk job',
	description: 'Cancel the URLs of a bulk job that are still pending; URLs already running finish normally',
	properties: [bulkIdProperty],
	async execute(itemIndex) {
		const id = bulkIdOf(this, itemIndex);
		const response = await platformRequest(
			this,
			{
				method: 'PATCH',
				path: `/api/v1/scrapers-bulks/${encodeURIComponent(id)}/cancel`,
				// Cancelling twice changes nothing more, so a failed attempt may be repeated.
				idempotent: true,
				subject: { kind: 'bulk job', id },
			},
			itemIndex,
		);
		return [{ json: response.data as IDataObject }];
	},
};
