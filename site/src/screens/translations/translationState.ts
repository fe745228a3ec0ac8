/**
 * The pure rules of editing a record's translations (issue 35): what the form shows for a field
 * in another language, what counts as an unsaved change, and what one Save sends.
 *
 * A record holds its default-language values as its fields and the others under
 * `translations: {"fr": {"title": "…", "published": true, "outdated": ["title"]}}`. The form keeps
 * the stored copy (saved) and, beside it, only what the user changed (TranslationEdits), for every
 * language at once: switching language never drops an edit, and the save sends each language's
 * changed fields only (PATCH merges a partial translation; "" removes a field's translation).
 */
import type { FieldDecl } from '../../lib/collections';

/** LangEntry is one language's stored translation of a record. */
export interface LangEntry {
  [field: string]: unknown;
  published?: boolean;
  outdated?: string[];
}

/** Translations are a record's stored translations by language code. */
export type Translations = Record<string, LangEntry>;

/** TranslationEdits are the unsaved changes to a record's translations, every language together. */
export interface TranslationEdits {
  /** fields: per language, the new text of each field the user changed. */
  fields: Record<string, Record<string, string>>;
  /** published: per language, the "Publish this translation" choice where the user changed it. */
  published: Record<string, boolean>;
  /** confirmed: per language, fields marked up to date without a change of text (saved again as they are). */
  confirmed: Record<string, string[]>;
}

export const NO_EDITS: TranslationEdits = { fields: {}, published: {}, confirmed: {} };

/** TranslationPatch is the `translations` of a save's body: per language, its changes only. */
export type TranslationPatch = Record<string, Record<string, string | boolean>>;

/** TranslationStatus is one language's entry of a list item's translationStatus. */
export interface TranslationStatus {
  filled: number;
  total: number;
  published?: boolean;
  outdated?: number;
}

/** translatableFields are the declared fields a translation holds (`"translatable": true`). */
export function translatableFields(fields: FieldDecl[]): FieldDecl[] {
  return fields.filter((f) => f.translatable === true && !f.derived && !f.transient);
}

/** hasTranslatable says whether a collection's form gets a language switch at all. */
export function hasTranslatable(fields: FieldDecl[]): boolean {
  return translatableFields(fields).length > 0;
}

/** readTranslations takes a stored record's `translations` (anything) into Translations. */
export function readTranslations(raw: unknown): Translations {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const out: Translations = {};
  for (const [lang, entry] of Object.entries(raw as Record<string, unknown>)) {
    if (entry && typeof entry === 'object' && !Array.isArray(entry)) out[lang] = entry as LangEntry;
  }
  return out;
}

/**
 * normalText is a field's text as a save compares it: trimmed (the form's payload trims text), and
 * Quill's empty editor ("<p><br></p>") the same as nothing.
 */
export function normalText(value: unknown): string {
  if (value === undefined || value === null) return '';
  const s = (typeof value === 'string' ? value : String(value)).trim();
  return s === '<p><br></p>' ? '' : s;
}

/** savedText is a field's stored translation in lang ("" when it has none). */
export function savedText(saved: Translations, lang: string, field: string): string {
  const v = saved[lang]?.[field];
  return typeof v === 'string' ? v : '';
}

/** textOf is what the form shows for a field in lang: the user's edit, else the stored translation. */
export function textOf(saved: Translations, edits: TranslationEdits, lang: string, field: string): string {
  const edited = edits.fields[lang]?.[field];
  return edited !== undefined ? edited : savedText(saved, lang, field);
}

/** savedPublished: a stored translation is published unless it says otherwise (the contract's default). */
export function savedPublished(saved: Translations, lang: string): boolean {
  return saved[lang]?.published !== false;
}

/** publishedOf is the "Publish this translation" box as the form shows it. */
export function publishedOf(saved: Translations, edits: TranslationEdits, lang: string): boolean {
  const edited = edits.published[lang];
  return edited !== undefined ? edited : savedPublished(saved, lang);
}

/**
 * setText records the user's text for a field in lang. Text back to the stored value drops the
 * edit, so undoing by hand leaves nothing unsaved.
 */
export function setText(edits: TranslationEdits, saved: Translations, lang: string, field: string, value: string): TranslationEdits {
  const langFields = { ...(edits.fields[lang] ?? {}) };
  if (normalText(value) === normalText(savedText(saved, lang, field))) delete langFields[field];
  else langFields[field] = value;
  const fields = { ...edits.fields };
  if (Object.keys(langFields).length > 0) fields[lang] = langFields;
  else delete fields[lang];
  return { ...edits, fields };
}

