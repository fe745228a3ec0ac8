import { useCallback, useMemo, useRef, useState } from 'react';
import {
  NO_EDITS,
  applyPatch,
  confirmCurrent,
  dirtyLanguages,
  errorLanguage,
  publishedOf,
  readTranslations,
  rebase,
  settle,
  setPublished,
  setText,
  textOf,
  translationPatch,
  fieldState,
  type FieldState,
  type TranslationEdits,
  type TranslationPatch,
  type Translations,
} from './translationState';

/** TranslationEditor is one form's translations: the language shown, every language's unsaved edits, and what a save sends. */
export interface TranslationEditor {
  /** lang is the language being edited; null is the site's default language (the record's own fields). */
  lang: string | null;
  setLang: (lang: string | null) => void;
  text: (lang: string, field: string) => string;
  state: (lang: string, field: string) => FieldState;
  setText: (lang: string, field: string, value: string) => void;
  published: (lang: string) => boolean;
  setPublished: (lang: string, on: boolean) => void;
  confirm: (lang: string, field: string) => void;
  /** has says whether lang has a stored translation. */
  has: (lang: string) => boolean;
  dirty: boolean;
  dirtyLanguages: string[];
  /** patch is the save body's `translations` (undefined: nothing to send). */
  patch: TranslationPatch | undefined;
  /** reset starts over from a record (or nothing, for a new one), back on the default language. */
  reset: (record?: Record<string, unknown> | null) => void;
  /** adopt takes a fresh copy of the record (a late load, a save's answer), keeping edits it does not hold. */
  adopt: (record: Record<string, unknown>) => void;
  /**
   * saved follows a successful save that sent `sent`: the answer's translations when it gives them,
   * else what was sent folded into the stored ones; edits made meanwhile stay unsaved.
   */
  saved: (answer: Record<string, unknown> | undefined, sent: TranslationPatch | undefined) => void;
  /** showErrors switches to the language a failed save's errors are in. */
  showErrors: (errors: Record<string, string>) => void;
}

/** withTranslations adds a save's `translations` to its body when there is something to send. */
export function withTranslations<T extends object>(body: T, patch: TranslationPatch | undefined): T & { translations?: TranslationPatch } {
  return patch ? { ...body, translations: patch } : body;
}

/** useTranslationEdits holds a form's translations beside its own fields: all languages' edits are one unsaved state. */
export function useTranslationEdits(): TranslationEditor {
  const [saved, setSaved] = useState<Translations>({});
  const [edits, setEdits] = useState<TranslationEdits>(NO_EDITS);
  const [lang, setLang] = useState<string | null>(null);

  const reset = useCallback((record?: Record<string, unknown> | null) => {
    setSaved(readTranslations(record?.translations));
    setEdits(NO_EDITS);
    setLang(null);
  }, []);

  const adopt = useCallback((record: Record<string, unknown>) => {
    const next = readTranslations(record.translations);
    setSaved(next);
    setEdits((e) => rebase(e, next));
  }, []);

  const savedRef = useRef(saved);
  savedRef.current = saved;
  const savedAfter = useCallback((answer: Record<string, unknown> | undefined, sent: TranslationPatch | undefined) => {
    const next = answer && answer.translations !== undefined ? readTranslations(answer.translations) : applyPatch(savedRef.current, sent);
    savedRef.current = next;
    setSaved(next);
    setEdits((e) => rebase(settle(e, sent), next));
  }, []);

  const showErrors = useCallback((errors: Record<string, string>) => {
    const l = errorLanguage(errors);
    if (l) setLang(l);
    else if (Object.keys(errors).length > 0) setLang(null);
  }, []);

  const patch = useMemo(() => translationPatch(saved, edits), [saved, edits]);
  return {
    lang,
    setLang,
    text: (l, field) => textOf(saved, edits, l, field),
    state: (l, field) => fieldState(saved, edits, l, field),
    setText: (l, field, value) => setEdits((e) => setText(e, saved, l, field, value)),
    published: (l) => publishedOf(saved, edits, l),
    setPublished: (l, on) => setEdits((e) => setPublished(e, saved, l, on)),
    confirm: (l, field) => setEdits((e) => confirmCurrent(e, l, field)),
    has: (l) => saved[l] !== undefined,
    dirty: patch !== undefined,
    dirtyLanguages: dirtyLanguages(saved, edits),
    patch,
    reset,
    adopt,
    saved: savedAfter,
    showErrors,
  };
}
