import { sleep } from 'n8n-workflow';
import type { ICredentialDataDecryptedObject, IPollFunctions } from 'n8n-workflow';

import { NodeCall } from '../../../nodes/shared/execution/call';
import { CredentialsHelper } from '../../harness/credentials';
import { DETAIL, LIST, newTrigger, startJob, useSimulator } from '../../platform/trigger/helpers';
import { ROUTES, usePlatform } from '../../platform/helpers';

// NodeCall's lifetime is one call of the node by n8n: what it keeps (the decrypted credentials) lasts that long.

/** How many times n8n's credentials helper decrypted a credential of `type` while `work` ran. */
async function decryptions(type: string, work: () => Promise<unknown>): Promise<number> {
	const spy = jest.spyOn(CredentialsHelper.prototype, 'getDecrypted');
	try {
		await work();
		return spy.mock.calls.filter((args) => args[2] === type).length;
	} finally {
		spy.mockRestore();
	}
}

describe('NodeCall', () => {
	it('reads a credential once per call however many requests ask at once, and again in the next call', async () => {
		let reads = 0;
		const ctx = {
			getCredentials: async () => {
				reads++;
				await sleep(5);
				return { apiToken: `token-${reads}` } as ICredentialDataDecryptedObject;
			},
		} as unknown as IPollFunctions;
		const first = new NodeCall(ctx);
		const answers = await Promise.all(Array.from({ length: 5 }, async () => await first.credentialsOf('scraperPlatformApi')));
		expect(reads).toBe(1);
		expect(new Set(answers.map((c) => c.apiToken))).toEqual(new Set(['token-1']));
		// A poll's call ends with the poll: the next poll reads the credential again, so a rotated token is used.
		expect((await new NodeCall(ctx).credentialsOf('scraperPlatformApi')).apiToken).toBe('token-2');
		// A poll has no Stop button: no cancel signal.
		expect(first.cancelSignal).toBeUndefined();
	});
});

describe('one call of a node in n8n', () => {
	const platform = usePlatform();

	it('an execution decrypts its credential once for all its items and requests (Parallel Requests 3, 6 items)', async () => {
		const created = await platform.run({ resource: 'aiScraper', operation: 'createAndRun', url: 'https://once.example.com/', prompt: 'Title' });
		const id = created.items[0].json.id as string;
		platform.sim.server.log.clear();
		let items = 0;
		const count = await decryptions('scraperPlatformApi', async () => {
			const result = await platform.run(
				{ resource: 'result', operation: 'get', resultId: '={{ $json.id }}', options: { parallel: { settings: { requests: 3 } } } },
				{ input: Array.from({ length: 6 }, () => ({ id })) },
			);
			items = result.items.length;
		});
		expect(items).toBe(6);
		expect(platform.sim.server.log.count(ROUTES.result)).toBe(6);
		expect(count).toBe(1);
	});
});

describe('one poll of a trigger', () => {
	const trigger = useSimulator();

	it('reads its credential afresh on every poll, once however many requests the poll sends', async () => {
		const instance = newTrigger(trigger.sim);
		expect(await decryptions('scraperPlatformApi', async () => await instance.poll())).toBe(1);
		// More completed jobs than one page of the listing holds: the poll reads two pages.
		for (let i = 0; i < 120; i++) startJob(trigger.sim, { urls: 1 });
		trigger.sim.clock.advance(600_000);
		trigger.sim.server.log.clear();
		let emitted = 0;
		const count = await decryptions('scraperPlatformApi', async () => {
			emitted = (await instance.poll()).length;
		});
		expect(emitted).toBe(120);
		expect(trigger.sim.server.log.count(LIST) + trigger.sim.server.log.count(DETAIL)).toBeGreaterThan(1);
		expect(count).toBe(1);
	});
});