/** setPublished records the "Publish this translation" choice for lang (the stored one drops the edit). */
export function setPublished(edits: TranslationEdits, saved: Translations, lang: string, on: boolean): TranslationEdits {
  const published = { ...edits.published };
  if (on === savedPublished(saved, lang)) delete published[lang];
  else published[lang] = on;
  return { ...edits, published };
}

/** confirmCurrent marks a field "still right" in lang: the save sends its text again, which clears "May be out of date". */
export function confirmCurrent(edits: TranslationEdits, lang: string, field: string): TranslationEdits {
  const list = edits.confirmed[lang] ?? [];
  if (list.includes(field)) return edits;
  return { ...edits, confirmed: { ...edits.confirmed, [lang]: [...list, field] } };
}

/** outdatedOf lists the fields whose translation in lang may be out of date (the stored `outdated`). */
export function outdatedOf(saved: Translations, lang: string): string[] {
  const list = saved[lang]?.outdated;
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
}

export type FieldState = 'missing' | 'outdated' | 'translated';

/**
 * fieldState is what the form says of a field in lang: "Not translated yet" when it has no text,
 * "May be out of date" when the stored translation is marked so and the user has neither changed
 * nor confirmed it, else translated.
 */
export function fieldState(saved: Translations, edits: TranslationEdits, lang: string, field: string): FieldState {
  if (normalText(textOf(saved, edits, lang, field)) === '') return 'missing';
  const touched = edits.fields[lang]?.[field] !== undefined || (edits.confirmed[lang] ?? []).includes(field);
  if (!touched && outdatedOf(saved, lang).includes(field)) return 'outdated';
  return 'translated';
}

/**
 * translationPatch is the `translations` a save sends: per language, each field whose text changed
 * ("" removes its translation), each confirmed field's text, and `published` where it changed;
 * undefined when nothing did. Languages left alone are not named, so the save merges.
 */
export function translationPatch(saved: Translations, edits: TranslationEdits): TranslationPatch | undefined {
  const out: TranslationPatch = {};
  const langs = new Set([...Object.keys(edits.fields), ...Object.keys(edits.published), ...Object.keys(edits.confirmed)]);
  for (const lang of [...langs].sort()) {
    const entry: Record<string, string | boolean> = {};
    for (const [field, value] of Object.entries(edits.fields[lang] ?? {})) {
      const text = normalText(value);
      if (text !== normalText(savedText(saved, lang, field))) entry[field] = text;
    }
    for (const field of edits.confirmed[lang] ?? []) {
      if (!(field in entry) && normalText(savedText(saved, lang, field)) !== '') entry[field] = normalText(savedText(saved, lang, field));
    }
    const pub = edits.published[lang];
    if (pub !== undefined && pub !== savedPublished(saved, lang)) entry.published = pub;
    if (Object.keys(entry).length > 0) out[lang] = entry;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** isDirty says whether the translations hold unsaved changes (any language). */
export function isDirty(saved: Translations, edits: TranslationEdits): boolean {
  return translationPatch(saved, edits) !== undefined;
}

/** dirtyLanguages are the languages with unsaved changes (for the switch's marks). */
export function dirtyLanguages(saved: Translations, edits: TranslationEdits): string[] {
  return Object.keys(translationPatch(saved, edits) ?? {});
}

/**
 * rebase keeps the user's edits over a fresh stored copy (a late load, or a reload): an edit the
 * new copy already holds is dropped, the others stay.
 */
export function rebase(edits: TranslationEdits, saved: Translations): TranslationEdits {
  let next: TranslationEdits = { fields: {}, published: {}, confirmed: {} };
  for (const [lang, fields] of Object.entries(edits.fields)) {
    for (const [field, value] of Object.entries(fields)) next = setText(next, saved, lang, field, value);
  }
  for (const [lang, on] of Object.entries(edits.published)) next = setPublished(next, saved, lang, on);
  for (const [lang, list] of Object.entries(edits.confirmed)) {
    for (const field of list) if (outdatedOf(saved, lang).includes(field)) next = confirmCurrent(next, lang, field);
  }
  return next;
}

/**
 * applyPatch is the stored translations after a save that sent patch, where the answer does not
 * give them (a draft's save): each sent field set ("" removes it, and with it its "out of date"
 * mark), published as sent.
 */
export function applyPatch(saved: Translations, patch: TranslationPatch | undefined): Translations {
  if (!patch) return saved;
  const out: Translations = { ...saved };
  for (const [lang, entry] of Object.entries(patch)) {
    const next: LangEntry = { ...(out[lang] ?? {}) };
    for (const [field, value] of Object.entries(entry)) {
      if (field === 'published') {
        next.published = value === true;
        continue;
      }
      if (value === '') delete next[field];
      else next[field] = value;
      if (Array.isArray(next.outdated)) next.outdated = next.outdated.filter((f) => f !== field);
    }
    out[lang] = next;
  }
  return out;
}

/**
 * settle drops the edits a successful save sent (the server may answer them sanitised: "&nbsp;"
 * as a space, attributes reordered, which must not read as unsaved); an edit made while the save
 * was on its way differs from what was sent and stays.
 */
export function settle(edits: TranslationEdits, sent: TranslationPatch | undefined): TranslationEdits {
  if (!sent) return edits;
  const fields: TranslationEdits['fields'] = {};
  for (const [lang, langFields] of Object.entries(edits.fields)) {
    const kept: Record<string, string> = {};
    for (const [field, value] of Object.entries(langFields)) {
      const was = sent[lang]?.[field];
      if (typeof was !== 'string' || normalText(value) !== was) kept[field] = value;
    }
    if (Object.keys(kept).length > 0) fields[lang] = kept;
  }
  const published: TranslationEdits['published'] = {};
  for (const [lang, on] of Object.entries(edits.published)) if (sent[lang]?.published !== on) published[lang] = on;
  const confirmed: TranslationEdits['confirmed'] = {};
  for (const [lang, list] of Object.entries(edits.confirmed)) {
    const kept = list.filter((f) => sent[lang]?.[f] === undefined);
    if (kept.length > 0) confirmed[lang] = kept;
  }
  return { fields, published, confirmed };
}

const ERROR_KEY = /^translations\.([^.]+)\.(.+)$/;

/** errorsIn picks a save's field errors keyed `translations.{lang}.{field}` for lang, by field. */
export function errorsIn(errors: Record<string, string>, lang: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, message] of Object.entries(errors)) {
    const m = ERROR_KEY.exec(key);
    if (m && m[1] === lang && message) out[m[2]] = message;
  }
  return out;
}

