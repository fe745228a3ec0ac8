import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { lastPage } from '../lib/paginator';
import { swrFetcher } from './client';

/** PageQuery is what a list path is built from; the caller closes over anything else (sort, filters). */
export interface PageQuery {
  page: number;
  limit: number;
  search: string;
  /** cursor is the server's nextCursor/prevCursor when the page is adjacent to the one shown. */
  cursor?: string;
}

/** PagedResponse is the API's shape of one list page. */
export interface PagedResponse<T> {
  result: T[];
  totalCount: number;
  /** totalCountCapped: a search's count stopped at the server's cap (totalCount is "at least"). */
  totalCountCapped?: boolean;
  nextCursor?: string;
  prevCursor?: string;
  /** sortable, when present, are the only columns the server can sort this (large) list by. */
  sortable?: string[];
}

interface Options {
  initialLimit: number;
  /** How long the search box must rest before the list is searched. */
  debounceMs: number;
}

/** withCursor adds the cursor to a list path (after the caller's own parameters). */
export function withCursor(path: string, cursor: string | undefined): string {
  if (!cursor) return path;
  return `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;
}

/** useDebounced returns value once it has stopped changing for ms. */
function useDebounced<T>(value: T, ms: number): T {
  const [out, setOut] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setOut(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return out;
}

/**
 * usePagedList holds server-side paging and search of one list: the page, the page size, the
 * search box (debounced before it reaches the server) and the fetched page, kept on screen
 * while the next one loads.
 */
export function usePagedList<T>(pathOf: (q: PageQuery) => string, { initialLimit, debounceMs }: Options) {
  const [{ page, cursor }, setPosition] = useState<{ page: number; cursor?: string }>({ page: 1 });
  const [limit, setLimitState] = useState(initialLimit);
  const [searchInput, setSearchInput] = useState('');
  const search = useDebounced(searchInput, debounceMs);
  const path = withCursor(pathOf({ page, limit, search }), cursor);
  const query = useSWR<PagedResponse<T>>(path, swrFetcher, { keepPreviousData: true });
  // While the next page loads, data is still the previous page's: its cursors are not the shown page's.
  const shown = query.isLoading ? undefined : query.data;

  // setPage moves to page n. To the adjacent page it hands the server the cursor of the page on
  // screen (cost: one page); a jump ("Go to Page") goes by number (the server skips entries).
  const setPage = (n: number) => {
    const next = n === page + 1 ? shown?.nextCursor : n === page - 1 && n > 1 ? shown?.prevCursor : undefined;
    setPosition({ page: n, cursor: next });
  };
  const total = query.data?.totalCount ?? 0;
  const last = lastPage(total, limit);

  // Back to page 1 whenever the search settles on a new value.
  useEffect(() => setPosition({ page: 1 }), [search]);
  // A delete can empty the last page; step back to the new last page.
  useEffect(() => {
    if (query.data && page > last) setPosition({ page: last });
  }, [query.data, page, last]);

  const setLimit = (n: number) => {
    setLimitState(n);
    setPosition({ page: 1 });
  };

  return {
    items: query.data?.result ?? [],
    total,
    loading: query.data === undefined && !query.error,
    error: query.error as unknown,
    page,
    setPage,
    last,
    limit,
    setLimit,
    sortable: query.data?.sortable,
    totalCapped: query.data?.totalCountCapped === true,
    searchInput,
    setSearchInput,
    /** reload fetches the current page again (after a change made on it). */
    reload: () => query.mutate(),
  };
}
