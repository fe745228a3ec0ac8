/**
 * Drafts and review (issue 36): the state a draft is in and what the signed-in user may do with
 * it, as shared/collections/workflow.go serves it. Pure logic, no React: the draft bar, the
 * dashboard card and the lists read it.
 */

export type DraftState = 'draft' | 'in_review' | 'approved' | 'changes_requested';

export interface DraftStep {
  step: string;
  by: string;
  byName?: string;
  at: string;
  comment?: string;
}

export interface Draft {
  id: string;
  collection: string;
  version: number;
  state: DraftState;
  isNew?: boolean;
  liveVersion?: number;
  fields: Record<string, unknown>;
  title?: string;
  authorId?: string;
  authorName?: string;
  updatedBy?: string;
  updatedByName?: string;
  createdAt?: string;
  updatedAt?: string;
  saves?: number;
  publishAt?: string;
  steps?: DraftStep[];
}

/** stateLabel is the draft's state as staff read it. */
export function stateLabel(state: DraftState): string {
  switch (state) {
    case 'in_review':
      return 'In review';
    case 'approved':
      return 'Approved';
    case 'changes_requested':
      return 'Changes requested';
    default:
      return 'Draft';
  }
}

export type DraftAction = 'submit' | 'approve' | 'requestChanges' | 'publish' | 'discard';

export const actionLabels: Record<DraftAction, string> = {
  submit: 'Submit for review',
  approve: 'Approve',
  requestChanges: 'Request changes',
  publish: 'Publish',
  discard: 'Discard draft',
};

export interface Rights {
  /** canEdit: the collection's edit right. */
  canEdit: boolean;
  /** canPublish: the collection category's CMS_PUBLISH_ right. */
  canPublish: boolean;
  /** requireReview: the Site settings' requireReview. */
  requireReview: boolean;
  /** userId: the signed-in user, to know a draft of one's own. */
  userId: string;
}

/**
 * draftActions lists the buttons the user gets for a draft (null: the record has no draft),
 * in the order they are shown, following the server's rules: submit from draft or
 * changes_requested (edit right); approve from in_review and request changes from in_review or
 * approved (publish right; not approving one's own draft while requireReview is on); publish
 * with the publish right, or the edit right alone while requireReview is off; discard with the
 * edit right.
 */
export function draftActions(draft: Draft | null, r: Rights): DraftAction[] {
  if (!draft) return [];
  const out: DraftAction[] = [];
  const { state } = draft;
  if (r.canEdit && (state === 'draft' || state === 'changes_requested')) out.push('submit');
  if (r.canPublish && state === 'in_review') {
    const own = draft.authorId !== undefined && draft.authorId === r.userId;
    if (!(own && r.requireReview)) out.push('approve');
  }
  if (r.canPublish && (state === 'in_review' || state === 'approved')) out.push('requestChanges');
  if (r.canPublish || (r.canEdit && !r.requireReview)) out.push('publish');
  if (r.canEdit) out.push('discard');
  return out;
}

/** requestChangesError checks the comment "Request changes" requires; '' when it is fine. */
export function requestChangesError(comment: string): string {
  return comment.trim() === '' ? 'Say what should change.' : '';
}

/** holdsPublishRight: an administrator, or a user holding any CMS_PUBLISH_ right (the dashboard's review card). */
export function holdsPublishRight(user: { isAdmin?: boolean; permissions?: string[] } | null | undefined): boolean {
  if (!user) return false;
  return !!user.isAdmin || (user.permissions ?? []).some((p) => p.startsWith('CMS_PUBLISH_'));
}

/** DraftAnswer is GET /{c}/{id}/draft: the draft, the live record, what differs, and the caller's publishing. */
export interface DraftAnswer {
  draft: Draft | null;
  live: Record<string, unknown> | null;
  changed: string[];
  /** requireReview is the Site settings' switch; mayPublish whether the caller may publish (the server's rule). */
  requireReview?: boolean;
  mayPublish?: boolean;
}

/**
 * editsDraft says whether the editor's saves go to the record's draft: always once it has one,
 * and always for a user without the collection's publish right (their edits never reach the
 * site unpublished). A holder of the right edits a record without a draft live, as before, and
 * may start a draft with "Save draft".
 */
export function editsDraft(answer: Pick<DraftAnswer, 'draft'> | null, holdsRight: boolean): boolean {
  if (!answer) return false;
  return answer.draft !== null || !holdsRight;
}

/** rightsFor are the Rights draftActions reads: the user's rights on the collection's category and the server's review switch. */
export function rightsFor(
  user: { id?: string; isAdmin?: boolean; permissions?: string[] } | null | undefined,
  category: string,
  answer: Pick<DraftAnswer, 'requireReview'> | null,
): Rights {
  const has = (code: string) => !!user && (!!user.isAdmin || (user.permissions ?? []).includes(code));
  return {
    canEdit: has(`CMS_EDIT_${category}`),
    canPublish: has(`CMS_PUBLISH_${category}`),
    // Unknown (not loaded yet) counts as required: no button the server would refuse.
    requireReview: answer?.requireReview ?? true,
    userId: user?.id ?? '',
  };
}

/** stepLabel says what a recorded step did. */
export function stepLabel(step: string): string {
  switch (step) {
    case 'draft':
      return 'Saved as a draft';
    case 'in_review':
      return 'Submitted for review';
    case 'approved':
      return 'Approved';
    case 'changes_requested':
      return 'Changes requested';
    case 'scheduled':
      return 'Scheduled to publish';
    default:
      return step;
  }
}

/** withStep keeps a draft's fields when a step's answer (a draft without its fields) replaces it. */
export function withStep(current: Draft, answer: Draft): Draft {
  return { ...answer, fields: answer.fields && Object.keys(answer.fields).length > 0 ? answer.fields : current.fields };
}

/** draftLink is where a draft is edited and reviewed: the page editor, else the collection's list with its form open. */
export function draftLink(d: Pick<Draft, 'collection' | 'id'>): string {
  const id = encodeURIComponent(d.id);
  return d.collection === 'pages' ? `/pages/${id}` : `/${d.collection}?edit=${id}`;
}

/** publishAtError checks "Publish at" (a datetime-local value): '' when it is fine, or now is meant. */
export function publishAtError(local: string, now = Date.now()): string {
  if (!local) return '';
  const t = new Date(local).getTime();
  if (Number.isNaN(t)) return 'Enter a date and time.';
  return t <= now ? 'Choose a time in the future, or publish now.' : '';
}

/**
 * AUTOSAVE_MS is how long the editor waits after the last keystroke before it saves the draft
 * on its own.
 */
export const AUTOSAVE_MS = 2000;

/**
 * editorCopyOf is what an editor shows of a workflow record: its draft's fields (with the draft's
 * version) when it has one, else the live record.
 */
export function editorCopyOf(answer: Pick<DraftAnswer, 'draft' | 'live'>, id: string): (Record<string, unknown> & { id: string; version?: number }) | null {
  if (answer.draft) return { ...answer.draft.fields, id, version: answer.draft.version };
  return answer.live ? ({ ...answer.live, id } as Record<string, unknown> & { id: string; version?: number }) : null;
}
