import { describe, expect, test } from 'vitest';
import type { User } from '../../api/types';
import {
  KINDS,
  RECENT_MAX,
  canViewScreen,
  countLabel,
  flatten,
  groupEntries,
  loadRecents,
  matches,
  pushRecent,
  rankScreens,
  recentKey,
  recordLabel,
  recordPath,
  rememberRecent,
  screenEntries,
  searchDelay,
  searchPath,
  toEntry,
  viewableKinds,
  visibleRecents,
  words,
  type Entry,
} from './palette';

const user = (permissions: string[], isAdmin = false): User => ({
  id: 'u1',
  username: 'ann',
  email: '',
  phone: '',
  firstName: 'Ann',
  lastName: 'Lee',
  isAdmin,
  roleId: '',
  status: true,
  permissions,
});

const LINKS = [
  { label: 'Home', path: '/dashboard', category: 'DASHBOARD', permission: true as const },
  { label: 'Pages', path: '/pages', category: 'PAGE', permission: true as const },
  { label: 'Create Page', path: '/pages/create', category: 'PAGE', permission: true as const },
  { label: 'Edit Page', path: '/pages/:id', category: 'PAGE', permission: true as const },
  { label: 'Media Library', path: '/media', category: 'MEDIA', permission: true as const },
  { label: 'Newsletter Signups', path: '/newsletter-signups', category: 'NEWSLETTER_SIGNUP', permission: true as const },
  { label: 'Trash', path: '/trash', category: 'TRASH', permission: 'CMS_VIEW_TRASH' },
  { label: 'My Profile', path: '/my-profile', category: 'PROFILE', permission: true as const },
];

describe('words and matches', () => {
  test('fold accents, case and punctuation', () => {
    expect(words('Café & Crème: Über 2026 — Open Day!!')).toEqual(['cafe', 'creme', 'uber', '2026', 'open', 'day']);
    expect(words('  ')).toEqual([]);
  });
  test('every typed word begins some word, in any order', () => {
    const title = 'Café & Crème: Über 2026 — Open Day!!';
    expect(matches('cafe', title)).toBe(true);
    expect(matches('uber', title)).toBe(true);
    expect(matches('day open', title)).toBe(true);
    expect(matches('DAY   Cré', title)).toBe(true);
    expect(matches('afe', title)).toBe(false); // inside a word, not its start
    expect(matches('day close', title)).toBe(false);
    expect(matches('', title)).toBe(true);
  });
});

describe('screens', () => {
  test('only what the user may view; routes with parameters left out', () => {
    const admin = screenEntries(user([], true), LINKS).map((e) => e.path);
    expect(admin).toEqual(['/dashboard', '/pages', '/pages/create', '/media', '/newsletter-signups', '/trash', '/my-profile']);
    const viewer = screenEntries(user(['CMS_VIEW_PAGE']), LINKS).map((e) => e.path);
    expect(viewer).toEqual(['/dashboard', '/pages', '/media', '/my-profile']);
    expect(canViewScreen(user(['CMS_CREATE_PAGE']), LINKS[2])).toBe(true);
    expect(screenEntries(null, LINKS).map((e) => e.path)).toEqual([]);
  });
  test('ranked by the word-prefix rule, whole words and leading words first', () => {
    const all = screenEntries(user([], true), LINKS);
    expect(rankScreens('page', all).map((e) => e.label)).toEqual(['Pages', 'Create Page']);
    expect(rankScreens('pa', all).map((e) => e.label)).toEqual(['Pages', 'Create Page']);
    expect(rankScreens('sign news', all).map((e) => e.label)).toEqual(['Newsletter Signups']);
    expect(rankScreens('lib', all).map((e) => e.label)).toEqual(['Media Library']);
    expect(rankScreens('ary', all)).toEqual([]);
    expect(rankScreens('', all, 3)).toHaveLength(3);
  });
});

