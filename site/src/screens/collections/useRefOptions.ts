import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { fetchers, keys, type ListResult, type Reply } from '../../api/dataProvider';
import { collectionFor, recordName, type ApiRecord } from '../../lib/collections';
import { refSearchParams } from '../../lib/refSearch';

/** REF_SEARCH_DEBOUNCE_MS: how long typing must rest before the picker asks the server. */
const REF_SEARCH_DEBOUNCE_MS = 250;

export interface RefOption {
  id: string;
  name: string;
}

/**
 * useRefOptions searches a referenced collection on the server as the user types (debounced,
 * name prefix, one page of REF_SEARCH_LIMIT), instead of loading its first 100 records: a
 * picker over 10,000 albums then still finds every one of them.
 */
export function useRefOptions(ref: string | undefined, search: string) {
  const [settled, setSettled] = useState(search);
  useEffect(() => {
    const t = setTimeout(() => setSettled(search), REF_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [search]);
  const { data } = useSWR<ListResult<ApiRecord>>(ref ? keys.list(ref, refSearchParams(settled)) : null, fetchers.list<ApiRecord>, {
    revalidateOnFocus: false,
    keepPreviousData: true,
  });
  const decl = ref ? collectionFor(ref) : undefined;
  const options: RefOption[] = (data?.items ?? []).map((r) => ({ id: r.id, name: recordName(decl, r) }));
  return { options, loaded: data !== undefined, searching: settled !== search };
}

/** useRefName is the name of one referenced record (one cached GET), for a table cell or a picker's current value. */
export function useRefName(ref: string | undefined, id: unknown) {
  const key = ref && typeof id === 'string' && id ? keys.one(ref, id) : null;
  const { data, error } = useSWR<Reply<ApiRecord>>(key, fetchers.reply<ApiRecord>, { revalidateOnFocus: false, shouldRetryOnError: false });
  const decl = ref ? collectionFor(ref) : undefined;
  return { name: data ? recordName(decl, data.result) : undefined, loaded: data !== undefined || error !== undefined };
}
