import { useEffect, useState } from 'react';
import useSWR, { mutate as globalMutate } from 'swr';
import { swrFetcher } from '../../api/client';
import { lastPage } from '../../lib/paginator';
import { useDebounced } from '../../screens/collections/useCollectionList';
import { mediaListPath, type Accept, type MediaItem } from './rules';

interface MediaList {
  result: MediaItem[];
  totalCount: number;
}

/** reloadMedia revalidates every cached page of the library (the screen's and the pickers'). */
export function reloadMedia(): Promise<unknown> {
  return globalMutate((k) => typeof k === 'string' && k.startsWith('/media?'));
}

/** useMediaLibrary pages and searches the library on the server; accept 'image' shows images only. */
export function useMediaLibrary(accept: Accept = 'file', initialLimit = 20) {
  const [page, setPage] = useState(1);
  const [limit, setLimitState] = useState(initialLimit);
  const [searchInput, setSearchInput] = useState('');
  const search = useDebounced(searchInput, 300);
  const query = useSWR<MediaList>(mediaListPath({ page, limit, search, accept }), swrFetcher, { keepPreviousData: true });
  const total = query.data?.totalCount ?? 0;
  const last = lastPage(total, limit);

  useEffect(() => setPage(1), [search]);
  // A delete can empty the last page; step back to the new last page.
  useEffect(() => {
    if (query.data && page > last) setPage(last);
  }, [query.data, page, last]);

  return {
    items: query.data?.result ?? [],
    total,
    loading: query.data === undefined && !query.error,
    error: query.error as unknown,
    page,
    last,
    limit,
    setPage,
    setLimit: (n: number) => {
      setLimitState(n);
      setPage(1);
    },
    searchInput,
    setSearchInput,
  };
}
