import { describe, expect, it } from 'vitest';
import { REF_SEARCH_LIMIT, refSearchPath } from './refSearch';

describe('refSearchPath', () => {
  it('asks for one page of the most recent records without a search', () => {
    expect(refSearchPath('albums', '  ')).toBe(`/albums?page=1&limit=${REF_SEARCH_LIMIT}`);
  });
  it('passes the trimmed search to the server', () => {
    expect(refSearchPath('roles', ' Adm ')).toBe(`/roles?page=1&limit=${REF_SEARCH_LIMIT}&search=Adm`);
  });
});
