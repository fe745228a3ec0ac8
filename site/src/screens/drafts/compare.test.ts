import { describe, expect, it } from 'vitest';
import { collectionFor } from '../../lib/collections';
import { draftCompareRows, sectionsText } from './compare';

const pages = collectionFor('pages')!;

describe('the draft compare', () => {
  it('shows a page field by field, sections as one row', () => {
    const live = { id: 'p1', title: 'Admissions', content: '<p>Old text</p>', pageSections: [{ title: 'Banner', config: '[{"title":"Apply"}]' }] };
    const draft = { title: 'Admissions', content: '<p>New text</p>', pageSections: [{ title: 'Banner', config: '[{"title":"Apply now"}]' }] };
    const rows = draftCompareRows(pages, live, draft);
    const by = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(by.title.changed).toBe(false);
    expect(by.content).toMatchObject({ kept: 'Old text', current: 'New text', changed: true });
    expect(by.pageSections).toMatchObject({ label: 'Sections', kept: 'Banner (Apply)', current: 'Banner (Apply now)', changed: true });
    expect(rows.filter((r) => r.changed).map((r) => r.name)).toEqual(['content', 'pageSections']);
  });

  it('compares a new record with nothing', () => {
    const rows = draftCompareRows(collectionFor('events')!, null, { title: 'Open day' });
    expect(rows.find((r) => r.name === 'title')).toMatchObject({ kept: '', current: 'Open day', changed: true });
    expect(rows.some((r) => r.name === 'pageSections')).toBe(false);
  });

  it('reads sections whatever their config holds', () => {
    expect(sectionsText(undefined)).toBe('');
    expect(sectionsText([{ title: 'A', config: 'not json' }, { title: 'B' }])).toBe('A · B');
  });
});
