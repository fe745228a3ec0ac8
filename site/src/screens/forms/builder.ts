/**
 * The form builder's rules (SPEC §3 field types, §4 transitions), as pure functions over the
 * field list: the screen only applies what these return, never mutating in place.
 */

export type FieldType = 'text' | 'textarea' | 'date' | 'file' | 'select' | 'radio' | 'checkbox' | 'email';

export interface FormOption {
  id: string;
  name: string;
}

export interface FormField {
  id: string;
  label: string;
  fieldType: FieldType;
  required: boolean;
  hint: string;
  options: FormOption[];
}

/** FIELD_TYPES in SPEC §3's order, with the label the builder shows and whether it has options. */
export const FIELD_TYPES: { type: FieldType; label: string; options: boolean }[] = [
  { type: 'text', label: 'Short Text', options: false },
  { type: 'textarea', label: 'Large Text', options: false },
  { type: 'date', label: 'date', options: false },
  { type: 'file', label: 'File Upload', options: false },
  { type: 'select', label: 'Dropdown', options: true },
  { type: 'radio', label: 'Multiple Choice', options: true },
  { type: 'checkbox', label: 'Checkboxes', options: true },
  // The first email field is the submitter's address: Reply-To of the notifications, and where
  // the auto-reply goes.
  { type: 'email', label: 'Email', options: false },
];

/** MAX_FIELDS matches the server's limit. */
export const MAX_FIELDS = 100;
/** SPEC §9: option dropdown suggestions are limited to 6. */
export const MAX_SUGGESTIONS = 6;

export const hasOptions = (t: FieldType): boolean => FIELD_TYPES.find((f) => f.type === t)?.options ?? false;

let seq = 0;
/** newId is a temporary id; the server replaces every NEW_ id with a permanent one on save. */
export const newId = (): string => `NEW_${Date.now().toString(36)}_${++seq}`;

export const newOption = (name = ''): FormOption => ({ id: newId(), name });

export const newField = (): FormField => ({ id: newId(), label: '', fieldType: 'text', required: false, hint: '', options: [] });

/**
 * changeField applies a change to one field under SPEC §4's rules: options with an empty name are
 * dropped; a type without options clears them; a type with options gets one blank option if it
 * has none (added after the drop, so it survives for the user to fill in).
 */
export function changeField(field: FormField, patch: Partial<Omit<FormField, 'id'>>): FormField {
  const next: FormField = { ...field, ...patch };
  const keepBlank = patch.options !== undefined; // editing the options themselves keeps blanks being typed
  let options = keepBlank ? next.options : next.options.filter((o) => o.name.trim() !== '');
  if (!hasOptions(next.fieldType)) options = [];
  else if (options.length === 0) options = [newOption()];
  return { ...next, options };
}

/** replaceField returns the list with field id replaced by the changed field. */
export const replaceField = (fields: FormField[], id: string, patch: Partial<Omit<FormField, 'id'>>): FormField[] =>
  fields.map((f) => (f.id === id ? changeField(f, patch) : f));

export const removeField = (fields: FormField[], id: string): FormField[] => fields.filter((f) => f.id !== id);

/** moveField returns the list with the item at from moved to to (dnd-kit's arrayMove, kept pure). */
export function moveField<T>(list: T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return list;
  const out = list.slice();
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
}

/** parseFields reads the form's fields text from the API; anything malformed is no fields. */
export function parseFields(text: unknown): FormField[] {
  if (typeof text !== 'string' || !text.trim()) return [];
  try {
    const raw: unknown = JSON.parse(text);
    if (!Array.isArray(raw)) return [];
    return raw.map((f: Record<string, unknown>) => ({
      id: String(f.id ?? newId()),
      label: String(f.label ?? ''),
      fieldType: (FIELD_TYPES.some((t) => t.type === f.fieldType) ? f.fieldType : 'text') as FieldType,
      required: f.required === true,
      hint: typeof f.hint === 'string' ? f.hint : '',
      options: Array.isArray(f.options) ? f.options.map((o: Record<string, unknown>) => ({ id: String(o.id ?? newId()), name: String(o.name ?? '') })) : [],
    }));
  } catch {
    return [];
  }
}

