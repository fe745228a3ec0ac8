import { describe, expect, it } from 'vitest';
import { build, flatten, indent, moveBy, moveItem, outdent, outline, removeItem, REFUSED_PARENT_MOVE, type MenuItem } from './menuTree';

const item = (id: string, children: MenuItem[] = []): MenuItem => ({ id, label: id, type: 'CUSTOM_URL', url: '#', status: true, position: 0, children });
const shape = (tree: MenuItem[]): string =>
  tree.map((t) => (t.children.length ? `${t.id}(${t.children.map((c) => c.id).join(',')})` : t.id)).join(' ');
const moved = (r: ReturnType<typeof moveItem>): MenuItem[] => {
  if (!r.ok) throw new Error(r.reason);
  return r.tree;
};

describe('menu tree', () => {
  const tree = build(flatten([item('A', [item('A1'), item('A2')]), item('B'), item('C')]));

  it('numbers positions 1-based by order at both levels', () => {
    expect(tree.map((t) => t.position)).toEqual([1, 2, 3]);
    expect(tree[0].children.map((c) => c.position)).toEqual([1, 2]);
  });

  it('nests an item under the one above when dragged right, and back', () => {
    const nested = moved(moveItem(tree, 'C', 'C', 1));
    expect(shape(nested)).toBe('A(A1,A2) B(C)');
    expect(shape(moved(moveItem(nested, 'C', 'C', -1)))).toBe('A(A1,A2) B C');
  });

  it('reorders top-level items, a parent moving with its children', () => {
    expect(shape(moved(moveItem(tree, 'C', 'A', 0)))).toBe('C A(A1,A2) B');
    expect(shape(moved(moveItem(tree, 'A', 'B', 0)))).toBe('B A(A1,A2) C');
  });

  it('moves a child to another parent', () => {
    const t = moved(moveItem(tree, 'C', 'C', 1));
    expect(shape(moved(moveItem(t, 'A1', 'C', 0)))).toBe('A(A2) B(C,A1)');
  });

  it('refuses to move an item with children into the child level', () => {
    expect(moveItem(tree, 'A', 'A', 1)).toEqual({ ok: false, reason: REFUSED_PARENT_MOVE });
    const b = moved(moveItem(tree, 'C', 'C', 1));
    expect(moveItem(b, 'B', 'B', 1)).toEqual({ ok: false, reason: REFUSED_PARENT_MOVE });
    // Dropped between a parent and its first child, it would become a child: refused too.
    expect(moveItem(b, 'B', 'A1', 0).ok).toBe(false);
  });

  it('keeps the first item at the top level and never goes deeper than one level', () => {
    expect(shape(moved(moveItem(tree, 'A1', 'A', 0)))).toBe('A1 A(A2) B C');
    expect(shape(moved(moveItem(tree, 'A1', 'A1', 5)))).toBe('A(A1,A2) B C');
  });

  it('indents, outdents and moves by keyboard', () => {
    expect(shape(moved(indent(tree, 'B')))).toBe('A(A1,A2,B) C');
    expect(shape(moved(outdent(tree, 'A1')))).toBe('A(A2) A1 B C');
    expect(shape(moved(moveBy(tree, 'C', -1)))).toBe('A(A1,A2) C B');
    expect(shape(moved(moveBy(tree, 'A1', 1)))).toBe('A(A2,A1) B C');
  });

  it('does not mutate its input', () => {
    const before = JSON.stringify(tree);
    moveItem(tree, 'C', 'A', 1);
    removeItem(tree, 'A');
    expect(JSON.stringify(tree)).toBe(before);
  });

  it('removes an item with its children', () => {
    expect(shape(removeItem(tree, 'A'))).toBe('B C');
    expect(shape(removeItem(tree, 'A2'))).toBe('A(A1) B C');
  });
});

describe('outline', () => {
  it('writes the tree as one line: children in brackets, items switched off marked', () => {
    const node = (id: string, label: string, status = true, children: MenuItem[] = []): MenuItem => ({
      id,
      label,
      type: 'CUSTOM_URL',
      url: '#',
      status,
      position: 1,
      children,
    });
    expect(outline([node('a', 'Home'), node('b', 'About', true, [node('c', 'Team'), node('d', 'Old', false)]), node('e', 'Hidden', false)])).toBe(
      'Home, About [Team, Old (off)], Hidden (off)',
    );
    expect(outline([])).toBe('');
  });
});
