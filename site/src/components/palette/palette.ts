/**
 * The command palette's pure rules: the word-prefix match (the server's rule, shared/words),
 * screen ranking, the record kinds it searches and where each opens, grouping, and the recent
 * items kept in localStorage per tenant and user.
 */
import type { User } from '../../api/types';
import { hasPermission, viewPermission } from '../../lib/permissions';

/** words folds accents and case and splits on anything but letters and digits. */
export function words(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** matches: every typed word begins some word of text, in any order (an empty query matches all). */
export function matches(query: string, text: string): boolean {
  const typed = words(query);
  if (typed.length === 0) return true;
  const have = words(text);
  return typed.every((t) => have.some((w) => w.startsWith(t)));
}

/** score ranks a match: whole words and a typed first word that leads the text count more (then shorter labels). */
function score(typed: string[], have: string[]): number {
  let s = 0;
  for (const t of typed) s += have.includes(t) ? 2 : 1;
  if (typed.length > 0 && have[0]?.startsWith(typed[0])) s += 2;
  return s;
}

/** A palette entry: a screen to go to, or a record to open. */
export interface Entry {
  /** 'screen' or a record kind (KINDS). */
  kind: string;
  /** The record id; a screen's path. */
  id: string;
  label: string;
  /** Where Enter goes. */
  path: string;
}

export interface ScreenLink {
  label: string;
  path: string;
  category: string;
  permission: string | true;
}

/** Categories every signed-in user may open (the server asks no view permission for them). */
const OPEN_CATEGORIES = new Set(['DASHBOARD', 'PROFILE', 'MEDIA']);

/** canViewScreen: the sidebar's own gate, then CMS_VIEW_{CATEGORY} (CREATE for a create screen). */
export function canViewScreen(user: User | null | undefined, link: ScreenLink): boolean {
  if (!user || !hasPermission(user, link.permission)) return false;
  if (OPEN_CATEGORIES.has(link.category)) return true;
  const code = link.path.endsWith('/create') ? `CMS_CREATE_${link.category}` : viewPermission(link.category);
  return hasPermission(user, code);
}

/** screenEntries are the screens the user may open, one per path; routes with parameters are left out. */
export function screenEntries(user: User | null | undefined, links: ScreenLink[]): Entry[] {
  const seen = new Set<string>();
  const out: Entry[] = [];
  for (const l of links) {
    if (l.path.includes(':') || seen.has(l.path) || !canViewScreen(user, l)) continue;
    seen.add(l.path);
    out.push({ kind: 'screen', id: l.path, label: l.label, path: l.path });
  }
  return out;
}

/** rankScreens keeps the screens whose label matches the query, best first (then by label). */
export function rankScreens(query: string, screens: Entry[], max = 8): Entry[] {
  const typed = words(query);
  return screens
    .map((e) => ({ e, have: words(e.label) }))
    .filter(({ have }) => typed.every((t) => have.some((w) => w.startsWith(t))))
    .map(({ e, have }) => ({ e, s: score(typed, have), n: have.length }))
    .sort((a, b) => b.s - a.s || a.n - b.n || a.e.label.localeCompare(b.e.label))
    .slice(0, max)
    .map(({ e }) => e);
}

/** A record kind the palette searches. */
export interface Kind {
  key: string;
  /** The group's name. */
  label: string;
  /** The list the search asks: GET /{resource}?search=&limit=. */
  resource: string;
  /** Permission category (CMS_VIEW_{category}); null: open to every signed-in user. */
  category: string | null;
}

export const KINDS: Kind[] = [
  { key: 'pages', label: 'Pages', resource: 'pages', category: 'PAGE' },
  { key: 'custom-forms', label: 'Forms', resource: 'custom-forms', category: 'CUSTOM_FORM' },
  { key: 'events', label: 'Events', resource: 'events', category: 'EVENT' },
  { key: 'notices', label: 'Notices', resource: 'notices', category: 'NOTICE' },
  { key: 'staff-members', label: 'Staff', resource: 'staff-members', category: 'STAFF_MEMBER' },
  { key: 'albums', label: 'Albums', resource: 'albums', category: 'ALBUM' },
  { key: 'media', label: 'Media', resource: 'media', category: null },
  { key: 'users', label: 'Users', resource: 'users', category: 'USER' },
];

/** GROUP_LABELS names every group, screens and recent items included. */
export const GROUP_LABELS: Record<string, string> = {
  recent: 'Recent',
  screen: 'Screens',
  ...Object.fromEntries(KINDS.map((k) => [k.key, k.label])),
};

/** viewableKinds are the kinds the user may list. */
export function viewableKinds(user: User | null | undefined): Kind[] {
  return KINDS.filter((k) => (k.category === null ? !!user : hasPermission(user, viewPermission(k.category))));
}

/** searchPath is the list request of one kind for the typed text. */
export function searchPath(kind: Kind, query: string, limit = 5): string {
  return `/${kind.resource}?search=${encodeURIComponent(query.trim())}&limit=${limit}`;
}

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** recordLabel is what a record is called: its title or name; a user by full name and username. */
export function recordLabel(kind: string, r: Record<string, unknown>): string {
  if (kind === 'users') {
    const full = [str(r.firstName), str(r.lastName)].filter(Boolean).join(' ');
    const user = str(r.username);
    return full && user ? `${full} (${user})` : full || user;
  }
  return str(r.title) || str(r.name) || str(r.id);
}

/**
 * recordPath is where a record is edited: the page editor, the form builder, the media library
 * searched for the file's name, else its list with the edit form open (?edit=).
 */
export function recordPath(kind: string, id: string, label: string): string {
  const e = encodeURIComponent;
  switch (kind) {
    case 'pages':
      return `/pages/${e(id)}`;
    case 'custom-forms':
      return `/custom-forms/${e(id)}`;
    case 'media':
      return `/media?search=${e(label)}`;
    default:
      return `/${kind}?edit=${e(id)}`;
  }
}

/** toEntry makes a record of a kind into a palette entry. */
export function toEntry(kind: string, r: Record<string, unknown>): Entry {
  const id = str(r.id);
  const label = recordLabel(kind, r) || id;
  return { kind, id, label, path: recordPath(kind, id, label) };
}

export interface Group {
  /** 'recent', 'screen' or a kind. */
  key: string;
  label: string;
  entries: Entry[];
}

/** groupEntries groups entries by kind in KINDS order (screens first), dropping empty groups. */
export function groupEntries(entries: Entry[]): Group[] {
  const order = ['screen', ...KINDS.map((k) => k.key)];
  const by = new Map<string, Entry[]>();
  for (const e of entries) by.set(e.kind, [...(by.get(e.kind) ?? []), e]);
  const keys = [...order.filter((k) => by.has(k)), ...[...by.keys()].filter((k) => !order.includes(k))];
  return keys.map((key) => ({ key, label: GROUP_LABELS[key] ?? key, entries: by.get(key)! }));
}

/** flatten lists a group list's entries in display order (what the arrows move through). */
export function flatten(groups: Group[]): Entry[] {
  return groups.flatMap((g) => g.entries);
}

/** countLabel is what the live region says about a result list. */
export function countLabel(n: number): string {
  return n === 0 ? 'No results' : n === 1 ? '1 result' : `${n} results`;
}

// ---- recent items ----

export const RECENT_MAX = 8;

/** recentKey names a user's recent items in one tenant. */
export function recentKey(tenantId: string, userId: string): string {
  return `cms.palette.recent.${tenantId}.${userId}`;
}

type Store = Pick<Storage, 'getItem' | 'setItem'>;

function isEntry(v: unknown): v is Entry {
  const e = v as Entry;
  return !!e && typeof e.kind === 'string' && typeof e.id === 'string' && typeof e.label === 'string' && typeof e.path === 'string';
}

/** loadRecents reads the stored recent items; anything unreadable counts as none. */
export function loadRecents(store: Store | undefined, key: string): Entry[] {
  try {
    const raw = JSON.parse(store?.getItem(key) ?? '[]');
    return Array.isArray(raw) ? raw.filter(isEntry).slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

/** pushRecent puts entry first, once (same kind and id), keeping the last RECENT_MAX. */
export function pushRecent(list: Entry[], entry: Entry, max = RECENT_MAX): Entry[] {
  const { kind, id, label, path } = entry;
  return [{ kind, id, label, path }, ...list.filter((e) => !(e.kind === entry.kind && e.id === entry.id))].slice(0, max);
}

/** rememberRecent records an opened entry; a full or absent storage is ignored. */
export function rememberRecent(store: Store | undefined, key: string, entry: Entry): Entry[] {
  const next = pushRecent(loadRecents(store, key), entry);
  try {
    store?.setItem(key, JSON.stringify(next));
  } catch {
    // Private mode or a full quota: the palette works without recents.
  }
  return next;
}

/**
 * visibleRecents drops recent items the user may no longer open (a permission taken away):
 * screens no longer in the list, records of kinds no longer viewable.
 */
export function visibleRecents(recents: Entry[], screens: Entry[], kinds: Kind[]): Entry[] {
  const paths = new Set(screens.map((s) => s.path));
  const keys = new Set(kinds.map((k) => k.key));
  return recents.filter((r) => (r.kind === 'screen' ? paths.has(r.path) : keys.has(r.kind)));
}

// ---- request pacing ----

export const DEBOUNCE_MS = 250;
/** At most one search round starts per this many ms (about 4 a second). */
export const MIN_GAP_MS = 250;

/** searchDelay is how long to wait before searching: the debounce, stretched to keep rounds MIN_GAP_MS apart. */
export function searchDelay(now: number, lastStart: number, debounce = DEBOUNCE_MS, gap = MIN_GAP_MS): number {
  return Math.max(debounce, lastStart + gap - now);
}
