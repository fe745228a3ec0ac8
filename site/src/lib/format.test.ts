import { describe, expect, it } from 'vitest';
import { formatBytes, formatDateTime, mediaUrl, stripHtml, toBool, trimText } from './format';

describe('trimText', () => {
  it('keeps short text and cuts at 30 characters', () => {
    expect(trimText('short')).toBe('short');
    expect(trimText('a'.repeat(30))).toBe('a'.repeat(30));
    expect(trimText('a'.repeat(31))).toBe('a'.repeat(30) + '...');
    expect(trimText('b'.repeat(45), 40)).toBe('b'.repeat(40) + '...');
  });
  it('does not split surrogate pairs', () => {
    expect(trimText('😀'.repeat(31))).toBe('😀'.repeat(30) + '...');
  });
});

describe('formatBytes', () => {
  const cases: Array<[unknown, string]> = [
    [0, '0 KB'],
    [512, '0.5 KB'],
    [2048, '2 KB'],
    [1536000, '1.46 MB'],
    [1048576, '1024 KB'],
    [1048577, '1 MB'],
    [5242880, '5 MB'],
    ['2048', '2 KB'],
    [null, ''],
    [undefined, ''],
    ['', ''],
    ['abc', ''],
  ];
  for (const [input, want] of cases) {
    it(`${String(input)} -> ${want || '(empty)'}`, () => expect(formatBytes(input)).toBe(want));
  }
});

describe('toBool', () => {
  it('accepts 1, "1", true and "true" only', () => {
    for (const v of [1, '1', true, 'true']) expect(toBool(v)).toBe(true);
    for (const v of [0, '0', false, 'false', '', null, undefined, 'yes', 2]) expect(toBool(v)).toBe(false);
  });
});

describe('stripHtml', () => {
  it('removes tags and collapses spaces', () => {
    expect(stripHtml('<p>Hello <b>world</b></p><p>&amp; more</p>')).toBe('Hello world & more');
  });
});

describe('mediaUrl', () => {
  it('prefixes references and keeps absolute URLs', () => {
    expect(mediaUrl('01ABC/cat.png', '/media/demo/')).toBe('/media/demo/01ABC/cat.png');
    expect(mediaUrl('01ABC/cat.png', '/media/demo')).toBe('/media/demo/01ABC/cat.png');
    expect(mediaUrl('/media/demo/01ABC/cat.png', '/media/demo/')).toBe('/media/demo/01ABC/cat.png');
    expect(mediaUrl('https://x.test/a.png', '/media/demo/')).toBe('https://x.test/a.png');
    expect(mediaUrl('', '/media/demo/')).toBe('');
  });
});

describe('formatDateTime', () => {
  it('uses en-US long dates with "at"', () => {
    expect(formatDateTime('2026-11-21T17:40:00Z', 'UTC')).toBe('November 21, 2026 at 5:40 PM');
    expect(formatDateTime('2026-01-02T09:05:00Z', 'UTC')).toBe('January 2, 2026 at 9:05 AM');
    expect(formatDateTime('not a date')).toBe('');
  });
});
