import { describe, expect, it } from 'vitest';
import {
  asFindings,
  checksAccessibility,
  editPath,
  fieldLabel,
  findingsSummary,
  groupByRule,
  itemLabel,
  placeFindings,
  sectionField,
  sectionOf,
  type Finding,
  type ReportItem,
} from './a11y';

const f = (rule: string, severity: 'error' | 'warning', field: string, extra: Partial<Finding> = {}): Finding => ({
  rule,
  severity,
  message: `${rule} message`,
  field,
  ...extra,
});

describe('findingsSummary', () => {
  it('says nothing when there is nothing to fix', () => {
    expect(findingsSummary([])).toBe('');
  });
  it('counts errors and warnings, singular and plural', () => {
    expect(findingsSummary([f('img-alt', 'error', 'image'), f('contrast', 'error', 'content'), f('link-text', 'warning', 'content')])).toBe(
      '2 accessibility errors, 1 warning',
    );
    expect(findingsSummary([f('img-alt', 'error', 'image')])).toBe('1 accessibility error');
    expect(findingsSummary([f('link-text', 'warning', 'content'), f('document-link', 'warning', 'content')])).toBe('2 accessibility warnings');
    expect(findingsSummary([f('img-alt', 'error', 'image'), f('a', 'warning', 'x'), f('b', 'warning', 'y')])).toBe('1 accessibility error, 2 warnings');
  });
});

describe('placeFindings', () => {
  const shown = ['title', 'content', 'image'];
  it('puts a finding beside its field, a sub-path beside the field it starts with', () => {
    const p = placeFindings([f('heading-order', 'error', 'content'), f('img-alt', 'error', 'content.img[2]'), f('img-alt', 'error', 'image')], shown);
    expect(p.byField.content.map((x) => x.field)).toEqual(['content', 'content.img[2]']);
    expect(p.byField.image).toHaveLength(1);
    expect(p.other).toEqual([]);
  });
  it('puts section findings in their section, by index or by path', () => {
    const p = placeFindings(
      [f('contrast', 'error', 'sections[3].fontColor', { section: 3 }), f('link-text', 'warning', 'pageSections[1].config[0].description'), f('x', 'error', 'whatever', { section: 0 })],
      shown,
    );
    expect(Object.keys(p.bySection).sort()).toEqual(['0', '1', '3']);
    expect(p.bySection[1][0].rule).toBe('link-text');
    expect(p.byField).toEqual({});
  });
  it('lists findings of fields the form does not show apart, so none is hidden', () => {
    const p = placeFindings([f('broken-link', 'error', 'ogUrl'), f('x', 'error', '')], shown);
    expect(p.other.map((x) => x.rule)).toEqual(['broken-link', 'x']);
  });
  it('lists errors before warnings', () => {
    const p = placeFindings([f('link-text', 'warning', 'content'), f('heading-h1', 'error', 'content')], shown);
    expect(p.byField.content.map((x) => x.severity)).toEqual(['error', 'warning']);
  });
});

describe('section paths', () => {
  it('reads the section index and the path inside it', () => {
    const x = f('img-alt', 'error', 'pageSections[12].config[1].image');
    expect(sectionOf(x)).toBe(12);
    expect(sectionField(x)).toBe('config[1].image');
    expect(itemLabel(sectionField(x))).toBe('Item 2: image');
    expect(itemLabel('title')).toBe('title');
    expect(fieldLabel('sections[1].config[0].image')).toBe('Section 2, Item 1: image');
    expect(fieldLabel('sections[0].fontColor')).toBe('Section 1, fontColor');
    expect(fieldLabel('content')).toBe('content');
    expect(sectionOf(f('a', 'error', 'content'))).toBeNull();
  });
});

describe('asFindings', () => {
  it('keeps well-formed findings and defaults what is missing', () => {
    expect(asFindings([{ rule: 'img-alt', severity: 'warning', message: 'm', field: 'image', context: '' }, { rule: 1 }, null, 'x'])).toEqual([
      { rule: 'img-alt', severity: 'warning', message: 'm', field: 'image', section: undefined, context: undefined },
    ]);
    expect(asFindings({ findings: [] })).toEqual([]);
    // An unknown severity counts as an error: a finding is never played down.
    expect(asFindings([{ rule: 'r', message: 'm', severity: 'fatal' }])[0].severity).toBe('error');
  });
});

describe('groupByRule', () => {
  const items: ReportItem[] = [
    { kind: 'pages', id: 'p1', title: 'About', findings: [f('link-text', 'warning', 'content'), f('img-alt', 'error', 'image'), f('img-alt', 'error', 'content')] },
    { kind: 'events', id: 'e1', title: 'Open day', findings: [f('img-alt', 'error', 'image'), f('zz-new-rule', 'error', 'x')] },
    { kind: 'notices', id: 'n1', title: 'No findings', findings: [] },
  ];
  it('groups every finding under its rule, the known rules in their order, with counts and records', () => {
    const groups = groupByRule(items);
    expect(groups.map((g) => g.rule)).toEqual(['img-alt', 'link-text', 'zz-new-rule']);
    expect(groupByRule([{ kind: 'pages', id: 'p', title: 't', findings: [f('heading-order', 'warning', 'content'), f('contrast', 'error', 'sections[0].fontColor')] }]).map((g) => g.rule)).toEqual(['contrast', 'heading-order']);
    const img = groups[0];
    expect(img.title).toBe('Images without alternative text');
    expect(img.wcag).toContain('1.1.1');
    expect([img.errors, img.warnings]).toEqual([3, 0]);
    expect(img.entries.map((e) => `${e.kind}/${e.id}`)).toEqual(['pages/p1', 'pages/p1', 'events/e1']);
    expect(groups[1].warnings).toBe(1);
    expect(groups[2].title).toBe('zz-new-rule');
  });
  it('has no groups when nothing was found', () => {
    expect(groupByRule([])).toEqual([]);
    expect(groupByRule([{ kind: 'pages', id: 'p', title: 't', findings: [] }])).toEqual([]);
  });
});

describe('editPath', () => {
  it('opens pages in the page editor and other records in their list form', () => {
    expect(editPath('pages', '01H/X')).toBe('/pages/01H%2FX');
    expect(editPath('events', 'e1')).toBe('/events?edit=e1');
  });
});

describe('checksAccessibility', () => {
  it('checks the collections whose records reach the website only', () => {
    expect(checksAccessibility('pages')).toBe(true);
    expect(checksAccessibility('footer')).toBe(true);
    expect(checksAccessibility('users')).toBe(false);
    expect(checksAccessibility('newsletters')).toBe(false);
  });
});

describe('the Accessibility screen in the sidebar', () => {
  it('is under Website Content for users who may edit pages', async () => {
    const { SECTIONS } = await import('../app/navigation');
    const { hasPermission } = await import('./permissions');
    const section = SECTIONS.find((s) => s.links.some((l) => l.path === '/accessibility'));
    expect(section?.section).toBe('Website Content');
    const link = section!.links.find((l) => l.path === '/accessibility')!;
    expect(link.screen).toBe('accessibility');
    const user = (permissions: string[]) => ({ id: 'u', username: 'u', isAdmin: false, permissions }) as never;
    expect(hasPermission(user(['CMS_EDIT_PAGE']), link.permission)).toBe(true);
    expect(hasPermission(user(['CMS_VIEW_PAGE']), link.permission)).toBe(false);
  });
});
