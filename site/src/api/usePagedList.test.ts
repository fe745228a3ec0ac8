import { describe, expect, it } from 'vitest';
import { withCursor } from './usePagedList';

describe('withCursor', () => {
  it('leaves the path alone without a cursor', () => {
    expect(withCursor('/faqs?page=1&limit=10', undefined)).toBe('/faqs?page=1&limit=10');
  });
  it('appends the cursor, escaped', () => {
    expect(withCursor('/faqs?page=2&limit=10', 'ab+/=')).toBe('/faqs?page=2&limit=10&cursor=ab%2B%2F%3D');
  });
  it('starts the query when the path has none', () => {
    expect(withCursor('/media', 'x')).toBe('/media?cursor=x');
  });
});
