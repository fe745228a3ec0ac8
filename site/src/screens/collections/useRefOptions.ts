import useSWR from 'swr';
import { swrFetcher } from '../../api/client';
import { collectionFor, recordName, type ApiRecord } from '../../lib/collections';

/** REF_LIMIT: reference choices load one page of up to 100 records, once (SPEC §9). */
const REF_LIMIT = 100;

/** useRefOptions loads a referenced collection once (swr) as id → name choices. */
export function useRefOptions(ref: string | undefined) {
  const { data } = useSWR<{ result: ApiRecord[] }>(ref ? `/${ref}?limit=${REF_LIMIT}` : null, swrFetcher, {
    revalidateOnFocus: false,
  });
  const decl = ref ? collectionFor(ref) : undefined;
  const options = (data?.result ?? []).map((r) => ({ id: r.id, name: recordName(decl, r) }));
  return { options, loaded: data !== undefined, nameOf: (id: unknown) => options.find((o) => o.id === id)?.name };
}
