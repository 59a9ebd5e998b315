import { checkPublicPageUrl, classifyHost } from '../../../nodes/shared/input/publicHosts';

describe('pure rules', () => {
	test('hosts: WHATWG parsing normalises every IPv4 spelling before the check', () => {
		expect(classifyHost(new URL('http://0x7f.1/').hostname)).toBe('loopback');
		expect(classifyHost(new URL('http://017700000001/').hostname)).toBe('loopback');
		expect(classifyHost(new URL('http://10.0.0.1./').hostname)).toBe('private');
		expect(classifyHost('example.com')).toBeUndefined();
		expect(classifyHost('93.184.216.34')).toBeUndefined();
		expect(classifyHost('172.32.0.1')).toBeUndefined();
		expect(classifyHost('100.128.0.1')).toBeUndefined();
		expect(checkPublicPageUrl('https://example.com/a?b=c')).toBeUndefined();
		expect(checkPublicPageUrl('HTTP://LOCALHOST./')).toMatchObject({ rule: 'publicHost' });
	});
});
