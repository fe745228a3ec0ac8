import { useState } from 'react';
import useSWR from 'swr';
import toast from 'react-hot-toast';
import { download } from '../../api/download';
import { dataProvider, fetchers, keys, type Reply } from '../../api/dataProvider';
import { messageOf } from '../../api/http';
import { usePagedList } from '../../api/usePagedList';
import { parseFields } from './builder';

export type SubmissionRow = Record<string, unknown> & { id: string; checked?: boolean; createdAt?: string };

type FormInfo = { name?: string; fields?: string };

/** Keys every submission carries beside its answers; the table shows them in their own columns. */
const OWN_KEYS = new Set(['id', 'formId', 'checked', 'createdAt']);

/**
 * submissionColumns: one column per submitted key except id (SPEC §2): the form's field labels in
 * its order, then any other answered key (a field since renamed or removed). formId is the same
 * on every row of the screen, so it is left out.
 */
export function submissionColumns(labels: string[], rows: SubmissionRow[]): string[] {
  const out = [...labels];
  for (const r of rows) for (const k of Object.keys(r)) if (!OWN_KEYS.has(k) && !out.includes(k)) out.push(k);
  return out;
}

/** useSubmissions holds the submissions screen: the form, one page of submissions, check and export. */
export function useSubmissions(formId: string) {
  const form = useSWR<Reply<FormInfo>>(keys.one('custom-forms', formId), fetchers.reply<FormInfo>);
  const [order, setOrder] = useState<'desc' | 'asc'>('desc');
  const list = usePagedList<SubmissionRow>('custom-form-submissions', { filter: { formId }, sort: 'createdAt', order }, { initialLimit: 10, debounceMs: 300 });
  const [busy, setBusy] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const labels = parseFields(form.data?.result.fields).map((f) => f.label);

  const setChecked = async (row: SubmissionRow, checked: boolean) => {
    setBusy(row.id);
    try {
      await dataProvider.update('custom-form-submissions', row.id, { formId, checked }, undefined);
      await list.reload();
    } catch (err) {
      toast.error(messageOf(err));
    } finally {
      setBusy(null);
    }
  };

  const exportCsv = async () => {
    if (exporting) return;
    setExporting(true);
    try {
      await download(keys.list('custom-form-submissions/export', { filter: { formId } }));
    } catch (err) {
      toast.error(messageOf(err));
    } finally {
      setExporting(false);
    }
  };

  return {
    formName: form.data?.result.name ?? '',
    columns: submissionColumns(labels, list.items),
    list,
    order,
    setOrder,
    busy,
    setChecked,
    exportCsv,
    exporting,
  };
}
