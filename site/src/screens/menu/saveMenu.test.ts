import { describe, expect, test } from 'vitest';
import { build, flatten, toPayload, type MenuItem } from '../../lib/menuTree';
import { newMenuItem, sameMenu } from './saveMenu';

const item = (id: string, label = id, children: MenuItem[] = []): MenuItem => ({ id, label, type: 'CUSTOM_URL', url: '#', status: true, position: 0, children });

describe('newMenuItem', () => {
  test("has SPEC's defaults and a NEW_ id of its own, which the save sends as it is", () => {
    const a = newMenuItem();
    const b = newMenuItem();
    expect(a).toMatchObject({ label: 'Link', type: 'CUSTOM_URL', url: '#', status: true });
    expect(a.id).toMatch(/^NEW_\d+$/);
    expect(b.id).not.toBe(a.id);
    expect(toPayload([a])[0]).toMatchObject({ id: a.id });
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