/** fieldsText is the JSON text the API stores, with blank options dropped as on any change. */
export function fieldsText(fields: FormField[]): string {
  return JSON.stringify(
    fields.map((f) => ({
      id: f.id,
      label: f.label.trim(),
      fieldType: f.fieldType,
      required: f.required,
      hint: f.hint.trim(),
      ...(hasOptions(f.fieldType) ? { options: f.options.filter((o) => o.name.trim() !== '') } : {}),
    })),
  );
}

/** COMMON_OPTIONS seed the suggestions for option names, beside the form's own. */
const COMMON_OPTIONS = ['Yes', 'No', 'Maybe', 'Male', 'Female', 'Other', 'Morning', 'Afternoon', 'Evening', 'Weekdays', 'Weekends'];

/**
 * optionSuggestions proposes option names for what is being typed: names used elsewhere in the
 * form first, then common ones, starting with the input (case-insensitive), never one the field
 * already has, at most 6 (SPEC §9).
 */
export function optionSuggestions(input: string, fields: FormField[], current: FormField): string[] {
  const taken = new Set(current.options.map((o) => o.name.trim().toLowerCase()));
  const q = input.trim().toLowerCase();
  const pool = [...fields.flatMap((f) => f.options.map((o) => o.name.trim())), ...COMMON_OPTIONS];
  const out: string[] = [];
  for (const name of pool) {
    const key = name.toLowerCase();
    if (!name || taken.has(key) || out.some((n) => n.toLowerCase() === key)) continue;
    if (q && !key.startsWith(q)) continue;
    out.push(name);
    if (out.length === MAX_SUGGESTIONS) break;
  }
  return out;
}

export type Answer = string | string[];

/** missingRequired returns '{label} is required!' for the first required field left empty (SPEC §5). */
export function missingRequired(fields: FormField[], values: Record<string, Answer>): string | null {
  for (const f of fields) {
    if (!f.required) continue;
    const v = values[f.label];
    const empty = v === undefined || (Array.isArray(v) ? v.length === 0 : v.trim() === '');
    if (empty) return `${f.label} is required!`;
  }
  return null;
}

/** submissionBody is what the preview posts: formId plus one value per answered field label. */
export function submissionBody(formId: string, fields: FormField[], values: Record<string, Answer>): Record<string, unknown> {
  const body: Record<string, unknown> = { formId };
  for (const f of fields) {
    const v = values[f.label];
    if (v === undefined || (Array.isArray(v) ? v.length === 0 : v.trim() === '')) continue;
    body[f.label] = v;
  }
  return body;
}

/** MAX_NOTIFY_EMAILS matches the server's limit (collections.MaxEmails). */
export const MAX_NOTIFY_EMAILS = 10;

/**
 * parseEmailList splits what staff type into addresses (commas, semicolons, spaces or lines
 * between them), lower-cased without repeats, in order.
 */
export function parseEmailList(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(/[\s,;]+/)) {
    const a = part.trim().toLowerCase();
    if (a && !out.includes(a)) out.push(a);
  }
  return out;
}

const EMAIL = /^[^\s@<>(),;:"\[\]\\]+@[^\s@<>(),;:"\[\]\\]+\.[^\s@<>(),;:"\[\]\\]+$/;

/** notifyEmailsError is the first problem of a notification list, or null (the server checks again). */
export function notifyEmailsError(list: string[]): string | null {
  const bad = list.find((a) => !EMAIL.test(a) || a.length > 254);
  if (bad !== undefined) return `Notify Emails: "${bad}" is not a valid email address.`;
  if (list.length > MAX_NOTIFY_EMAILS) return `Notify Emails can list at most ${MAX_NOTIFY_EMAILS} addresses.`;
  return null;
}

/** hasEmailField says whether the form has an email field (the auto-reply needs one). */
export const hasEmailField = (fields: FormField[]): boolean => fields.some((f) => f.fieldType === 'email');
