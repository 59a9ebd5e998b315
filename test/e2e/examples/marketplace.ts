import type { N8nRun } from '../../../scripts/demo/n8n-run';
import { MARKETPLACE_DEMO_TOKEN, type RunningSimulator } from '../../simulator/index';
import { example, nodeOutput } from './workflows';

/** What examples 3 and 5 (the Scraper Marketplace's leads and job board) must produce; see workflows.ts. */

/** Example 3: search-engine leads -> one CRM contact per lead, as the service holds them. */
export async function expectExample3(run: N8nRun, sim: RunningSimulator): Promise<void> {
	const create = sim.marketplace.server.log.for('POST /api/scrapers/leads-generator/search/create-and-run');
	expect(create).toHaveLength(1);
	expect(create[0].headers.authorization).toBe(`Bearer ${MARKETPLACE_DEMO_TOKEN}`);
	expect(create[0].body).toEqual({ name: 'Marketing agencies in Sydney', search_type: 'keywords', limit_pages: 2, keywords: 'marketing agency sydney' });

	// What the service holds for that run, read over its API.
	const runId = nodeOutput(run, 'Find Leads in Search Results')[0].json.scraping_run_id as number;
	const res = await fetch(`${sim.info.marketplaceUrl}/api/scraping-runs/${runId}`, { headers: { authorization: `Bearer ${MARKETPLACE_DEMO_TOKEN}` } });
	const body = (await res.json()) as { data: { results: Array<{ status: string; content: Array<Record<string, string>> }> } };
	expect(body.data.results.every((r) => r.status === 'succeeded')).toBe(true);
	const leads = body.data.results.flatMap((r) => r.content);
	expect(leads.length).toBeGreaterThan(0);

	const contacts = nodeOutput(run, 'HubSpot Contacts');
	expect(contacts.map((c) => c.json)).toEqual(
		leads.map((l) => ({
			email: l.email,
			firstname: l.name.split(' ')[0],
			lastname: l.name.split(' ').slice(1).join(' '),
			company: l.company,
			jobtitle: l.title,
			phone: l.phone,
			website: l.website,
			address: l.address,
		})),
	);
	for (const c of contacts) expect(c.json.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
}

/** Example 5: job board with a JSON Schema -> one row per job the service returns for the same request. */
export async function expectExample5(run: N8nRun, sim: RunningSimulator): Promise<void> {
	const params = example('05-job-board-json-schema.json').nodes.find((n) => n.name === 'Scrape Job Board')?.parameters ?? {};
	const sent = sim.marketplace.server.log.for('POST /api/job-board-scrape');
	expect(sent).toHaveLength(1);
	expect(sent[0].body).toEqual({
		urls: ['https://jobs.example.com/search?q=data+engineer'],
		schema: JSON.parse(params.schema as string),
		min: 5,
		max: 10,
		timeout: 60,
	});
	// The same request straight to the service: the rows are its jobs, one each.
	const res = await fetch(`${sim.info.marketplaceUrl}/api/job-board-scrape`, {
		method: 'POST',
		headers: { authorization: `Bearer ${MARKETPLACE_DEMO_TOKEN}`, 'content-type': 'application/json' },
		body: JSON.stringify(sent[0].body),
	});
	const { result } = (await res.json()) as { result: { jobs: Array<Record<string, string>> } };
	const rows = nodeOutput(run, 'Google Sheets Rows');
	expect(rows.length).toBeGreaterThanOrEqual(5);
	expect(rows.length).toBeLessThanOrEqual(10);
	expect(rows.map((r) => r.json)).toEqual(
		result.jobs.map((j) => ({
			'Job Title': j.title,
			Company: j.company,
			Location: j.location,
			Salary: j.salary,
			'Employment Type': j.employment_type,
			Posted: j.posted_date,
			'Job URL': j.url,
		})),
	);
}
