/** REF_SEARCH_LIMIT: a reference picker shows one page of this many name matches. */
export const REF_SEARCH_LIMIT = 20;

/**
 * refSearchPath is the list call behind a reference picker: the server's name-prefix search
 * (case-insensitive), one page; without a search, the most recently updated records.
 */
export function refSearchPath(ref: string, search: string): string {
  const q = new URLSearchParams({ page: '1', limit: String(REF_SEARCH_LIMIT) });
  const s = search.trim();
  if (s) q.set('search', s);
  return `/${ref}?${q.toString()}`;
}
