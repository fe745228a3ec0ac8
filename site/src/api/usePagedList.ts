import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { lastPage } from '../lib/paginator';
import { fetchers, keys, type ListParams, type ListResult } from './dataProvider';

type Options<T> = {
  initialLimit: number;
  /** How long the search box must rest before the list is searched. */
  debounceMs: number;
  /** How often (ms) to read the page again, given the page on screen; 0: never on its own. */
  refreshInterval?: (data: ListResult<T> | undefined) => number;
};

/** ListOptions are what a list screen closes over besides paging and search: sort, order, filters. */
export type ListOptions = Omit<ListParams, 'page' | 'limit' | 'search' | 'cursor'>;

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
export function usePagedList<T>(resource: string, options: ListOptions, { initialLimit, debounceMs, refreshInterval }: Options<T>) {
  const [{ page, cursor }, setPosition] = useState<{ page: number; cursor?: string }>({ page: 1 });
  const [limit, setLimitState] = useState(initialLimit);
  const [searchInput, setSearchInput] = useState('');
  const search = useDebounced(searchInput, debounceMs);
  const key = keys.list(resource, { ...options, page, limit, search, cursor });
  const query = useSWR<ListResult<T>>(key, fetchers.list<T>, { keepPreviousData: true, refreshInterval: refreshInterval ?? 0 });
  // While the next page loads, data is still the previous page's: its cursors are not the shown page's.
  const shown = query.isLoading ? undefined : query.data;

  // setPage moves to page n. To the adjacent page it hands the server the cursor of the page on
  // screen (cost: one page); a jump ("Go to Page") goes by number (the server skips entries).
  const setPage = (n: number) => {
    const next = n === page + 1 ? shown?.nextCursor : n === page - 1 && n > 1 ? shown?.prevCursor : undefined;
    setPosition({ page: n, cursor: next });
  };
  const total = query.data?.total ?? 0;
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
    items: query.data?.items ?? [],
    total,
    loading: query.data === undefined && !query.error,
    error: query.error as unknown,
    page,
    setPage,
    last,
    limit,
    setLimit,
    sortable: query.data?.sortable,
    totalCapped: query.data?.totalCapped === true,
    searchInput,
    setSearchInput,
    /** reload fetches the current page again (after a change made on it). */
    reload: () => query.mutate(),
  };
}
