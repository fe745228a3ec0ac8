import { describe, expect, it } from 'vitest';
import { draftActions, requestChangesError, stateLabel, type Draft, type Rights } from './workflow';

const draft = (state: Draft['state'], authorId = 'author'): Draft => ({
  id: 'p1',
  collection: 'pages',
  version: 3,
  state,
  fields: {},
  authorId,
});

const author: Rights = { canEdit: true, canPublish: false, requireReview: true, userId: 'author' };
const editor: Rights = { canEdit: true, canPublish: true, requireReview: true, userId: 'editor' };

describe('drafts workflow', () => {
  it('labels every state', () => {
    expect(stateLabel('draft')).toBe('Draft');
    expect(stateLabel('in_review')).toBe('In review');
    expect(stateLabel('approved')).toBe('Approved');
    expect(stateLabel('changes_requested')).toBe('Changes requested');
  });

  it('gives no buttons without a draft', () => {
    expect(draftActions(null, editor)).toEqual([]);
  });

  it('lets an author submit and discard but not publish while review is required', () => {
    expect(draftActions(draft('draft'), author)).toEqual(['submit', 'discard']);
    expect(draftActions(draft('changes_requested'), author)).toEqual(['submit', 'discard']);
    expect(draftActions(draft('in_review'), author)).toEqual(['discard']);
  });

  it('lets an author publish when review is off', () => {
    expect(draftActions(draft('draft'), { ...author, requireReview: false })).toEqual(['submit', 'publish', 'discard']);
  });

  it('lets an editor approve, request changes and publish a draft in review', () => {
    expect(draftActions(draft('in_review'), editor)).toEqual(['approve', 'requestChanges', 'publish', 'discard']);
    expect(draftActions(draft('approved'), editor)).toEqual(['requestChanges', 'publish', 'discard']);
  });

  it('does not let an editor approve their own draft while review is required', () => {
    expect(draftActions(draft('in_review', 'editor'), editor)).toEqual(['requestChanges', 'publish', 'discard']);
    expect(draftActions(draft('in_review', 'editor'), { ...editor, requireReview: false })).toContain('approve');
  });

  it('requires a comment to request changes', () => {
    expect(requestChangesError('  ')).not.toBe('');
    expect(requestChangesError('Fix the date')).toBe('');
  });
});

import { draftsPath } from '../../api/drafts';

describe('drafts list address', () => {
  it('asks for the drafts in review of a collection', () => {
    expect(draftsPath({ state: 'in_review' })).toBe('/drafts?state=in_review');
    expect(draftsPath({ collection: 'pages' })).toBe('/drafts?collection=pages');
    expect(draftsPath({})).toBe('/drafts');
  });
});

import { holdsPublishRight } from './workflow';

describe('the review card', () => {
  it('shows to admins and holders of a publish right only', () => {
    expect(holdsPublishRight({ isAdmin: true })).toBe(true);
    expect(holdsPublishRight({ permissions: ['CMS_VIEW_PAGE', 'CMS_PUBLISH_PAGE'] })).toBe(true);
    expect(holdsPublishRight({ permissions: ['CMS_VIEW_PAGE', 'CMS_EDIT_PAGE'] })).toBe(false);
    expect(holdsPublishRight(null)).toBe(false);
  });
});

import { draftLink, editorCopyOf, editsDraft, publishAtError, rightsFor, stepLabel, withStep } from './workflow';

describe('editing a workflow record', () => {
  const d = draft('draft');
  it('saves to the draft once there is one, and always for a user without the publish right', () => {
    expect(editsDraft(null, false)).toBe(false);
    expect(editsDraft({ draft: null }, true)).toBe(false);
    expect(editsDraft({ draft: null }, false)).toBe(true);
    expect(editsDraft({ draft: d }, true)).toBe(true);
  });

  it('reads rights from the user and the server, counting review as required until known', () => {
    const author = { id: 'a', permissions: ['CMS_VIEW_PAGE', 'CMS_EDIT_PAGE'] };
    expect(rightsFor(author, 'PAGE', null)).toEqual({ canEdit: true, canPublish: false, requireReview: true, userId: 'a' });
    expect(rightsFor(author, 'PAGE', { requireReview: false }).requireReview).toBe(false);
    expect(rightsFor({ id: 'x', isAdmin: true }, 'EVENT', null)).toMatchObject({ canEdit: true, canPublish: true });
    expect(rightsFor(null, 'PAGE', null)).toMatchObject({ canEdit: false, canPublish: false });
  });

  it('shows the draft in the editor when there is one, else the live record', () => {
    const live = { id: 'p1', title: 'Live', version: 7 };
    expect(editorCopyOf({ draft: null, live }, 'p1')).toEqual(live);
    expect(editorCopyOf({ draft: { ...d, fields: { title: 'Draft' } }, live }, 'p1')).toEqual({ title: 'Draft', id: 'p1', version: 3 });
    expect(editorCopyOf({ draft: null, live: null }, 'p1')).toBeNull();
  });

  it('keeps the fields when a step answers without them', () => {
    const full = { ...d, fields: { title: 'Kept' } };
    expect(withStep(full, { ...d, state: 'in_review', version: 4, fields: undefined as unknown as Record<string, unknown> })).toMatchObject({
      state: 'in_review',
      version: 4,
      fields: { title: 'Kept' },
    });
  });

  it('names steps, links drafts and checks the publishing time', () => {
    expect(stepLabel('in_review')).toBe('Submitted for review');
    expect(stepLabel('changes_requested')).toBe('Changes requested');
    expect(draftLink({ collection: 'pages', id: 'P 1' })).toBe('/pages/P%201');
    expect(draftLink({ collection: 'events', id: 'E1' })).toBe('/events?edit=E1');
    const now = new Date('2030-01-01T12:00').getTime();
    expect(publishAtError('', now)).toBe('');
    expect(publishAtError('2030-01-01T11:00', now)).not.toBe('');
    expect(publishAtError('2030-01-02T11:00', now)).toBe('');
  });
});
