/**
 * The Trash screen's pure rules: what a kind is called, which kinds can be in the trash, who may
 * restore or delete forever. Its paths and the cached reads a restore refreshes are the data
 * provider's (api/dataProvider.ts).
 */
import type { ListResult } from '../../api/dataProvider';
import type { User } from '../../api/types';
import { COLLECTIONS, can } from '../../lib/collections';

/** MEDIA is the trash's kind of media files (everything else is a collection key). */
export const MEDIA = 'media';

/** TrashEntry is one entry of GET /trash: a deleted record or media file, at the version its delete kept. */
export interface TrashEntry {
  kind: string;
  id: string;
  title: string;
  version: number;
  deletedAt: string;
  by: string;
  byName: string;
  purgedAt: string;
  /** purging: Delete forever began and is finishing (a form's submissions go a batch at a time). */
  purging?: boolean;
}

/** TrashPage is one page of GET /trash. */
export type TrashPage = ListResult<TrashEntry>;

/** kindName is what the screen calls an entry's kind: "Page", "FAQ", "Media"; an unknown key as is. */
export function kindName(kind: string): string {
  if (kind === MEDIA) return 'Media';
  return COLLECTIONS[kind]?.title ?? kind;
}

/**
 * kindOptions are the kind filter's choices: every collection that can be in the trash (the
 * singletons cannot: they are saved, never deleted) and media files, by name.
 */
export function kindOptions(): Array<{ value: string; label: string }> {
  const out = Object.values(COLLECTIONS)
    .filter((c) => !c.singleton)
    .map((c) => ({ value: c.key, label: c.titlePlural }));
  out.push({ value: MEDIA, label: 'Media' });
  return out.sort((a, b) => a.label.localeCompare(b.label));
}

/** emptyMessage is what an empty list says: of everything, or of the kind the filter names. */
export function emptyMessage(kind: string): string {
  if (!kind) return 'The trash is empty.';
  const label = kindOptions().find((k) => k.value === kind)?.label ?? kindName(kind);
  return `No ${label} in the trash.`;
}

/** entryKey tells entries apart (one record can be deleted, restored and deleted again). */
export function entryKey(e: Pick<TrashEntry, 'kind' | 'id' | 'version'>): string {
  return `${e.kind}/${e.id}/${e.version}`;
}

/**
 * canRestore: restoring creates the record again, so it takes the kind's CREATE right; media
 * files are open to every signed-in user, as in the Media Library (SPEC §6).
 */
export function canRestore(user: User | null | undefined, kind: string): boolean {
  return rightOn(user, kind, 'CREATE');
}

/** canPurge: Delete forever takes the kind's DELETE right; media files, any signed-in user. */
export function canPurge(user: User | null | undefined, kind: string): boolean {
  return rightOn(user, kind, 'DELETE');
}

function rightOn(user: User | null | undefined, kind: string, action: 'CREATE' | 'DELETE'): boolean {
  if (!user) return false;
  if (kind === MEDIA) return true;
  const decl = COLLECTIONS[kind];
  // A kind this SPA does not know: leave the decision to the server (it answers 403 if refused).
  return decl ? can(user, decl, action) : !!user.isAdmin;
}

/** withoutEntry drops one entry from the loaded pages (after a restore or a delete forever). */
export function withoutEntry(pages: TrashPage[] | undefined, e: Pick<TrashEntry, 'kind' | 'id' | 'version'>): TrashPage[] | undefined {
  if (!pages) return pages;
  const key = entryKey(e);
  return pages.map((p) => ({ ...p, items: p.items.filter((x) => entryKey(x) !== key) }));
}

/**
 * markedPurging marks one entry of the loaded pages as being deleted forever (a Delete forever
 * answered 202: what it holds back is still going, so it stays listed, no longer restorable).
 */
export function markedPurging(pages: TrashPage[] | undefined, e: Pick<TrashEntry, 'kind' | 'id' | 'version'>): TrashPage[] | undefined {
  if (!pages) return pages;
  const key = entryKey(e);
  return pages.map((p) => ({ ...p, items: p.items.map((x) => (entryKey(x) === key ? { ...x, purging: true } : x)) }));
}

/** purgeFinished tells whether a Delete forever's answer means the entry is gone (200), not still going (202). */
export function purgeFinished(result: unknown): boolean {
  return !(result && typeof result === 'object' && (result as { purging?: boolean }).purging === true);
}

/** confirmPurgeMessage is what the Delete forever dialog asks. */
export function confirmPurgeMessage(e: Pick<TrashEntry, 'kind' | 'title'>): string {
  return `Delete ${kindName(e.kind)} "${e.title}" forever? This cannot be undone.`;
}

/** formatDate renders a day as "December 21, 2026" (en-US, the panel's style), or '' if invalid. */
export function formatDate(value: string, timeZone?: string): string {
  const d = new Date(value);
  if (!value || Number.isNaN(d.getTime())) return '';
  return d.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone });
}
