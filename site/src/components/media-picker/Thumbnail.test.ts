import { describe, expect, it } from 'vitest';
import { thumbRef } from './Thumbnail';

describe('thumbRef', () => {
  it('names the small copy beside a library reference', () => {
    expect(thumbRef('01HZY3W4Q8X7K6J5H4G3F2E1D0/campus.jpg')).toBe('01HZY3W4Q8X7K6J5H4G3F2E1D0/w/thumb');
  });
  it('leaves anything else alone', () => {
    expect(thumbRef('https://example.com/a.jpg')).toBe('');
    expect(thumbRef('blob:http://x/abc')).toBe('');
    expect(thumbRef('01HZY3W4Q8X7K6J5H4G3F2E1D0/w/thumb')).toBe('');
  });
});
