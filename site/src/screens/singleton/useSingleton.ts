import { useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import useSWR from 'swr';
import { api, swrFetcher } from '../../api/client';
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

interface Envelope {
  result: ApiRecord;
  message?: string;
}

/**
 * useSingleton drives the settings form of a one-per-tenant record: load it (defaults before
 * the first save), edit, save with its version (a stale one is a 409 with a Reload offer).
 * onSaved runs after a save (theme settings refetch the tenant details).
 */
export function useSingleton(decl: CollectionDecl, onSaved?: () => void) {
  const path = `/${decl.key}`;
  const { data, error, isLoading, mutate } = useSWR<Envelope>(path, swrFetcher, { revalidateOnFocus: false });
  const { values, setValues, errors, setErrors, setField, check } = useFormFields();
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<string | null>(null);
  const savingRef = useRef(false);

  useEffect(() => {
    if (data?.result) setValues(initialValues(decl, data.result));
  }, [data, decl]);

  const save = async (e?: { preventDefault: () => void }) => {
    e?.preventDefault();
    if (!data || savingRef.current) return;
    if (!check(validateFormats(decl, values))) return;
    savingRef.current = true;
    setSaving(true);
    try {
      const id = encodeURIComponent(data.result.id);
      const res = await api.patch<Envelope>(`${path}/${id}`, toPayload(decl, values, data.result.version));
      await mutate({ result: res.result }, { revalidate: false });
      setConflict(null);
      toast.success(res.message || decl.savedMessage || `${decl.title} updated successfully!`);
      onSaved?.();
    } catch (err) {
      if (err instanceof HttpError) {
        setErrors(err.errors);
        if (err.status === 409) setConflict(messageOf(err));
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

  return { record: data?.result, values, errors, loading: isLoading, failed: Boolean(error), saving, conflict, setField, save, reload };
}
