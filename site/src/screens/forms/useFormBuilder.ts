import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import { dataProvider, mutateResource } from '../../api/dataProvider';
import { HttpError, messageOf } from '../../api/http';
import { fieldsText, notifyEmailsError, parseEmailList, parseFields, type FormField } from './builder';

interface FormRecord {
  id: string;
  name?: string;
  description?: string;
  image?: string;
  fields?: string;
  notifyEmails?: string[];
  autoReplySubject?: string;
  autoReplyMessage?: string;
  version?: number;
}

export interface FormDetails {
  name: string;
  description: string;
  image: string;
  /** notifyEmails as typed: addresses separated by commas or lines. */
  notifyEmails: string;
  autoReplySubject: string;
  autoReplyMessage: string;
}

const EMPTY: FormDetails = { name: '', description: '', image: '', notifyEmails: '', autoReplySubject: '', autoReplyMessage: '' };

/**
 * useFormBuilder holds one form in the builder: loading it, its details and fields, and save.
 * Create mode becomes edit mode after the first save by loading the new form's address (SPEC §4);
 * after each save the fields are the server's, with permanent ids in place of NEW_ ones.
 */
export function useFormBuilder(id: string | undefined) {
  const navigate = useNavigate();
  const [details, setDetails] = useState<FormDetails>(EMPTY);
  const [fields, setFields] = useState<FormField[]>([]);
  const [saved, setSaved] = useState<{ fields: FormField[]; text: string }>({ fields: [], text: '[]' });
  const [version, setVersion] = useState<number | undefined>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [loading, setLoading] = useState(Boolean(id));
  const [saving, setSaving] = useState(false);
  const savingRef = useRef(false);

  const apply = useCallback((rec: FormRecord) => {
    const parsed = parseFields(rec.fields);
    setDetails({
      name: rec.name ?? '',
      description: rec.description ?? '',
      image: rec.image ?? '',
      notifyEmails: (Array.isArray(rec.notifyEmails) ? rec.notifyEmails : []).join('\n'),
      autoReplySubject: rec.autoReplySubject ?? '',
      autoReplyMessage: rec.autoReplyMessage ?? '',
    });
    setFields(parsed);
    setSaved({ fields: parsed, text: fieldsText(parsed) });
    setVersion(rec.version);
  }, []);

  useEffect(() => {
    if (!id) return;
    let live = true;
    setLoading(true);
    dataProvider
      .one<FormRecord>('custom-forms', id)
      .then((res) => live && apply(res.result))
      .catch((err) => live && toast.error(messageOf(err)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [id, apply]);

  const setDetail = (name: keyof FormDetails, value: string) => {
    setDetails((d) => ({ ...d, [name]: value }));
    setErrors((e) => ({ ...e, [name]: '' }));
  };

  const save = async () => {
    if (savingRef.current) return; // SPEC §4: no double submission
    const missing: Record<string, string> = {};
    if (!details.name.trim()) missing.name = 'Name is required!';
    const notifyEmails = parseEmailList(details.notifyEmails);
    const listError = notifyEmailsError(notifyEmails);
    if (listError) missing.notifyEmails = listError;
    // The cover image is "required by label only" (SPEC, form builder): offered, marked, not enforced.
    if (Object.keys(missing).length > 0) {
      setErrors(missing);
      toast.error(Object.values(missing)[0]);
      return;
    }
    savingRef.current = true;
    setSaving(true);
    const body = { ...details, notifyEmails, fields: fieldsText(fields) };
    try {
      const res = id
        ? await dataProvider.update<FormRecord>('custom-forms', id, body, version)
        : await dataProvider.create<FormRecord>('custom-forms', body);
      toast.success(res.message ?? 'Saved Changes!');
      void mutateResource('custom-forms');
      if (id) apply(res.result);
      else navigate(`/custom-forms/${encodeURIComponent(res.result.id)}`, { replace: true });
    } catch (err) {
      if (err instanceof HttpError) setErrors(err.errors);
      toast.error(messageOf(err));
    } finally {
      savingRef.current = false;
      setSaving(false);
    }
  };

  return {
    details,
    setDetail,
    fields,
    setFields,
    savedFields: saved.fields,
    dirty: fieldsText(fields) !== saved.text,
    errors,
    loading,
    saving,
    save,
  };
}
