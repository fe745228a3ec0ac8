import { compareRows, type DiffRow } from '../../components/history/history';
import type { ApiRecord, CollectionDecl } from '../../lib/collections';

/** sectionsText is a page's sections as a reviewer compares them: each one's title and its items' titles, in order. */
export function sectionsText(value: unknown): string {
  if (!Array.isArray(value)) return '';
  return value
    .map((s: Record<string, unknown>) => {
      let items: Array<Record<string, unknown>> = [];
      try {
        const parsed: unknown = typeof s.config === 'string' ? JSON.parse(s.config) : s.config;
        if (Array.isArray(parsed)) items = parsed as Array<Record<string, unknown>>;
      } catch {
        items = [];
      }
      const inner = items.map((it) => String(it.title ?? '')).filter(Boolean);
      return `${String(s.title ?? '')}${inner.length ? ` (${inner.join(', ')})` : ''}`;
    })
    .join(' · ');
}

/**
 * draftCompareRows lines the live record up against its draft field by field (the history's
 * compare); a page's sections are one row. A new record's draft compares with nothing.
 */
export function draftCompareRows(decl: CollectionDecl, live: Record<string, unknown> | null, fields: Record<string, unknown>): DiffRow[] {
  const rows = compareRows(decl, (live ?? { id: '' }) as ApiRecord, { id: '', ...fields } as ApiRecord);
  if (decl.fields.some((f) => f.name === 'pageSections')) {
    const kept = sectionsText(live?.pageSections);
    const current = sectionsText(fields.pageSections);
    rows.push({ name: 'pageSections', label: 'Sections', kept, current, changed: kept !== current });
  }
  return rows;
}
