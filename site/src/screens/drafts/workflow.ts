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
