import { useState } from 'react';
import toast from 'react-hot-toast';
import useSWR from 'swr';
import { dataProvider, fetchers, keys, type Reply } from '../../api/dataProvider';
import { messageOf } from '../../api/http';
import { MSG } from '../../lib/messages';
import { build, flatten, removeItem, toPayload, updateItem, type MenuItem, type MoveResult } from '../../lib/menuTree';

/** RESOURCE is the menu: one tree with one version (GET and PATCH /menu-items; items created and deleted by id). */
const RESOURCE = 'menu-items';

/**
 * useMenu holds the menu builder's logic: the saved tree (swr), the draft the user is shaping
 * (moves apply at once, DESIGN §8.10), and the calls that create, delete and save. A create or
 * delete is written at once and folded into both the saved tree and the draft, so unsaved moves
 * survive it; 'Save All Changes' sends the draft with the version it was based on.
 */
export function useMenu() {
  const { data, error, isLoading, mutate } = useSWR<Reply<MenuItem[]>>(keys.singleton(RESOURCE), fetchers.reply<MenuItem[]>, { revalidateOnFocus: false });
  const [draft, setDraft] = useState<MenuItem[] | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [busy, setBusy] = useState<'add' | 'save' | string | null>(null);

  const saved = data?.result ?? [];
  const tree = draft ?? saved;
  const dirty = draft !== null;

  const apply = (result: MoveResult) => {
    if (!result.ok) {
      toast.error(result.reason);
      return;
    }
    setDraft(result.tree);
  };

  const edit = (id: string, patch: Partial<Omit<MenuItem, 'id' | 'children'>>) => setDraft(updateItem(tree, id, patch));

  const add = async () => {
    if (busy) return;
    setBusy('add');
    try {
      const body = { label: 'Link', url: '#', type: 'CUSTOM_URL', status: true, position: saved.length + 1 };
      const res = await dataProvider.create<MenuItem>(RESOURCE, body);
      const item = { ...res.result, children: [] };
      await mutate({ result: build(flatten([...saved, item])), version: res.version }, { revalidate: false });
      if (draft) setDraft(build(flatten([...draft, item])));
      setSelected(item.id);
      toast.success(MSG.menuCreated);
    } catch (err) {
      toast.error(messageOf(err, MSG.menuCreateFailed));
    } finally {
      setBusy(null);
    }
  };

  const remove = async (id: string) => {
    setBusy(id);
    try {
      const res = await dataProvider.remove(RESOURCE, id);
      await mutate({ result: removeItem(saved, id), version: res.version }, { revalidate: false });
      if (draft) setDraft(removeItem(draft, id));
      if (selected === id) setSelected(null);
      toast.success(MSG.menuDeleted);
    } catch (err) {
      toast.error(messageOf(err, MSG.deleteFailed));
    } finally {
      setBusy(null);
    }
  };

  const save = async () => {
    if (busy || !data) return;
    setBusy('save');
    try {
      await mutate(dataProvider.saveSingleton<MenuItem[]>(RESOURCE, { menuItems: toPayload(tree) }, data.version), {
        optimisticData: { result: tree, version: data.version },
        rollbackOnError: true,
        populateCache: (res) => ({ result: res.result, version: res.version }),
        revalidate: false,
      });
      setDraft(null);
      toast.success(MSG.menuSaved);
    } catch (err) {
      toast.error(messageOf(err, MSG.menuSaveFailed));
    } finally {
      setBusy(null);
    }
  };

  const reload = async () => {
    setDraft(null);
    await mutate();
  };

  return {
    tree,
    /** saved and version are the menu as last saved (what the history compares with). */
    saved: data?.result,
    version: data?.version,
    loading: isLoading,
    failed: Boolean(error),
    dirty,
    busy,
    selected,
    setSelected,
    apply,
    edit,
    add,
    remove,
    save,
    reload,
  };
}
