/**
 * The accessibility checker's findings (issue 37) as the panel shows them: the server checks
 * (POST /accessibility-check, a save's 422, GET /accessibility-report); these pure rules place
 * each finding beside its field or section, count them for the Save bar and group the report.
 */

import { collectionFor } from './collections';

export type Severity = 'error' | 'warning';

/** Finding is one problem the checker found in a record's content. */
export interface Finding {
  rule: string;
  severity: Severity;
  /** message says in plain language what is wrong and how to fix it. */
  message: string;
  /** field is the field's name, or a section's path ("pageSections[3].content"). */
  field: string;
  /** section is the index of the page section the finding is in, when it is in one. */
  section?: number;
  /** context is the text around the problem. */
  context?: string;
}

/** RULES names each rule and the WCAG 2.1 success criterion it checks. */
export const RULES: Record<string, { title: string; wcag: string }> = {
  // In the order the server's report groups them (shared/a11ycheck Rules).
  'img-alt': { title: 'Images without alternative text', wcag: '1.1.1 Non-text Content' },
  'empty-link': { title: 'Empty links and buttons', wcag: '2.4.4 Link Purpose, 4.1.2 Name, Role, Value' },
  'broken-link': { title: 'Links to pages that do not exist or are not published', wcag: '2.4.4 Link Purpose (In Context)' },
  contrast: { title: 'Text colour with too little contrast', wcag: '1.4.3 Contrast (Minimum)' },
  'table-header': { title: 'Tables without a header row', wcag: '1.3.1 Info and Relationships' },
  'heading-h1': { title: 'Level 1 headings inside content', wcag: '1.3.1 Info and Relationships, 2.4.6 Headings and Labels' },
  'heading-order': { title: 'Headings that skip a level', wcag: '1.3.1 Info and Relationships' },
  'link-text': { title: 'Links whose text says nothing on its own', wcag: '2.4.4 Link Purpose (In Context)' },
  'document-link': { title: 'Document links without a note on their accessibility', wcag: '2.4.4 Link Purpose (In Context)' },
};

