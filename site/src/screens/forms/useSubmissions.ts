import { useState } from 'react';
import useSWR from 'swr';
import toast from 'react-hot-toast';
import { api } from '../../api/client';
import { useDownload } from '../../api/download';
import { dataProvider, fetchers, keys, mutateResource, type Reply } from '../../api/dataProvider';
import { messageOf } from '../../api/http';
import { usePagedList } from '../../api/usePagedList';
import { parseFields } from './builder';

export type SubmissionRow = Record<string, unknown> & { id: string; checked?: boolean; createdAt?: string };

type FormInfo = { name?: string; fields?: string };

const RESOURCE = 'custom-form-submissions';

/** DELETE_FAILED is SPEC §8's delete fallback. */
const DELETE_FAILED = 'Some error occured';

/** removeSubmission deletes one submission; formId names its form's partition. */
function removeSubmission(formId: string, id: string) {
  return api.del<{ message?: string }>(`${keys.one(RESOURCE, id)}?formId=${encodeURIComponent(formId)}`);
}

/** deletedText is the toast of a delete: the server's for one, counted for several. */
function deletedText(n: number, serverMessage?: string): string {
  return n === 1 && serverMessage ? serverMessage : `${n} Submissions Deleted Successfully!`;
}

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

/** useSubmissions holds the submissions screen: the form, one page of submissions, check, delete and export. */
export function useSubmissions(formId: string) {
  const form = useSWR<Reply<FormInfo>>(keys.one('custom-forms', formId), fetchers.reply<FormInfo>);
  const [order, setOrder] = useState<'desc' | 'asc'>('desc');
  const list = usePagedList<SubmissionRow>(RESOURCE, { filter: { formId }, sort: 'createdAt', order }, { initialLimit: 10, debounceMs: 300 });
  const [busy, setBusy] = useState<string | null>(null);
  const csv = useDownload();
  const [deleting, setDeleting] = useState(false);
  const labels = parseFields(form.data?.result.fields).map((f) => f.label);

  const setChecked = async (row: SubmissionRow, checked: boolean) => {
    setBusy(row.id);
    try {
      await dataProvider.update(RESOURCE, row.id, { formId, checked }, undefined);
      await mutateResource(RESOURCE); // the list and the dashboard's unchecked count
    } catch (err) {
      toast.error(messageOf(err));
    } finally {
      setBusy(null);
    }
  };

  /**
   * remove deletes submissions one at a time (each delete moves the form's and the dashboard's
   * counters in its own transaction), then refreshes the list, its total and the dashboard.
   */
  const remove = async (ids: string[]) => {
    if (deleting || ids.length === 0) return;
    setDeleting(true);
    let done = 0;
    let message: string | undefined;
    try {
      for (const id of ids) {
        message = (await removeSubmission(formId, id)).message;
        done++;
      }
      toast.success(deletedText(done, message));
    } catch (err) {
      toast.error(messageOf(err, DELETE_FAILED));
    } finally {
      if (done > 0) await mutateResource(RESOURCE);
      setDeleting(false);
    }
  };

  const exportCsv = () => csv.start(keys.list(`${RESOURCE}/export`, { filter: { formId } }));

  return {
    formName: form.data?.result.name ?? '',
    columns: submissionColumns(labels, list.items),
    list,
    order,
    setOrder,
    busy,
    setChecked,
    remove,
    deleting,
    exportCsv,
    exporting: csv.downloading,
  };
}
