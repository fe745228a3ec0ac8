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
