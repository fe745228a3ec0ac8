import { describe, expect, it } from 'vitest';
import { keys } from '../api/dataProvider';
import { REF_SEARCH_LIMIT, refSearchParams } from './refSearch';

describe('refSearchParams', () => {
  it('asks for one page of the most recent records without a search', () => {
    expect(keys.list('albums', refSearchParams('  '))).toBe(`/albums?page=1&limit=${REF_SEARCH_LIMIT}`);
  });
  it('passes the trimmed search to the server', () => {
    expect(keys.list('roles', refSearchParams(' Adm '))).toBe(`/roles?page=1&limit=${REF_SEARCH_LIMIT}&search=Adm`);
  });
});
