import type { ListParams } from '../api/dataProvider';

/** REF_SEARCH_LIMIT: a reference picker shows one page of this many name matches. */
export const REF_SEARCH_LIMIT = 20;

/**
 * refSearchParams is the list call behind a reference picker: the server's name-prefix search
 * (case-insensitive), one page; without a search, the most recently updated records.
 */
export function refSearchParams(search: string): ListParams {
  return { page: 1, limit: REF_SEARCH_LIMIT, search };
}
