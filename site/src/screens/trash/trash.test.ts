import { describe, expect, it } from 'vitest';
import type { User } from '../../api/types';
import {
  canPurge,
  canRestore,
  confirmPurgeMessage,
  emptyMessage,
  entryKey,
  formatDate,
  kindName,
  kindOptions,
  markedPurging,
  purgeFinished,
  withoutEntry,
  type TrashEntry,
  type TrashPage,
} from './trash';

const user = (over: Partial<User> = {}): User => ({
  id: 'u', username: 'u', email: '', phone: '', firstName: '', lastName: '', isAdmin: false, roleId: '', status: true, permissions: [], ...over,
});

const entry = (over: Partial<TrashEntry> = {}): TrashEntry => ({
  kind: 'pages',
  id: '01JABCDEFGHJKMNPQRSTVWXYZ0',
  title: 'Open Day',
  version: 3,
  deletedAt: '2026-11-23T10:00:00Z',
  by: 'u1',
  byName: 'admin',
  purgedAt: '2026-12-23T10:00:00Z',
  ...over,
});

describe('kindName', () => {
  it('names a collection by its singular title, media as Media, anything else as sent', () => {
    expect(kindName('pages')).toBe('Page');
    expect(kindName('faqs')).toBe('FAQ');
    expect(kindName('custom-forms')).toBe('Form');
    expect(kindName('users')).toBe('User');
    expect(kindName('media')).toBe('Media');
    expect(kindName('gizmos')).toBe('gizmos');
  });
});

describe('kindOptions', () => {
  it('offers every collection that can be deleted, and media, sorted by name; no singletons', () => {
    const opts = kindOptions();
    const values = opts.map((o) => o.value);
    expect(values).toContain('pages');
    expect(values).toContain('media');
    expect(values).toContain('custom-forms');
    for (const singleton of ['header', 'footer', 'theme-settings', 'seo-settings']) expect(values).not.toContain(singleton);
    expect(opts.find((o) => o.value === 'pages')?.label).toBe('Pages');
    const labels = opts.map((o) => o.label);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b)));
  });
});

describe('entryKey', () => {
  it('names an entry by kind, id and version', () => {
    expect(entryKey(entry({ kind: 'media', version: 1 }))).toBe('media/01JABCDEFGHJKMNPQRSTVWXYZ0/1');
  });
});

describe('rights', () => {
  it('restore takes CREATE and delete forever DELETE on the kind; admins hold both', () => {
    const editor = user({ permissions: ['CMS_VIEW_TRASH', 'CMS_CREATE_PAGE'] });
    expect(canRestore(editor, 'pages')).toBe(true);
    expect(canPurge(editor, 'pages')).toBe(false);
    expect(canRestore(editor, 'faqs')).toBe(false);
    const deleter = user({ permissions: ['CMS_DELETE_FAQ'] });
    expect(canPurge(deleter, 'faqs')).toBe(true);
    expect(canRestore(deleter, 'faqs')).toBe(false);
    const admin = user({ isAdmin: true });
    expect(canRestore(admin, 'users')).toBe(true);
    expect(canPurge(admin, 'custom-forms')).toBe(true);
  });
  it('media files are open to every signed-in user, as in the Media Library', () => {
    expect(canRestore(user(), 'media')).toBe(true);
    expect(canPurge(user(), 'media')).toBe(true);
    expect(canRestore(null, 'media')).toBe(false);
  });
  it('a kind the SPA does not know is left to admins (the server decides)', () => {
    expect(canRestore(user({ permissions: ['CMS_CREATE_GIZMO'] }), 'gizmos')).toBe(false);
    expect(canPurge(user({ isAdmin: true }), 'gizmos')).toBe(true);
  });
});

describe('withoutEntry', () => {
  it('drops exactly the one entry from every loaded page, leaving cursors alone', () => {
    const a = entry({ id: 'A' });
    const aOlder = entry({ id: 'A', version: 1 });
    const b = entry({ id: 'B', kind: 'media', version: 1 });
    const pages: TrashPage[] = [{ items: [a, b], total: 2, nextCursor: 'c1' }, { items: [aOlder], total: 1 }];
    const out = withoutEntry(pages, a)!;
    expect(out.map((p) => p.items.map(entryKey))).toEqual([[entryKey(b)], [entryKey(aOlder)]]);
    expect(out[0].nextCursor).toBe('c1');
    expect(pages[0].items).toHaveLength(2); // not mutated
    expect(withoutEntry(undefined, a)).toBeUndefined();
  });
});

describe('copy', () => {
  it('the empty list says the trash is empty, or names the kind filtered by', () => {
    expect(emptyMessage('')).toBe('The trash is empty.');
    expect(emptyMessage('faqs')).toBe('No FAQs in the trash.');
    expect(emptyMessage('media')).toBe('No Media in the trash.');
  });
  it('the Delete forever question names the item and says it cannot be undone', () => {
    expect(confirmPurgeMessage(entry())).toBe('Delete Page "Open Day" forever? This cannot be undone.');
    expect(confirmPurgeMessage(entry({ kind: 'media', title: 'logo.png' }))).toBe('Delete Media "logo.png" forever? This cannot be undone.');
  });
  it('formats the purge day, and nothing for a missing or bad date', () => {
    expect(formatDate('2026-12-23T10:00:00Z', 'UTC')).toBe('December 23, 2026');
    expect(formatDate('')).toBe('');
    expect(formatDate('soon')).toBe('');
  });
});

describe('a Delete forever still going', () => {
  it('is told from one that finished by the answer', () => {
    expect(purgeFinished({ id: 'x', purging: true })).toBe(false);
    expect(purgeFinished({ id: 'x' })).toBe(true);
    expect(purgeFinished(undefined)).toBe(true);
  });
  it('marks only its entry as being deleted', () => {
    const a = entry();
    const b = entry({ id: '01JABCDEFGHJKMNPQRSTVWXYZ1' });
    const pages: TrashPage[] = [{ items: [a, b] } as TrashPage];
    const out = markedPurging(pages, a)!;
    expect(out[0].items.map((x) => Boolean(x.purging))).toEqual([true, false]);
    expect(pages[0].items[0].purging).toBeUndefined();
  });
});
