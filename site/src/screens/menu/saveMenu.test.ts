import { describe, expect, test } from 'vitest';
import { isStale } from '../../api/dataProvider';
import { build, flatten, type MenuItem } from '../../lib/menuTree';
import { newMenuItem, sameMenu, saveMenu, SaveFailure, type MenuCalls } from './saveMenu';

const item = (id: string, label = id, children: MenuItem[] = []): MenuItem => ({ id, label, type: 'CUSTOM_URL', url: '#', status: true, position: 0, children });

/** fakeServer answers like PATCH/POST/DELETE /menu-items: each write one version up; others bumps it first. */
function fakeServer(version: number, opts: { others?: number; failSave?: boolean } = {}) {
  let v = version;
  let ids = 0;
  const log: string[] = [];
  const calls: MenuCalls = {
    create: async (body) => {
      v += 1 + (opts.others ?? 0);
      opts.others = 0;
      const id = `S${++ids}`;
      log.push(`create ${JSON.stringify(body)} -> ${id}`);
      return { result: { ...item(id), ...body } as MenuItem, version: v };
    },
    remove: async (id) => {
      log.push(`remove ${id}`);
      return { result: { id }, version: ++v };
    },
    save: async (tree, at) => {
      log.push(`save ${flatten(tree).map((r) => `${r.item.id}:${r.depth}:${r.item.status}`).join(',')} @${at}`);
      if (opts.failSave) throw new Error('refused');
      return { result: tree, version: ++v };
    },
  };
  return { calls, log };
}

describe('saveMenu', () => {
  test('new items are created switched off, then the whole tree is saved with their ids and status', async () => {
    const fresh = { ...newMenuItem(), label: 'Fresh' };
    const child = { ...newMenuItem(), label: 'Child' };
    const draft = build([...flatten([item('A'), fresh]), { item: child, depth: 1, parentId: fresh.id }]);
    const { calls, log } = fakeServer(7);
    const res = await saveMenu(calls, draft, 7);
    expect(log).toEqual([
      'create {"label":"Fresh","type":"CUSTOM_URL","url":"#","status":false} -> S1',
      'create {"label":"Child","type":"CUSTOM_URL","url":"#","status":false} -> S2',
      'save A:0:true,S1:0:true,S2:1:true @9',
    ]);
    expect(res.version).toBe(10);
  });

  test('a draft without new items is one save', async () => {
    const { calls, log } = fakeServer(3);
    await saveMenu(calls, [item('A')], 3);
    expect(log).toEqual(['save A:0:true @3']);
  });

  test('a refused save deletes what it created; the draft rests on the version after that', async () => {
    const { calls, log } = fakeServer(4, { failSave: true });
    const err = await saveMenu(calls, [item('A'), newMenuItem()], 4).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SaveFailure);
    expect((err as SaveFailure).version).toBe(6);
    expect(log.slice(1)).toEqual(['save A:0:true,S1:0:true @5', 'remove S1']);
  });

  test('someone else saving meanwhile is stale, and the draft keeps its old version', async () => {
    const { calls, log } = fakeServer(4, { others: 1 });
    const err = (await saveMenu(calls, [newMenuItem()], 4).catch((e: unknown) => e)) as SaveFailure;
    expect(isStale(err.error)).toBe(true);
    expect(err.version).toBe(4);
    expect(log).toHaveLength(2);
    expect(log[1]).toBe('remove S1');
  });
});

describe('sameMenu', () => {
  test('compares what a save would send: an item added and deleted again leaves no change', () => {
    const saved = build(flatten([item('A'), item('B')]));
    const added = newMenuItem();
    const draft = build(flatten([...saved, added]));
    expect(sameMenu(draft, saved)).toBe(false);
    expect(sameMenu(build(flatten(draft).filter((r) => r.item.id !== added.id)), saved)).toBe(true);
    expect(sameMenu(build(flatten([item('A')])), build(flatten([item('A')])))).toBe(true);
    expect(sameMenu([item('A')], [item('A', 'Renamed')])).toBe(false);
  });
});