/** ruleTitle is a rule's name for people; an unknown rule shows its id. */
export function ruleTitle(rule: string): string {
  return RULES[rule]?.title ?? rule;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** countFindings counts errors and warnings. */
export function countFindings(findings: readonly Finding[]): { errors: number; warnings: number } {
  let errors = 0;
  for (const f of findings) if (f.severity === 'error') errors++;
  return { errors, warnings: findings.length - errors };
}

/** findingsSummary is the Save bar's count: "2 accessibility errors, 1 warning"; "" when there are none. */
export function findingsSummary(findings: readonly Finding[]): string {
  const { errors, warnings } = countFindings(findings);
  if (errors === 0 && warnings === 0) return '';
  if (errors === 0) return `${plural(warnings, 'accessibility warning')}`;
  if (warnings === 0) return plural(errors, 'accessibility error');
  return `${plural(errors, 'accessibility error')}, ${plural(warnings, 'warning')}`;
}

const SECTION_PATH = /^(?:pageSections|sections)\[(\d+)\](?:\.(.*))?$/;

/** sectionOf is the index of the section a finding belongs to (its `section`, else its field's path), or null. */
export function sectionOf(f: Finding): number | null {
  if (typeof f.section === 'number' && f.section >= 0) return f.section;
  const m = SECTION_PATH.exec(f.field ?? '');
  return m ? Number(m[1]) : null;
}

/** sectionField is the part of a section finding's path after the section ("config[0].description"). */
export function sectionField(f: Finding): string {
  return SECTION_PATH.exec(f.field ?? '')?.[2] ?? '';
}

/** itemLabel says where inside a section a finding is, for people: "Item 2: description". */
export function itemLabel(path: string): string {
  const m = /^(?:config|items)\[(\d+)\]\.(.+)$/.exec(path);
  if (m) return `Item ${Number(m[1]) + 1}: ${m[2]}`;
  return path;
}

/** fieldLabel says where a finding is, for people: "content", "Section 2, Item 1: image". */
export function fieldLabel(field: string): string {
  const m = SECTION_PATH.exec(field);
  if (!m) return field;
  const rest = m[2] ? `, ${itemLabel(m[2])}` : '';
  return `Section ${Number(m[1]) + 1}${rest}`;
}

/** PlacedFindings are findings sorted to where the editor shows them. */
export interface PlacedFindings {
  /** byField: findings of the record's own fields, by field name. */
  byField: Record<string, Finding[]>;
  /** bySection: findings inside page sections, by section index. */
  bySection: Record<number, Finding[]>;
  /** other: findings of no field the form shows (listed beside the Save bar). */
  other: Finding[];
}

/**
 * placeFindings sorts findings to the fields and sections they belong to. A field path with a
 * sub-path ("content.items[2]") belongs to its first segment; fields the form does not show go to
 * other, so nothing found is hidden. Errors come before warnings everywhere.
 */
export function placeFindings(findings: readonly Finding[], shown: Iterable<string>): PlacedFindings {
  const known = new Set(shown);
  const out: PlacedFindings = { byField: {}, bySection: {}, other: [] };
  const sorted = [...findings].sort((a, b) => severityRank(a) - severityRank(b));
  for (const f of sorted) {
    const section = sectionOf(f);
    if (section !== null) {
      (out.bySection[section] ??= []).push(f);
      continue;
    }
    const name = /^[^.[]*/.exec(f.field ?? '')?.[0] ?? '';
    if (name && known.has(name)) (out.byField[name] ??= []).push(f);
    else out.other.push(f);
  }
  return out;
}

function severityRank(f: Finding): number {
  return f.severity === 'error' ? 0 : 1;
}

/** asFindings reads a findings list from an API body, keeping only well-formed entries. */
export function asFindings(value: unknown): Finding[] {
  if (!Array.isArray(value)) return [];
  const out: Finding[] = [];
  for (const v of value) {
    if (!v || typeof v !== 'object') continue;
    const o = v as Record<string, unknown>;
    if (typeof o.rule !== 'string' || typeof o.message !== 'string') continue;
    out.push({
      rule: o.rule,
      severity: o.severity === 'warning' ? 'warning' : 'error',
      message: o.message,
      field: typeof o.field === 'string' ? o.field : '',
      section: typeof o.section === 'number' ? o.section : undefined,
      context: typeof o.context === 'string' && o.context ? o.context : undefined,
    });
  }
  return out;
}

/** ReportItem is one published record with findings (GET /accessibility-report). */
export interface ReportItem {
  kind: string;
  id: string;
  title: string;
  findings: Finding[];
}

/** ReportEntry is one finding of one record, as the report lists it under its rule. */
export interface ReportEntry {
  kind: string;
  id: string;
  title: string;
  finding: Finding;
}

export interface RuleGroup {
  rule: string;
  title: string;
  wcag: string;
  errors: number;
  warnings: number;
  entries: ReportEntry[];
}

const RULE_ORDER = Object.keys(RULES);

/**
 * groupByRule turns the report's records into one group per rule (the known rules in their
 * order, then any other by id), each listing every finding with its record.
 */
export function groupByRule(items: readonly ReportItem[]): RuleGroup[] {
  const groups = new Map<string, RuleGroup>();
  for (const item of items) {
    for (const finding of item.findings ?? []) {
      let g = groups.get(finding.rule);
      if (!g) {
        g = { rule: finding.rule, title: ruleTitle(finding.rule), wcag: RULES[finding.rule]?.wcag ?? '', errors: 0, warnings: 0, entries: [] };
        groups.set(finding.rule, g);
      }
      if (finding.severity === 'warning') g.warnings++;
      else g.errors++;
      g.entries.push({ kind: item.kind, id: item.id, title: item.title, finding });
    }
  }
  const rank = (rule: string) => {
    const i = RULE_ORDER.indexOf(rule);
    return i < 0 ? RULE_ORDER.length : i;
  };
  return [...groups.values()].sort((a, b) => rank(a.rule) - rank(b.rule) || a.rule.localeCompare(b.rule));
}

/**
 * editPath is where a record of the report is fixed: the page editor for pages, else its
 * collection's list, which opens the record's form from ?edit={id}.
 */
export function editPath(kind: string, id: string): string {
  const enc = encodeURIComponent(id);
  if (kind === 'pages') return `/pages/${enc}`;
  return `/${kind}?edit=${enc}`;
}

/**
 * checksAccessibility says whether the editor asks the checker about a collection's records: those
 * declared "onSite" in collections.json, the ones the server checks.
 */
export function checksAccessibility(collection: string): boolean {
  return collectionFor(collection)?.onSite === true;
}

/** CHECK_DELAY is how long the editor waits after the last keystroke before asking the checker. */
export const CHECK_DELAY = 600;
