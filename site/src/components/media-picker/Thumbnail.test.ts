import { describe, expect, it } from 'vitest';
import { contentRef, thumbRef } from './Thumbnail';

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

describe('contentRef', () => {
  const id = '01HZY3W4Q8X7K6J5H4G3F2E1D0';
  it('embeds the widest copy up to 1280 pixels', () => {
    const variants = [320, 640, 1280, 1920].map((w) => ({ width: w, fileUrl: `${id}/w/${w}.jpg` }));
    expect(contentRef({ fileUrl: `${id}/a.jpg`, variants })).toBe(`${id}/w/1280.jpg`);
  });
  it('embeds the original until its copies exist', () => {
    expect(contentRef({ fileUrl: `${id}/a.jpg` })).toBe(`${id}/a.jpg`);
  });
});
