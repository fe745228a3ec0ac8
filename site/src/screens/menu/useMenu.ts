import { useState } from 'react';
import toast from 'react-hot-toast';
import useSWR from 'swr';
import { dataProvider, fetchers, keys, type Reply } from '../../api/dataProvider';
import { messageOf } from '../../api/http';
import { MSG } from '../../lib/messages';
import { build, findItem, flatten, removeItem, toPayload, updateItem, type MenuItem, type MoveResult } from '../../lib/menuTree';
import { newMenuItem, sameMenu } from './saveMenu';

/** RESOURCE is the menu: one tree with one version (GET and PATCH /menu-items). */
const RESOURCE = 'menu-items';

/**
 * useMenu holds the menu builder's logic: the saved tree (swr) and the draft the user is shaping.
 * Every change (move, edit, '+ Add Menu Item', Delete) is the draft's alone (DESIGN §8.10) until
 * 'Save All Changes' writes it whole, added items (NEW_ ids) included, in one PATCH naming the
 * version it was based on, so the website shows the menu as last saved, a save lands whole or
 * not at all, and the leave guard covers every change.
 */
export function useMenu() {
  const { data, error, isLoading, mutate } = useSWR<Reply<MenuItem[]>>(keys.singleton(RESOURCE), fetchers.reply<MenuItem[]>, { revalidateOnFocus: false });
  const [draft, setDraft] = useState<MenuItem[] | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const saved = data?.result ?? [];
  const tree = draft ?? saved;
  const dirty = draft !== null && !sameMenu(draft, saved);

  const apply = (result: MoveResult) => {
    if (!result.ok) {
      toast.error(result.reason);
      return;
    }
    setDraft(result.tree);
  };

  const edit = (id: string, patch: Partial<Omit<MenuItem, 'id' | 'children'>>) => setDraft(updateItem(tree, id, patch));

  const add = () => {
    const item = newMenuItem();
    setDraft(build(flatten([...tree, item])));
    setSelected(item.id);
  };

  const remove = (id: string) => {
    setDraft(removeItem(tree, id));
    if (selected === id) setSelected(null);
  };

  const save = async () => {
    if (saving || !data) return;
    setSaving(true);
    try {
      const res = await dataProvider.saveSingleton<MenuItem[]>(RESOURCE, { menuItems: toPayload(tree) }, data.version ?? 0);
      await mutate({ result: res.result, version: res.version }, { revalidate: false });
      setDraft(null);
      setSelected((id) => (id && findItem(res.result, id) ? id : null));
      toast.success(MSG.menuSaved);
    } catch (err) {
      toast.error(messageOf(err, MSG.menuSaveFailed));
    } finally {
      setSaving(false);
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
    error,
    dirty,
    saving,
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
