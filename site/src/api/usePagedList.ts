import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { lastPage } from '../lib/paginator';
import { swrFetcher } from './client';

/** PageQuery is what a list path is built from; the caller closes over anything else (sort, filters). */
export interface PageQuery {
  page: number;
  limit: number;
  search: string;
}

/** PagedResponse is the API's shape of one list page. */
export interface PagedResponse<T> {
  result: T[];
  totalCount: number;
}

interface Options {
  initialLimit: number;
  /** How long the search box must rest before the list is searched. */
  debounceMs: number;
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
  const [page, setPage] = useState(1);
  const [limit, setLimitState] = useState(initialLimit);
  const [searchInput, setSearchInput] = useState('');
  const search = useDebounced(searchInput, debounceMs);
  const query = useSWR<PagedResponse<T>>(pathOf({ page, limit, search }), swrFetcher, { keepPreviousData: true });
  const total = query.data?.totalCount ?? 0;
  const last = lastPage(total, limit);

  // Back to page 1 whenever the search settles on a new value.
  useEffect(() => setPage(1), [search]);
  // A delete can empty the last page; step back to the new last page.
  useEffect(() => {
    if (query.data && page > last) setPage(last);
  }, [query.data, page, last]);

  const setLimit = (n: number) => {
    setLimitState(n);
    setPage(1);
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
    searchInput,
    setSearchInput,
    /** reload fetches the current page again (after a change made on it). */
    reload: () => query.mutate(),
  };
}
