/**
 * The collection declarations (shared/collections/collections.json, also read by the Go
 * handlers) and the pure rules of the generic list/CRUD screen built from them (SPEC §2, §5).
 */
import decls from '../../../shared/collections/collections.json';
import type { User } from '../api/types';
import { hasPermission } from './permissions';
import { toBool } from './format';
import { fromLocalInput, toLocalInput } from './schedule';

export type FieldType =
  | 'text'
  | 'longtext'
  | 'richtext'
  | 'number'
  | 'date'
  | 'datetime'
  | 'boolean'
  | 'select'
  | 'reference'
  | 'image'
  | 'file'
  | 'email'
  | 'emails'
  | 'url'
  | 'password'
  | 'permissions'
  | 'json'
  | 'color'
  | 'languages';

export interface FieldDecl {
  name: string;
  label: string;
  type: FieldType;
  required?: boolean;
  list?: boolean;
  options?: string[];
  ref?: string;
  default?: unknown;
  format?: string;
  /** Stored size cap after sanitising (richtext, json). */
  maxBytes?: number;
  /** Handled by the collection's own screen and hooks; never in the generic form. */
  transient?: boolean;
  /** Shown by GET one only; lists leave it out. */
  detailOnly?: boolean;
  /** A datetime that must be later than this other datetime field (unpublishAt after publishAt). */
  after?: string;
  /** Worked out by the server on every write (the schedule state): shown, never edited or sent. */
  derived?: boolean;
  /** A derived size in bytes of the media file this image or file field names (read-only in the form). */
  sizeOf?: string;
  /** A permissions field shown as holding every permission while this boolean field is true (an administrator). */
  allWhen?: string;
  /** Held in every language of the site: a record's translations[lang][name] (issue 35). */
  translatable?: boolean;
  /** A select's option shown by this label (the option is what is sent). */
  optionLabels?: Record<string, string>;
}

export interface CollectionDecl {
  key: string;
  title: string;
  titlePlural: string;
  category: string;
  nameField: string;
  defaultSort?: string;
  /** The sort key of a one-per-tenant record (header, footer, settings), served at GET/PATCH /{key}. */
  singleton?: string;
  /** The success toast of a singleton save (SPEC §8). */
  savedMessage?: string;
  /** The fallback toast of a failed singleton save when the server sends no message (SPEC §8). */
  failedMessage?: string;
  /** Declares publishAt / unpublishAt and the derived schedule state (Scheduled / Live / Expired). */
  scheduled?: boolean;
  /** Keeps a draft beside each live record, reviewed and published (shared/collections/workflow.go). */
  workflow?: boolean;
  /** Shown on the website: the accessibility checker reads its records as staff type and save. */
  onSite?: boolean;
  fields: FieldDecl[];
}

type RawDecl = Omit<CollectionDecl, 'key' | 'fields'> & { fields: Array<Omit<FieldDecl, 'type'> & { type: string }> };

/** COLLECTIONS holds every declared collection by key (its API path segment). */
export const COLLECTIONS: Record<string, CollectionDecl> = Object.fromEntries(
  Object.entries(decls as unknown as Record<string, RawDecl>).map(([key, d]) => [
    key,
    { ...d, key, fields: d.fields as FieldDecl[] },
  ]),
);

export function collectionFor(key: string): CollectionDecl | undefined {
  return COLLECTIONS[key];
}

/** ApiRecord is a stored record: id, version, times and the declared fields. */
export type ApiRecord = Record<string, unknown> & { id: string; version?: number };

export type Action = 'VIEW' | 'CREATE' | 'EDIT' | 'DELETE';

/** can says whether the user may perform action on the collection (CMS_{ACTION}_{CATEGORY}). */
export function can(user: User | null | undefined, decl: Pick<CollectionDecl, 'category'>, action: Action): boolean {
  return hasPermission(user, `CMS_${action}_${decl.category}`);
}

/** listHeading is 'Create {title}' for an empty list, else '{n} {title} Created' (plural unless n is 1). */
export function listHeading(decl: Pick<CollectionDecl, 'title' | 'titlePlural'>, total: number): string {
  if (total <= 0) return `Create ${decl.title}`;
  return `${total} ${total === 1 ? decl.title : decl.titlePlural} Created`;
}

/** isStatusField: the record status, shown as an Active/Inactive badge and an Enable/Disabled switch. */
export function isStatusField(f: FieldDecl): boolean {
  return f.name === 'status' && f.type === 'boolean';
}

/** listColumns are the fields shown as table columns. */
export function listColumns(decl: CollectionDecl): FieldDecl[] {
  return decl.fields.filter((f) => f.list && f.type !== 'password' && f.type !== 'permissions');
}

export type FormValues = Record<string, unknown>;

function emptyValue(f: FieldDecl): unknown {
  switch (f.type) {
    case 'boolean':
      return f.default === undefined ? false : toBool(f.default);
    case 'permissions':
    case 'languages':
      return Array.isArray(f.default) ? f.default : [];
    case 'number':
      return f.default === undefined || f.default === null ? '' : String(f.default);
    default:
      return f.default === undefined || f.default === null ? '' : String(f.default);
  }
}

