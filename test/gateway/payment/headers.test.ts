import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';

import { decodeSettlement } from '../../../x402/nodes/ScraperGateway/payment/receipt';
import { decodePaymentRequired } from '../../../x402/nodes/ScraperGateway/payment/requirements';
import { PAY_TO, paymentRequired } from '../fixtures';

/** The x402 headers on their own, without a chain or a gateway. */

describe('x402 headers: the library decoders, never throwing on a garbled header', () => {
	test('PAYMENT-REQUIRED: decoded when it is base64 JSON with accepts, else undefined', () => {
		const header = encodePaymentRequiredHeader(paymentRequired());
		expect(decodePaymentRequired(header)).toEqual(paymentRequired());
		expect(decodePaymentRequired(` ${header} `)).toEqual(paymentRequired());
		for (const garbled of [undefined, '', '!!!', 'not base64 at all', Buffer.from('{"no json').toString('base64'), Buffer.from('[1,2]').toString('base64'), Buffer.from('{"x402Version":2}').toString('base64')]) {
			expect(decodePaymentRequired(garbled)).toBeUndefined();
		}
	});

	test('PAYMENT-REQUIRED in the URL-safe alphabet, unpadded or folded reads as the standard one', () => {
		// A `resource.description` that encodes to "+" and "/" in the standard alphabet, so the URL-safe one differs.
		const required = { ...paymentRequired(), resource: { url: 'https://gw.example/fetch', description: '>>>???~~~', mimeType: 'application/json' } };
		const header = encodePaymentRequiredHeader(required);
		const urlSafe = header.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
		expect(urlSafe).not.toBe(header);
		expect(decodePaymentRequired(urlSafe)).toEqual(required);
		expect(decodePaymentRequired(`${header.slice(0, 40)}\r\n ${header.slice(40)}`)).toEqual(required);
	});

	test('PAYMENT-RESPONSE: the settlement when `success` is a boolean, else undefined', () => {
		const header = encodePaymentResponseHeader({ success: true, transaction: '0xabc', network: 'eip155:84532', payer: PAY_TO, amount: '10000' });
		expect(decodeSettlement(header)).toEqual({ success: true, transaction: '0xabc', network: 'eip155:84532', payer: PAY_TO, amount: '10000', errorReason: undefined, errorMessage: undefined });
		expect(decodeSettlement(Buffer.from('{"success":"yes"}').toString('base64'))).toBeUndefined();
		expect(decodeSettlement('%%%')).toBeUndefined();
		expect(decodeSettlement(undefined)).toBeUndefined();
	});
});