/**
 * errorLanguage is the language a failed save should show: none (undefined) when a default-language
 * field has an error, else the first language with one.
 */
export function errorLanguage(errors: Record<string, string>): string | undefined {
  const keys = Object.keys(errors).filter((k) => errors[k]);
  if (keys.some((k) => !k.startsWith('translations.'))) return undefined;
  for (const k of keys) {
    const m = ERROR_KEY.exec(k) ?? /^translations\.([^.]+)$/.exec(k);
    if (m) return m[1];
  }
  return undefined;
}

/** readStatus takes a list item's `translationStatus` (anything) into statuses by language. */
export function readStatus(raw: unknown): Record<string, TranslationStatus> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const out: Record<string, TranslationStatus> = {};
  for (const [lang, v] of Object.entries(raw as Record<string, unknown>)) {
    if (!v || typeof v !== 'object') continue;
    const s = v as Record<string, unknown>;
    const filled = Number(s.filled);
    const total = Number(s.total);
    if (!Number.isFinite(filled) || !Number.isFinite(total)) continue;
    out[lang] = { filled, total, published: s.published !== false, outdated: Number(s.outdated) > 0 ? Number(s.outdated) : 0 };
  }
  return out;
}

/** StatusLabel is one language's badge in a list: its short text and what it says in full. */
export interface StatusLabel {
  lang: string;
  /** short: "FR 6/8". */
  short: string;
  /** long: "French: 6 of 8 fields translated, 1 may be out of date, not published". */
  long: string;
  tone: 'complete' | 'partial' | 'none';
  outdated: number;
  published: boolean;
}

/**
 * statusLabels are a list row's badges, one per other language of the site, in the site's order.
 * A language the row has no status for has nothing translated: "FR –" (the server counts the
 * fields a translation could fill, those with a default text, only once one is translated).
 */
export function statusLabels(status: Record<string, TranslationStatus>, languages: { code: string; english: string }[]): StatusLabel[] {
  return languages.map(({ code, english }) => {
    const s = status[code];
    if (!s || s.filled === 0) {
      return { lang: code, short: `${code.toUpperCase()} –`, long: `${english}: not translated yet`, tone: 'none', outdated: 0, published: s?.published !== false };
    }
    const outdated = s.outdated ?? 0;
    const published = s.published !== false;
    const parts = [`${english}: ${s.filled} of ${s.total} fields translated`];
    if (outdated > 0) parts.push(`${outdated} may be out of date`);
    if (!published) parts.push('not published');
    return {
      lang: code,
      short: `${code.toUpperCase()} ${s.filled}/${s.total}`,
      long: parts.join(', '),
      tone: s.filled >= s.total ? 'complete' : 'partial',
      outdated,
      published,
    };
  });
}
