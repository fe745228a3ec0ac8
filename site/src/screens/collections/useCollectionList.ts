import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import useSWR, { mutate as globalMutate } from 'swr';
import { api, swrFetcher } from '../../api/client';
import { messageOf } from '../../api/http';
import { listPath, nextSort, type ApiRecord, type CollectionDecl, type SortState } from '../../lib/collections';
import { DEFAULT_PAGE_SIZE, lastPage } from '../../lib/paginator';

export interface ListResponse {
  result: ApiRecord[];
  totalCount: number;
}

const SEARCH_DEBOUNCE_MS = 350;

/** useDebounced returns value once it has stopped changing for ms. */
export function useDebounced<T>(value: T, ms: number): T {
  const [out, setOut] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setOut(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return out;
}

/** reloadCollection revalidates every cached list of the collection (all pages, ref choices). */
export function reloadCollection(key: string): Promise<unknown> {
  return globalMutate((k) => typeof k === 'string' && (k.startsWith(`/${key}?`) || k === `/${key}`));
}

/** useCollectionList drives one list screen: server-side paging, search, sort and delete. */
export function useCollectionList(decl: CollectionDecl) {
  const [page, setPage] = useState(1);
  const [limit, setLimitState] = useState(DEFAULT_PAGE_SIZE);
  const [searchInput, setSearchInput] = useState('');
  const search = useDebounced(searchInput, SEARCH_DEBOUNCE_MS);
  const [sort, setSort] = useState<SortState | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);

  const path = listPath(decl.key, { page, limit, search, sort });
  const query = useSWR<ListResponse>(path, swrFetcher, { keepPreviousData: true });
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
  const toggleSort = (field: string) => {
    setSort((s) => nextSort(s, field));
    setPage(1);
  };

  const remove = async (record: ApiRecord) => {
    if (deleting) return;
    setDeleting(record.id);
    try {
      const res = await api.del<{ message?: string }>(`/${decl.key}/${encodeURIComponent(record.id)}`);
      toast.success(res?.message || `${decl.title} Deleted Successfully!`);
      await reloadCollection(decl.key);
    } catch (err) {
      toast.error(messageOf(err, 'Some error occured'));
    } finally {
      setDeleting(null);
    }
  };

  return {
    rows: query.data?.result ?? [],
    total,
    loading: query.data === undefined && !query.error,
    error: query.error,
    page,
    setPage,
    last,
    limit,
    setLimit,
    searchInput,
    setSearchInput,
    sort,
    toggleSort,
    remove,
    deleting,
    reload: () => reloadCollection(decl.key),
  };
}
