import { describe, expect, it } from 'vitest';
import { sizeText, usageBars } from './usage';

describe('sizeText', () => {
  it.each([
    [0, '0 bytes'],
    [512, '512 bytes'],
    [1536, '1.5 KB'],
    [1024 ** 3, '1 GB'],
    [10 * 1024 ** 3, '10 GB'],
    [3.2 * 1024 ** 2, '3.2 MB'],
  ])('%d bytes is %s', (n, want) => expect(sizeText(n)).toBe(want));
});

describe('usageBars', () => {
  it('shows pages and storage against the limits', () => {
    const [pages, storage] = usageBars({ planId: 'starter', pages: 20, pageLimit: 20, mediaBytes: 3 * 1024 ** 2, mediaLimit: 1024 ** 3 });
    expect(pages).toMatchObject({ label: 'Pages', text: '20 of 20 pages', used: 20, max: 20, full: true });
    expect(storage).toMatchObject({ label: 'Storage', text: '3 MB of 1 GB', max: 1024 ** 3, full: false });
  });
  it('has no bar for an unlimited count', () => {
    const [pages] = usageBars({ planId: 'premium', pages: 4, pageLimit: 0, mediaBytes: 0, mediaLimit: 100 * 1024 ** 3 });
    expect(pages).toMatchObject({ text: '4 pages (unlimited)', max: null, full: false });
  });
});