/** formValue converts a record's stored value into the form's editing value for a field. */
function formValue(f: FieldDecl, value: unknown): unknown {
  if (value === undefined || value === null) return f.type === 'boolean' ? false : emptyValue({ ...f, default: undefined });
  switch (f.type) {
    case 'boolean':
      return toBool(value);
    case 'permissions':
    case 'languages':
      return Array.isArray(value) ? value.map(String) : [];
    case 'password':
      return '';
    case 'date':
      return String(value).slice(0, 10);
    case 'datetime':
      return toLocalInput(value);
    case 'json':
      return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
    case 'emails':
      // Stored as a list; edited as text, one address a line (the server takes commas too).
      return Array.isArray(value) ? value.map(String).join('\n') : String(value);
    default:
      return String(value);
  }
}

/** initialValues are the form's starting values: declared defaults for create, the record's for edit. */
export function initialValues(decl: CollectionDecl, record?: ApiRecord | null): FormValues {
  const out: FormValues = {};
  for (const f of decl.fields) out[f.name] = record ? formValue(f, record[f.name]) : emptyValue(f);
  return out;
}

/** isBlank says whether a form value counts as empty for a required check. */
export function isBlank(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

export type FieldErrors = Record<string, string>;

/** requiredLabel is what the form shows: the label with '*' when required. */
export function requiredLabel(f: FieldDecl): string {
  return f.required ? `${f.label}*` : f.label;
}

/**
 * validateRequired gives '{label} is required!' for each empty required field (SPEC §5).
 * Booleans always have a value; a password may stay empty on edit (it keeps the old one).
 */
export function validateRequired(decl: CollectionDecl, values: FormValues, mode: 'create' | 'edit'): FieldErrors {
  const errors: FieldErrors = {};
  for (const f of decl.fields) {
    if (!f.required || f.type === 'boolean') continue;
    if (f.type === 'password' && mode === 'edit') continue;
    if (isBlank(values[f.name])) errors[f.name] = `${f.label} is required!`;
  }
  return errors;
}

/** validateFormats checks what the browser can check beyond required: numbers and JSON text. */
export function validateFormats(decl: CollectionDecl, values: FormValues): FieldErrors {
  const errors: FieldErrors = {};
  for (const f of decl.fields) {
    const v = values[f.name];
    if (typeof v !== 'string' || v.trim() === '') continue;
    if (f.type === 'number' && !Number.isFinite(Number(v))) errors[f.name] = `${f.label} must be a number!`;
    if (f.type === 'json') {
      try {
        JSON.parse(v);
      } catch {
        errors[f.name] = `${f.label} must be valid JSON!`;
      }
    }
    if (f.type === 'datetime' && f.after) {
      const self = fromLocalInput(v);
      const other = fromLocalInput(values[f.after]);
      const before = decl.fields.find((x) => x.name === f.after);
      if (self && other && Date.parse(self) <= Date.parse(other)) errors[f.name] = `${f.label} must be after ${before?.label ?? f.after}.`;
    }
  }
  return errors;
}

/**
 * toPayload builds the JSON body of a create or update from the form values: numbers as
 * numbers (null when cleared), booleans as booleans, an empty password left out (it keeps the
 * old one). The version an update names is the data provider's to add.
 */
export function toPayload(decl: CollectionDecl, values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of decl.fields) {
    if (f.derived) continue; // the server works it out
    const v = values[f.name];
    switch (f.type) {
      case 'boolean':
        body[f.name] = toBool(v);
        break;
      case 'datetime':
        body[f.name] = fromLocalInput(v);
        break;
      case 'number': {
        const s = typeof v === 'string' ? v.trim() : v;
        body[f.name] = s === '' || s === undefined || s === null ? null : Number(s);
        break;
      }
      case 'password':
        if (typeof v === 'string' && v !== '') body[f.name] = v;
        break;
      case 'permissions':
      case 'languages':
        body[f.name] = Array.isArray(v) ? v : [];
        break;
      default:
        body[f.name] = typeof v === 'string' ? v.trim() : (v ?? '');
    }
  }
  return body;
}

/** recordName is the record's display name: its nameField, else title/name/label, else id. */
export function recordName(decl: Pick<CollectionDecl, 'nameField'> | undefined, record: Record<string, unknown>): string {
  for (const k of [decl?.nameField, 'title', 'name', 'label']) {
    const v = k ? record[k] : undefined;
    if (typeof v === 'string' && v) return v;
  }
  return String(record.id ?? '');
}

export type SortOrder = 'asc' | 'desc';
export interface SortState {
  field: string;
  order: SortOrder;
}

/** nextSort: clicking the sorted column toggles its order; another column starts ascending. */
export function nextSort(current: SortState | null, field: string): SortState {
  if (current && current.field === field) return { field, order: current.order === 'asc' ? 'desc' : 'asc' };
  return { field, order: 'asc' };
}
