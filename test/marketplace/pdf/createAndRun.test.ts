import type { IDataObject } from 'n8n-workflow';

import { BEARER, NO_WAIT, ROUTES, WAIT, jsonOf, runOk, useMarketplace } from '../helpers';
import { keywordsParam, pdf } from '../parameters';

const ctx = useMarketplace();

describe('PDF: Create and Run', () => {
	it('sends the keywords with their prompts, unique and expected PDFs, and splits the PDFs into items', async () => {
		const result = await ctx.run({
			...pdf,
			keywords: keywordsParam(['solar panel guide', 'Is it an installation guide?'], ['inverter manual', 'Is it a manual?']),
			additionalFields: { unique: true, expectedPdf: 7 },
			...WAIT,
			runOutput: 'records',
		});
		expect(result.error).toBeUndefined();
		const [create] = ctx.requests();
		expect(create.route).toBe(ROUTES.pdfCreateAndRun);
		expect(create.headers.authorization).toBe(BEARER);
		expect(create.body).toEqual({
			name: 'Solar guides',
			keywords: [
				{ keyword: 'solar panel guide', prompt: 'Is it an installation guide?' },
				{ keyword: 'inverter manual', prompt: 'Is it a manual?' },
			],
			unique: true,
			expected_pdf: 7,
		});
		const pdfs = jsonOf(result.items);
		expect(pdfs).toHaveLength(7);
		for (const file of pdfs) {
			expect(file.url).toMatch(/\.pdf$/);
			expect(['solar panel guide', 'inverter manual']).toContain(file.keyword);
			expect(file.scraped_url).toBe(file.keyword);
		}
	});

	it('sends neither unique nor expected_pdf when they are not added, and outputs the create answer', async () => {
		const [out] = await runOk(ctx, { ...pdf, keywords: keywordsParam(['budget 2025', 'Is it a budget paper?']), ...NO_WAIT, simplify: false });
		expect(ctx.requests()[0].body).toEqual({ name: 'Solar guides', keywords: [{ keyword: 'budget 2025', prompt: 'Is it a budget paper?' }] });
		const results = out.results as IDataObject[];
		expect(results[0]).toMatchObject({ scraped_url: 'budget 2025', status: 'queued' });
		const configuration = results[0].scraper as IDataObject;
		expect(configuration).toMatchObject({ type: 'pdf', version: 2, proxy_type: 'rotation', cron_timezone: 'UTC' });
	});

	it('sends unique false when it is added and switched off', async () => {
		await runOk(ctx, { ...pdf, keywords: keywordsParam(['a', 'b?']), additionalFields: { unique: false }, ...NO_WAIT });
		expect(ctx.requests()[0].body).toEqual({ name: 'Solar guides', keywords: [{ keyword: 'a', prompt: 'b?' }], unique: false });
	});
});
