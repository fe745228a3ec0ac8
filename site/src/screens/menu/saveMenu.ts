import { StaleVersionError, type Reply } from '../../api/dataProvider';
import { build, flatten, toPayload, type MenuItem } from '../../lib/menuTree';

/** NEW_PREFIX marks the ids of items the draft added that the server does not have yet. */
const NEW_PREFIX = 'NEW_';

let counter = 0;

/** newMenuItem is '+ Add Menu Item's item, with SPEC's defaults (label 'Link', url '#', custom URL, on), in the draft only. */
export function newMenuItem(): MenuItem {
  counter += 1;
  return { id: `${NEW_PREFIX}${counter}`, label: 'Link', type: 'CUSTOM_URL', url: '#', status: true, position: 0, children: [] };
}

const isNew = (id: string) => id.startsWith(NEW_PREFIX);

/** sameMenu says whether two trees would save the same (the draft holds no change). */
export function sameMenu(a: MenuItem[], b: MenuItem[]): boolean {
  return JSON.stringify(toPayload(a)) === JSON.stringify(toPayload(b));
}

/** MenuCalls are the menu's three writes (the screen passes the data provider's). */
export interface MenuCalls {
  create: (body: object) => Promise<Reply<MenuItem>>;
  remove: (id: string) => Promise<Reply<unknown>>;
  save: (tree: MenuItem[], version: number) => Promise<Reply<MenuItem[]>>;
}

/** SaveFailure is a failed save and the version the draft is based on after it (its undo moved it). */
export class SaveFailure extends Error {
  constructor(
    readonly error: unknown,
    readonly version: number,
  ) {
    super('menu save failed');
  }
}

const STALE = 'The menu was changed by someone else. Reload it and try again.';

/**
 * saveMenu writes the draft on 'Save All Changes', so nothing reaches the server before it. The
 * server's PATCH takes only items it has, so each new item is first created switched off (off
 * the website until the PATCH switches it on as the draft says), then the whole tree is saved.
 * Each write bumps the menu's version by one on top of the one it read, so a version that jumps
 * means someone else saved meanwhile: stale, as the PATCH alone would say. On any failure the
 * items created are deleted again and SaveFailure says the version the draft now rests on.
 */
export async function saveMenu(calls: MenuCalls, draft: MenuItem[], version: number): Promise<Reply<MenuItem[]>> {
  let v = version;
  let rows = flatten(draft);
  const created: string[] = [];
  const step = (next: number | undefined) => {
    if (next !== v + 1) throw new StaleVersionError(STALE);
    v = next;
  };
  try {
    for (const { item } of rows.filter((r) => isNew(r.item.id))) {
      const res = await calls.create({ label: item.label, type: item.type, url: item.url, status: false });
      created.push(res.result.id);
      step(res.version);
      rows = rows.map((r) => (r.item.id === item.id ? { ...r, item: { ...r.item, id: res.result.id } } : r));
    }
    return await calls.save(build(rows), v);
  } catch (err) {
    throw new SaveFailure(err, await undo(calls, created, v, version));
  }
}

/** undo deletes the created items; the version stays followed while no one else writes between. */
async function undo(calls: MenuCalls, created: string[], v: number, base: number): Promise<number> {
  let at = v === base + created.length ? v : base;
  for (const id of created) {
    try {
      const res = await calls.remove(id);
      at = res.version === at + 1 ? res.version : base;
    } catch {
      // Left switched off, off the website; the next save's PATCH leaves it out, which removes it.
    }
  }
  return at;
}
