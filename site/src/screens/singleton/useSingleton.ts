import { useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import useSWR from 'swr';
import { dataProvider, fetchers, isStale, keys, type Reply } from '../../api/dataProvider';
import { HttpError, messageOf } from '../../api/http';
import {
  initialValues,
  toPayload,
  validateFormats,
  type ApiRecord,
  type CollectionDecl,
} from '../../lib/collections';
import { MSG } from '../../lib/messages';
import { useFormFields } from '../collections/useFormFields';
import { checksAccessibility } from '../../lib/a11y';
import { findingsOfError, useAccessibilityCheck } from '../../components/a11y/useAccessibilityCheck';
import { useTranslationEdits, withTranslations } from '../translations/useTranslationEdits';

/**
 * useSingleton drives the settings form of a one-per-tenant record: load it (defaults before
 * the first save), edit, save with its version (a stale one is a 409 with a Reload offer).
 * onSaved runs after a save (theme settings refetch the tenant details).
 */
export function useSingleton(decl: CollectionDecl, onSaved?: () => void) {
  const { data, error, isLoading, mutate } = useSWR<Reply<ApiRecord>>(keys.singleton(decl.key), fetchers.reply<ApiRecord>, { revalidateOnFocus: false });
  const { values, setValues, errors, setErrors, setField, check } = useFormFields();
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<string | null>(null);
  const savingRef = useRef(false);
  // Issue 35: the header's, footer's and SEO defaults' translations, saved with their fields.
  const translations = useTranslationEdits();
  const { adopt } = translations;
  // Issue 37: a singleton the website shows (header, footer) is checked as staff edit it.
  const a11y = useAccessibilityCheck(decl.key, data?.result ? toPayload(decl, values) : null, checksAccessibility(decl.key));

  useEffect(() => {
    if (data?.result) {
      setValues(initialValues(decl, data.result));
      adopt(data.result);
    }
  }, [data, decl, adopt]);

  const save = async (e?: { preventDefault: () => void }) => {
    e?.preventDefault();
    if (!data || savingRef.current) return;
    if (!check(validateFormats(decl, values))) return;
    savingRef.current = true;
    setSaving(true);
    try {
      const sent = translations.patch;
      const res = await dataProvider.saveSingleton<ApiRecord>(decl.key, withTranslations(toPayload(decl, values), sent), data.result.version, data.result.id);
      translations.saved(res.result, sent);
      await mutate({ result: res.result }, { revalidate: false });
      setConflict(null);
      toast.success(res.message || decl.savedMessage || `${decl.title} updated successfully!`);
      onSaved?.();
    } catch (err) {
      if (err instanceof HttpError) {
        setErrors(err.errors);
        translations.showErrors(err.errors);
        const found = findingsOfError(err);
        if (found) a11y.show(found);
        if (isStale(err)) setConflict(messageOf(err));
      }
      toast.error(messageOf(err, decl.failedMessage || MSG.generic));
    } finally {
      savingRef.current = false;
      setSaving(false);
    }
  };

  const reload = async () => {
    setConflict(null);
    await mutate();
  };

  return { record: data?.result, translations, findings: a11y.findings, checking: a11y.checking, values, errors, loading: isLoading, failed: Boolean(error), error, saving, conflict, setField, save, reload };
}
