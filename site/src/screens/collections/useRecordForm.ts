import { useCallback, useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { dataProvider, isStale, mutateResource } from '../../api/dataProvider';
import { HttpError, messageOf } from '../../api/http';
import {
  initialValues,
  toPayload,
  validateFormats,
  validateRequired,
  type ApiRecord,
  type CollectionDecl,
} from '../../lib/collections';
import { MSG } from '../../lib/messages';
import { checksAccessibility } from '../../lib/a11y';
import { findingsOfError, useAccessibilityCheck } from '../../components/a11y/useAccessibilityCheck';
import { useFormFields } from './useFormFields';
import { useRecordDraft } from '../drafts/useRecordDraft';
import { useTranslationEdits, withTranslations } from '../translations/useTranslationEdits';

export type FormMode = { kind: 'create' } | { kind: 'edit'; id: string };

/**
 * useRecordForm drives the one create/edit form of a collection: loading the record to edit,
 * the required check, save with the record's version, field errors and the stale-version 409.
 */
export function useRecordForm(decl: CollectionDecl, onDone: () => void) {
  const [mode, setMode] = useState<FormMode | null>(null);
  const { values, setValues, errors, setErrors, setField: setValue, check } = useFormFields();
  const [version, setVersion] = useState<number | undefined>(undefined);
  // record is the stored copy last loaded (what the History panel compares with).
  const [record, setRecord] = useState<ApiRecord | null>(null);
  const [loading, setLoading] = useState(false);
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<string | null>(null);
  const savingRef = useRef(false);
  // Fields the user changed since the form opened: a fresh copy arriving late must not undo them.
  const touched = useRef(new Set<string>());
  // Issue 35: every language's unsaved translations, saved with the form's own fields.
  const translations = useTranslationEdits();
  // Issue 37: the checker reads the record as the form holds it, while the form is open.
  const a11y = useAccessibilityCheck(decl.key, mode ? toPayload(decl, values) : null, checksAccessibility(decl.key));
  // Issue 36: a workflow collection's record is edited through its draft (useRecordDraft).
  // Translations typed in draft mode go to the draft with the fields (publishing merges them like a PATCH).
  const drafts = useRecordDraft(decl, mode?.kind === 'edit' ? mode.id : null, mode ? withTranslations(toPayload(decl, values), translations.patch) : null, loading);

  const load = useCallback(
    async (id: string) => {
      setLoading(true);
      try {
        const viaDraft = await drafts.load(id);
        const res = viaDraft ? { result: viaDraft.copy } : await dataProvider.one<ApiRecord>(decl.key, id);
        const fresh = initialValues(decl, res.result);
        if (viaDraft) drafts.loaded(toPayload(decl, fresh));
        setValues((current) => {
          const next = { ...fresh };
          for (const name of touched.current) next[name] = current[name];
          return next;
        });
        setVersion(typeof res.result.version === 'number' ? res.result.version : undefined);
        setRecord(viaDraft ? viaDraft.live : res.result);
        // The translations as the form's copy holds them (a draft starts from the live record's and
        // keeps its own; a draft made before the record had any falls back to the live record's).
        translations.adopt(res.result.translations === undefined && viaDraft?.live ? viaDraft.live : res.result);
        setErrors({});
        setConflict(null);
      } catch (err) {
        toast.error(messageOf(err));
      } finally {
        setLoading(false);
      }
    },
    [decl],
  );

  const openCreate = () => {
    touched.current = new Set();
    drafts.reset();
    setRecord(null);
    translations.reset(null);
    setMode({ kind: 'create' });
    setValues(initialValues(decl));
    setVersion(undefined);
    setErrors({});
    setConflict(null);
  };

  const openEdit = (record: ApiRecord) => {
    touched.current = new Set();
    drafts.reset();
    setMode({ kind: 'edit', id: record.id });
    setRecord(null);
    translations.reset(record);
    // Show the row at once; the fresh copy (and its version) replaces it when it arrives.
    setValues(initialValues(decl, record));
    setVersion(typeof record.version === 'number' ? record.version : undefined);
    setErrors({});
    setConflict(null);
    void load(record.id);
  };

  const close = () => {
    setMode(null);
    setErrors({});
    setConflict(null);
  };

  const setField = (name: string, value: unknown) => {
    touched.current.add(name);
    setValue(name, value);
  };

  const reloadRecord = () => {
    // An explicit reload (after a conflict or a restore) takes the server's copy whole.
    touched.current = new Set();
    translations.reset(null);
    if (mode?.kind === 'edit') void load(mode.id);
    void mutateResource(decl.key);
  };

  const save = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!mode || savingRef.current || loading) return;
    const kind = mode.kind;
    if (!check({ ...validateFormats(decl, values), ...validateRequired(decl, values, kind) })) return;
    if (mode.kind === 'edit' && drafts.draftMode) {
      // The form stays open on its draft: its state and buttons follow.
      await drafts.save(mode.id, withTranslations(toPayload(decl, values), translations.patch), false);
      return;
    }
    savingRef.current = true;
    setSaving(true);
    try {
      const body = withTranslations(toPayload(decl, values), translations.patch);
      const res =
        mode.kind === 'create' && drafts.createsDraft
          ? await drafts.create(toPayload(decl, values))
          : mode.kind === 'create'
          ? await dataProvider.create<ApiRecord>(decl.key, body)
          : await dataProvider.update<ApiRecord>(decl.key, mode.id, body, version);
      toast.success(res.message || `${decl.title} ${kind === 'create' ? 'created' : 'updated'} successfully!`);
      close();
      onDone();
      await mutateResource(decl.key);
    } catch (err) {
      if (err instanceof HttpError) {
        setErrors(err.errors);
        translations.showErrors(err.errors);
        // Blocked for accessibility errors (422): its findings show beside their fields.
        const found = findingsOfError(err);
        if (found) a11y.show(found);
        // A stale version offers a reload (a taken unique value is a 409 too, but names its field).
        if (kind === 'edit' && isStale(err)) setConflict(messageOf(err));
      }
      toast.error(messageOf(err, MSG.generic));
    } finally {
      savingRef.current = false;
      setSaving(false);
    }
  };

  const findings = mode ? a11y.findings : [];
  return { drafts, mode, record, translations, values, errors, loading, saving, conflict, findings, checking: a11y.checking, openCreate, openEdit, close, setField, save, reloadRecord };
}
