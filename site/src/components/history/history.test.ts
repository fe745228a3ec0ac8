import { describe as group, expect, it } from 'vitest';
import type { CollectionDecl } from '../../lib/collections';
import { asText, compareRows, describe } from './history';

const decl: CollectionDecl = {
  key: 'albums',
  title: 'Album',
  titlePlural: 'Albums',
  category: 'ALBUM',
  nameField: 'title',
  fields: [
    { name: 'title', label: 'Title', type: 'text' },
    { name: 'description', label: 'Description', type: 'richtext' },
    { name: 'status', label: 'Status', type: 'boolean' },
    { name: 'password', label: 'Password', type: 'password' },
    { name: 'sections', label: 'Sections', type: 'json', transient: true },
  ],
};

group('compareRows', () => {
  it('compares rich text as text, booleans as yes/no, and leaves passwords and transient fields out', () => {
    const rows = compareRows(
      decl,
      { id: '1', title: 'Open day', description: '<p>Come <strong>early</strong></p>', status: true, password: 'x' },
      { id: '1', title: 'Open day', description: '<p>Come <em>early</em></p>', status: false },
    );
    expect(rows.map((r) => r.name)).toEqual(['title', 'description', 'status']);
    expect(rows[0].changed).toBe(false);
    expect(rows[1]).toMatchObject({ kept: 'Come early', current: 'Come early', changed: false });
    expect(rows[2]).toMatchObject({ kept: 'Yes', current: 'No', changed: true });
  });

  it('shows a missing value as empty', () => {
    expect(asText(decl.fields[0], undefined)).toBe('');
    expect(compareRows(decl, { id: '1', title: 'A' }, { id: '1' })[0]).toMatchObject({ kept: 'A', current: '', changed: true });
  });
});

group('describe', () => {
  it('names the changed fields by label, restores and deletes', () => {
    const base = { version: 2, replacedAt: '2026-11-23T10:00:00Z', by: 'u', byName: 'admin', changed: ['title', 'status'] };
    expect(describe(decl, { ...base, action: 'update' })).toBe('changed Title, Status');
    expect(describe(decl, { ...base, action: 'restore', restoredFrom: 1 })).toBe('restored version 1 (changed Title, Status)');
    expect(describe(decl, { ...base, action: 'delete', changed: [] })).toBe('deleted');
    expect(describe(decl, { ...base, action: 'update', changed: [] })).toBe('saved without changes');
  });
});
