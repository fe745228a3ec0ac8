/**
 * Pure rules of the menu builder (SPEC §2 'Menu Items', §4): a tree one level deep, moved by
 * drag and drop or by keyboard. The screen applies the result at once and persists it on save
 * (DESIGN §8.10); nothing here mutates its input.
 */

export type MenuItemType = 'PAGE' | 'CUSTOM_URL';

export interface MenuItem {
  id: string;
  label: string;
  type: MenuItemType;
  url: string;
  status: boolean;
  position: number;
  children: MenuItem[];
}

/** FlatItem is one row of the tree as the sortable list shows it. */
export interface FlatItem {
  item: MenuItem;
  depth: 0 | 1;
  parentId: string | null;
}

export const REFUSED_PARENT_MOVE = 'An item with children cannot move into another level.';

/** flatten lists the tree in display order, children right after their parent. */
export function flatten(tree: MenuItem[]): FlatItem[] {
  const out: FlatItem[] = [];
  for (const item of tree) {
    out.push({ item, depth: 0, parentId: null });
    for (const child of item.children) out.push({ item: child, depth: 1, parentId: item.id });
  }
  return out;
}

/** build turns rows back into a tree with 1-based positions by order (SPEC §9). */
export function build(rows: FlatItem[]): MenuItem[] {
  const out: MenuItem[] = [];
  for (const row of rows) {
    if (row.depth === 1 && out.length > 0) {
      const parent = out[out.length - 1];
      parent.children.push({ ...row.item, children: [], position: parent.children.length + 1 });
    } else {
      out.push({ ...row.item, children: [], position: out.length + 1 });
    }
  }
  return out;
}

export type MoveResult = { ok: true; tree: MenuItem[] } | { ok: false; reason: string };

/**
 * moveItem moves an item (with its children) to where overId is and shifts its level by
 * depthDelta (+1: under the item above, -1: out to the top level). The level is clamped to what
 * the neighbours allow; an item with children stays at the top level, and asking it to change
 * level is refused.
 */
export function moveItem(tree: MenuItem[], activeId: string, overId: string, depthDelta: number): MoveResult {
  const rows = flatten(tree);
  const from = rows.findIndex((r) => r.item.id === activeId);
  const overIdx = rows.findIndex((r) => r.item.id === overId);
  if (from < 0 || overIdx < 0) return { ok: true, tree };
  const active = rows[from];
  const hasChildren = active.item.children.length > 0;
  if (hasChildren && depthDelta > 0) return { ok: false, reason: REFUSED_PARENT_MOVE };
  const block = rows.slice(from, from + 1 + (active.depth === 0 ? active.item.children.length : 0));
  const rest = rows.filter((r) => !block.includes(r));
  let at: number;
  if (overId === activeId) {
    at = from;
  } else {
    const overRest = rest.findIndex((r) => r.item.id === overId);
    at = overIdx > from ? overRest + 1 : overRest;
    // Dropped after a parent that has children: land after them, not inside the group.
    if (overIdx > from && rest[overRest].depth === 0 && hasChildren) {
      while (at < rest.length && rest[at].depth === 1) at++;
    }
  }
  const prev = rest[at - 1];
  const next = rest[at];
  const maxDepth = prev ? 1 : 0;
  const minDepth = next?.depth === 1 ? 1 : 0;
  const wanted = Math.max(0, Math.min(1, active.depth + depthDelta));
  const depth = Math.max(minDepth, Math.min(maxDepth, wanted)) as 0 | 1;
  if (hasChildren && depth !== 0) {
    // Pushing a parent between a parent and its children would make it a child.
    return { ok: false, reason: REFUSED_PARENT_MOVE };
  }
  const moved = block.map((r, i) => (i === 0 ? { ...r, depth } : r));
  return { ok: true, tree: build([...rest.slice(0, at), ...moved, ...rest.slice(at)]) };
}

/** indent makes an item a child of the item above it (keyboard and button alternative to dragging right). */
export function indent(tree: MenuItem[], id: string): MoveResult {
  return moveItem(tree, id, id, 1);
}

/** outdent moves a child out to the top level, right after its parent's group. */
export function outdent(tree: MenuItem[], id: string): MoveResult {
  const rows = flatten(tree);
  const idx = rows.findIndex((r) => r.item.id === id);
  if (idx < 0 || rows[idx].depth === 0) return { ok: true, tree };
  // Its later siblings stay children of the parent: move it past them first.
  let last = idx;
  while (last + 1 < rows.length && rows[last + 1].depth === 1) last++;
  return moveItem(tree, id, rows[last].item.id, -1);
}

/** moveBy moves an item up (-1) or down (+1) among the rows, keeping its level where it can. */
export function moveBy(tree: MenuItem[], id: string, step: -1 | 1): MoveResult {
  const rows = flatten(tree);
  const idx = rows.findIndex((r) => r.item.id === id);
  const target = rows[idx + step];
  if (idx < 0 || !target) return { ok: true, tree };
  return moveItem(tree, id, target.item.id, 0);
}

/** updateItem replaces one item's editable fields. */
export function updateItem(tree: MenuItem[], id: string, patch: Partial<Omit<MenuItem, 'id' | 'children'>>): MenuItem[] {
  return tree.map((it) =>
    it.id === id
      ? { ...it, ...patch }
      : { ...it, children: it.children.map((c) => (c.id === id ? { ...c, ...patch } : c)) },
  );
}

/** removeItem drops an item and its children. */
export function removeItem(tree: MenuItem[], id: string): MenuItem[] {
  return build(flatten(tree).filter((r) => r.item.id !== id && r.parentId !== id));
}

/** findItem returns the item with the id, at any level. */
export function findItem(tree: MenuItem[], id: string | null): MenuItem | undefined {
  if (!id) return undefined;
  return flatten(tree).find((r) => r.item.id === id)?.item;
}

/** toPayload is the PATCH /menu-items body's menuItems: the tree in order. */
export function toPayload(tree: MenuItem[]): unknown[] {
  return tree.map((it) => ({
    id: it.id,
    label: it.label,
    type: it.type,
    url: it.url,
    status: it.status,
    position: it.position,
    children: it.children.map((c) => ({ id: c.id, label: c.label, type: c.type, url: c.url, status: c.status, position: c.position })),
  }));
}

/** outline is a tree as one line of text, for comparing two versions of the menu: labels in
 * order, children in brackets, switched-off items marked. */
export function outline(tree: MenuItem[]): string {
  const one = (it: MenuItem): string =>
    `${it.label}${it.status ? '' : ' (off)'}${it.children?.length ? ` [${it.children.map(one).join(', ')}]` : ''}`;
  return tree.map(one).join(', ');
}