describe('kinds and records', () => {
  test('kinds the user may view; media for every signed-in user', () => {
    expect(viewableKinds(user([], true))).toHaveLength(KINDS.length);
    expect(viewableKinds(user(['CMS_VIEW_EVENT'])).map((k) => k.key)).toEqual(['events', 'media']);
    expect(viewableKinds(null)).toEqual([]);
  });
  test('search request, labels and where a record opens', () => {
    expect(searchPath(KINDS[0], ' café day ')).toBe('/pages?search=caf%C3%A9%20day&limit=5');
    expect(recordLabel('users', { firstName: 'Ann', lastName: 'Lee', username: 'ann' })).toBe('Ann Lee (ann)');
    expect(recordLabel('users', { username: 'bob' })).toBe('bob');
    expect(recordLabel('staff-members', { name: 'Zoë' })).toBe('Zoë');
    expect(recordPath('pages', 'p 1', 'x')).toBe('/pages/p%201');
    expect(recordPath('custom-forms', 'f1', 'x')).toBe('/custom-forms/f1');
    expect(recordPath('media', 'm1', 'a b.png')).toBe('/media?search=a%20b.png');
    expect(recordPath('events', 'e1', 'x')).toBe('/events?edit=e1');
    expect(toEntry('notices', { id: 'n1', title: 'Closed' })).toEqual({ kind: 'notices', id: 'n1', label: 'Closed', path: '/notices?edit=n1' });
  });
});

describe('grouping', () => {
  test('screens first, then kinds in their order; empty groups dropped', () => {
    const entries: Entry[] = [
      { kind: 'users', id: 'u', label: 'U', path: '/users?edit=u' },
      { kind: 'pages', id: 'p1', label: 'P1', path: '/pages/p1' },
      { kind: 'screen', id: '/pages', label: 'Pages', path: '/pages' },
      { kind: 'pages', id: 'p2', label: 'P2', path: '/pages/p2' },
    ];
    const groups = groupEntries(entries);
    expect(groups.map((g) => [g.key, g.label, g.entries.length])).toEqual([
      ['screen', 'Screens', 1],
      ['pages', 'Pages', 2],
      ['users', 'Users', 1],
    ]);
    expect(flatten(groups).map((e) => e.id)).toEqual(['/pages', 'p1', 'p2', 'u']);
    expect(countLabel(0)).toBe('No results');
    expect(countLabel(1)).toBe('1 result');
    expect(countLabel(5)).toBe('5 results');
  });
});

class MemoryStore {
  data = new Map<string, string>();
  getItem(k: string) {
    return this.data.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.data.set(k, v);
  }
}

describe('recent items', () => {
  const e = (id: string, kind = 'pages'): Entry => ({ kind, id, label: id, path: `/x/${id}` });
  test('most recent first, once, at most RECENT_MAX', () => {
    let list: Entry[] = [];
    for (let i = 0; i < 10; i++) list = pushRecent(list, e(`p${i}`));
    expect(list).toHaveLength(RECENT_MAX);
    expect(list[0].id).toBe('p9');
    list = pushRecent(list, e('p5'));
    expect(list.map((x) => x.id)).toEqual(['p5', 'p9', 'p8', 'p7', 'p6', 'p4', 'p3', 'p2']);
    // The same id of another kind is another item.
    expect(pushRecent([e('a')], e('a', 'events'))).toHaveLength(2);
  });
  test('kept per tenant and user; unreadable storage counts as none', () => {
    const store = new MemoryStore();
    const k1 = recentKey('demo', 'u1');
    const k2 = recentKey('other', 'u1');
    expect(k1).not.toBe(k2);
    rememberRecent(store, k1, e('a'));
    rememberRecent(store, k1, e('b'));
    expect(loadRecents(store, k1).map((x) => x.id)).toEqual(['b', 'a']);
    expect(loadRecents(store, k2)).toEqual([]);
    store.setItem(k2, '{not json');
    expect(loadRecents(store, k2)).toEqual([]);
    store.setItem(k2, JSON.stringify([{ kind: 'pages' }, e('c')]));
    expect(loadRecents(store, k2).map((x) => x.id)).toEqual(['c']);
    expect(loadRecents(undefined, k1)).toEqual([]);
    const full = { getItem: () => null, setItem: () => { throw new Error('quota'); } };
    expect(rememberRecent(full, k1, e('z')).map((x) => x.id)).toEqual(['z']);
  });
  test('items the user may no longer open are hidden', () => {
    const screens = [{ kind: 'screen', id: '/pages', label: 'Pages', path: '/pages' }];
    const recents = [e('p1'), e('ev', 'events'), { kind: 'screen', id: '/trash', label: 'Trash', path: '/trash' }, screens[0]];
    expect(visibleRecents(recents, screens, KINDS.filter((k) => k.key === 'pages')).map((x) => x.id)).toEqual(['p1', '/pages']);
  });
});

describe('pacing', () => {
  test('the debounce, stretched so rounds start at least the gap apart', () => {
    expect(searchDelay(1000, 0)).toBe(250);
    expect(searchDelay(1000, 900)).toBe(250);
    expect(searchDelay(1000, 1000, 100, 400)).toBe(400);
  });
});
