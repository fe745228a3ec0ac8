import type { ApiRecord, CollectionDecl, FieldDecl } from '../../lib/collections';
import { stripHtml } from '../../lib/format';

/** VersionInfo is a kept version of a record as GET …/{id}/versions lists it. */
export interface VersionInfo {
  version: number;
  /** replacedAt, byName and action say when, by whom and how this state was replaced. */
  replacedAt: string;
  by: string;
  byName: string;
  action: 'update' | 'delete' | 'restore' | string;
  changed: string[];
  restoredFrom?: number;
}

/** DiffRow is one field of a comparison between a kept version and the current record. */
export interface DiffRow {
  name: string;
  label: string;
  kept: string;
  current: string;
  changed: boolean;
}

/** comparable are the fields a comparison shows: what the record form edits. */
function comparable(decl: CollectionDecl): FieldDecl[] {
  return decl.fields.filter((f) => f.type !== 'password' && !f.transient);
}

/** asText is a stored value as a person compares it: rich text as its text, yes/no, lists joined. */
export function asText(field: FieldDecl, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (field.type === 'richtext') return stripHtml(String(value)).replace(/\s+/g, ' ').trim();
  if (field.type === 'boolean') return value === true || value === 1 || value === '1' || value === 'true' ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** compareRows lines a kept version up against the current record, field by field. */
export function compareRows(decl: CollectionDecl, kept: ApiRecord, current: ApiRecord): DiffRow[] {
  return comparable(decl).map((f) => {
    const a = asText(f, kept[f.name]);
    const b = asText(f, current[f.name]);
    return { name: f.name, label: f.label, kept: a, current: b, changed: a !== b };
  });
}

/** describe says in words what replaced a version: the fields changed, a restore or a delete. */
export function describe(decl: CollectionDecl, v: VersionInfo): string {
  if (v.action === 'delete') return 'deleted';
  const labels = v.changed.map((name) => decl.fields.find((f) => f.name === name)?.label ?? name);
  const what = labels.length > 0 ? `changed ${labels.join(', ')}` : 'saved without changes';
  return v.action === 'restore' && v.restoredFrom ? `restored version ${v.restoredFrom} (${what})` : what;
}
