import { describe, expect, it } from 'vitest';
import { describeClient, groupKey, normalizeCode, recoveryFile } from './twoFactor';

describe('twoFactor helpers', () => {
  it('groups a key in fours', () => {
    expect(groupKey('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    expect(groupKey('ABCDEF')).toBe('ABCD EF');
    expect(groupKey('')).toBe('');
  });
  it('keeps the digits of a typed code', () => {
    expect(normalizeCode(' 123 456 ')).toBe('123456');
    expect(normalizeCode('12-34-56-78')).toBe('123456');
  });
  it('writes the recovery file with every code', () => {
    const text = recoveryFile('St Mary', 'ana', ['a', 'b'], new Date('2026-11-24T10:00:00Z'));
    expect(text).toContain('Recovery codes for ana at St Mary');
    expect(text).toContain('Made 2026-11-24');
    expect(text.split('\n')).toContain('b');
  });
  it('names browsers and systems', () => {
    expect(describeClient('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0 Safari/537.36')).toBe('Chrome on Linux');
    expect(describeClient('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1')).toBe('Safari on iOS');
    expect(describeClient('Go-http-client/1.1')).toBe('Browser');
    expect(describeClient('')).toBe('Unknown browser');
  });
});
