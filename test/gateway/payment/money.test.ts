import { formatAtomic, toAtomic } from '../../../x402/nodes/ScraperGateway/payment/money';

describe('pure rules', () => {
	test('USDC amounts: decimal text <-> atomic units without floating point, caps rounded down', () => {
		expect(toAtomic(0.01)).toBe(10_000n);
		expect(toAtomic('0.02')).toBe(20_000n);
		expect(toAtomic(1)).toBe(1_000_000n);
		expect(toAtomic(0.0000019)).toBe(1n);
		expect(toAtomic('1.2345678')).toBe(1_234_567n);
		expect(toAtomic(-1)).toBeUndefined();
		expect(toAtomic('abc')).toBeUndefined();
		expect(formatAtomic(10_000n)).toBe('0.01');
		expect(formatAtomic(1_500_000n)).toBe('1.5');
		expect(formatAtomic(0n)).toBe('0');
	});
});
