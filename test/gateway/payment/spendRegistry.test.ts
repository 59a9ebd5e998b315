import { SpendRegistry } from '../../../x402/nodes/ScraperGateway/payment/spendRegistry';

/** The spend registry as its documentation states it: per execution and payer, dropped only when a ledger is asked for. */

const PAYER = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';
const HOUR = 60 * 60 * 1000;

function registry(limits = { idleMs: 24 * HOUR, maxEntries: 10_000 }) {
	const clock = { now: 0 };
	return { clock, spend: new SpendRegistry(limits, () => clock.now) };
}

describe('SpendRegistry', () => {
	test('one ledger per execution id and paying wallet (any letter case); without an execution id, a fresh one not kept', () => {
		const { spend } = registry();
		const ledger = spend.ledgerFor('exec-1', PAYER);
		expect(spend.ledgerFor('exec-1', PAYER.toLowerCase())).toBe(ledger);
		expect(spend.ledgerFor('exec-2', PAYER)).not.toBe(ledger);
		expect(spend.ledgerFor('exec-1', '0x2222222222222222222222222222222222222222')).not.toBe(ledger);
		expect(spend.size).toBe(3);
		expect(spend.ledgerFor(undefined, PAYER)).not.toBe(spend.ledgerFor(undefined, PAYER));
		expect(spend.ledgerFor('', PAYER)).not.toBe(ledger);
		expect(spend.size).toBe(3);
	});

	test('an entry not asked for during 24 hours is dropped at the next ask, not before; an ask keeps it', () => {
		const { clock, spend } = registry();
		const old = spend.ledgerFor('old', PAYER);
		const kept = spend.ledgerFor('kept', PAYER);
		clock.now = 23 * HOUR;
		expect(spend.ledgerFor('kept', PAYER)).toBe(kept);
		clock.now = 25 * HOUR;
		// Nothing is dropped on a timer: both are still held until something asks.
		expect(spend.size).toBe(2);
		spend.ledgerFor('new', PAYER);
		expect(spend.size).toBe(2);
		expect(spend.ledgerFor('kept', PAYER)).toBe(kept);
		// The dropped execution starts again from zero.
		expect(spend.ledgerFor('old', PAYER)).not.toBe(old);
	});

	test('at the cap, the entry asked for least recently is dropped first', () => {
		const { clock, spend } = registry({ idleMs: 24 * HOUR, maxEntries: 3 });
		const first = spend.ledgerFor('a', PAYER);
		clock.now = 1;
		const second = spend.ledgerFor('b', PAYER);
		clock.now = 2;
		spend.ledgerFor('c', PAYER);
		clock.now = 3;
		// 'a' asked again: now 'b' is the least recently asked.
		expect(spend.ledgerFor('a', PAYER)).toBe(first);
		clock.now = 4;
		spend.ledgerFor('d', PAYER);
		expect(spend.size).toBe(3);
		expect(spend.ledgerFor('a', PAYER)).toBe(first);
		expect(spend.ledgerFor('b', PAYER)).not.toBe(second);
	});
});
