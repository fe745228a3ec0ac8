import { COLLECTIONS } from '../../lib/collections';

/** AuditEntry is one entry of GET /audit-log. */
export interface AuditEntry {
  id: string;
  at: string;
  userId: string;
  username: string;
  action: string;
  collection: string;
  recordId: string;
  changed: string[] | null;
  address: string;
  userAgent: string;
}

/** AuditFilter is what the screen narrows the log by; empty fields are not sent. */
export interface AuditFilter {
  user: string;
  collection: string;
  action: string;
  from: string;
  to: string;
}

export const EMPTY_FILTER: AuditFilter = { user: '', collection: '', action: '', from: '', to: '' };

/** ACTIONS are the actions an entry may record, as the filter offers them. */
export const ACTIONS: Array<[string, string]> = [
  ['create', 'Created'],
  ['update', 'Edited'],
  ['delete', 'Deleted'],
  ['restore', 'Restored'],
  ['purge', 'Deleted forever'],
  ['login', 'Signed in'],
  ['login-failed', 'Sign-in refused'],
  ['logout', 'Signed out'],
  ['export', 'Exported'],
  // Drafts and review (issue 36): each step of a draft.
  ['draft-create', 'Drafted'],
  ['draft-submit', 'Submitted for review'],
  ['draft-approve', 'Approved the draft of'],
  ['draft-request-changes', 'Requested changes to'],
  ['draft-schedule', 'Scheduled the draft of'],
  ['draft-publish', 'Published'],
  ['draft-discard', 'Discarded the draft of'],
  ['comment', 'Commented on'],
];

/** OTHER_THINGS name what the log records beside the declared collections. */
const OTHER_THINGS: Record<string, string> = {
  menu: 'the menu',
  'audit-log': 'the audit log',
  tenant: 'the institution',
  media: 'media file',
  'custom-form-submissions': 'form submission',
};

/** SINGLE_THINGS are recorded under the tenant's own id, which says nothing to a reader. */
const SINGLE_THINGS = new Set(['menu', 'tenant']);

/** what says in words what an entry records: "Edited FAQ 01H… (Answer, Position)". */
export function what(e: AuditEntry): string {
  const verb = ACTIONS.find(([a]) => a === e.action)?.[1] ?? e.action;
  if (!e.collection) return verb;
  const decl = COLLECTIONS[e.collection];
  const thing = OTHER_THINGS[e.collection] ?? decl?.title ?? e.collection;
  const labels = (e.changed ?? []).map((name) => decl?.fields.find((f) => f.name === name)?.label ?? name);
  const record = e.recordId && !SINGLE_THINGS.has(e.collection) ? ` ${e.recordId}` : '';
  return `${verb} ${thing}${record}${labels.length ? ` (${labels.join(', ')})` : ''}`;
}
