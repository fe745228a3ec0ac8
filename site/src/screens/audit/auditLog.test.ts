import { describe, expect, it } from 'vitest';
import { keys } from '../../api/dataProvider';
import { EMPTY_FILTER, what, type AuditEntry } from './auditLog';

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: '1',
  at: '2026-11-23T10:00:00Z',
  userId: 'u',
  username: 'admin',
  action: 'update',
  collection: 'faqs',
  recordId: '01ABC',
  changed: ['answer'],
  address: '127.0.0.1',
  userAgent: 'x',
  ...over,
});

describe('what', () => {
  it('names the action, the thing by its title and the changed fields by label', () => {
    expect(what(entry({}))).toBe('Edited FAQ 01ABC (Answer)');
    expect(what(entry({ action: 'delete', changed: null }))).toBe('Deleted FAQ 01ABC');
    expect(what(entry({ action: 'login', collection: '', recordId: '', changed: null }))).toBe('Signed in');
    expect(what(entry({ action: 'restore', collection: 'menu', changed: ['menuItems'] }))).toBe('Restored the menu (menuItems)');
    expect(what(entry({ action: 'purge', collection: 'media', recordId: '01XYZ', changed: null }))).toBe('Deleted forever media file 01XYZ');
    expect(what(entry({ action: 'create', collection: 'tenant', recordId: 'acme', changed: null }))).toBe('Created the institution');
  });
});

describe('the steps of a draft', () => {
  it('says each step in words', () => {
    expect(what(entry({ action: 'draft-submit', collection: 'pages', changed: null }))).toBe('Submitted for review Page 01ABC');
    expect(what(entry({ action: 'draft-request-changes', collection: 'pages', changed: null }))).toBe('Requested changes to Page 01ABC');
    expect(what(entry({ action: 'draft-publish', collection: 'pages', changed: ['content'] }))).toBe('Published Page 01ABC (Content)');
  });
});

describe('the filter as a query', () => {
  it('sends only the fields that are set', () => {
    expect(keys.list('audit-log/export', { filter: { ...EMPTY_FILTER } })).toBe('/audit-log/export');
    expect(keys.list('audit-log', { limit: 50, filter: { ...EMPTY_FILTER, action: 'login', from: '2026-11-01' }, cursor: 'abc' })).toBe(
      '/audit-log?limit=50&action=login&from=2026-11-01&cursor=abc',
    );
  });
});
