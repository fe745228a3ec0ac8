import { useState } from 'react';
import toast from 'react-hot-toast';
import { dataProvider, mutateResource } from '../../api/dataProvider';
import { messageOf } from '../../api/http';
import { usePagedList } from '../../api/usePagedList';
import { nextSort, type ApiRecord, type CollectionDecl, type SortState } from '../../lib/collections';
import { DEFAULT_PAGE_SIZE } from '../../lib/paginator';

const SEARCH_DEBOUNCE_MS = 350;

/**
 * useCollectionList drives one list screen: server-side paging, search, sort and delete;
 * refreshEvery, when given, says from the rows on screen how often to read them again (ms; 0:
 * never), for a list whose rows change on their own (a newsletter being sent).
 */
export function useCollectionList(decl: CollectionDecl, refreshEvery?: (rows: ApiRecord[]) => number) {
  const [sort, setSort] = useState<SortState | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const list = usePagedList<ApiRecord>(decl.key, { sort: sort?.field, order: sort?.order }, {
    initialLimit: DEFAULT_PAGE_SIZE,
    debounceMs: SEARCH_DEBOUNCE_MS,
    refreshInterval: refreshEvery ? (data) => refreshEvery(data?.items ?? []) : undefined,
  });

  const toggleSort = (field: string) => {
    setSort((s) => nextSort(s, field));
    list.setPage(1);
  };

  const remove = async (record: ApiRecord) => {
    if (deleting) return;
    setDeleting(record.id);
    try {
      const res = await dataProvider.remove(decl.key, record.id);
      toast.success(res.message || `${decl.title} Deleted Successfully!`);
      await mutateResource(decl.key);
    } catch (err) {
      toast.error(messageOf(err, 'Some error occured'));
    } finally {
      setDeleting(null);
    }
  };

  return {
    ...list,
    sort,
    toggleSort,
    remove,
    deleting,
    reload: () => mutateResource(decl.key),
  };
}
