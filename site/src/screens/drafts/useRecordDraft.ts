import { useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { mutate } from 'swr';
import { createDraft, draftsPath, getDraft, saveDraft } from '../../api/drafts';
import { HttpError, messageOf } from '../../api/http';
import { useApp } from '../../app/AppContext';
import type { ApiRecord, CollectionDecl } from '../../lib/collections';
import { hasPermission } from '../../lib/permissions';
import { useAutosave } from './autosave';
import { editorCopyOf, editsDraft, withStep, type Draft, type DraftAnswer } from './workflow';

/** draftsListKey is the swr key of a collection's drafts (the list's new drafts and badges). */
export const draftsListKey = (collection: string) => draftsPath({ collection, limit: 100 });

/**
 * useRecordDraft is the generic record form's side of drafts (issue 36), for a collection
 * declared "workflow": it loads the record's draft beside its live copy, saves the form to the
 * draft (autosaved AUTOSAVE_MS after typing stops; the version from each answer; a 409 kept to
 * show with Reload), and creates a new record as a draft for a user without the publish right.
 * openId and payload are the record open in the form and what the form holds.
 */
export function useRecordDraft(decl: CollectionDecl, openId: string | null, payload: Record<string, unknown> | null, busy: boolean) {
  const { user } = useApp();
  const workflow = !!decl.workflow;
  const holdsRight = hasPermission(user, `CMS_PUBLISH_${decl.category}`);
  const [wf, setWf] = useState<DraftAnswer | null>(null);
  const [conflict, setConflict] = useState('');
  const [baseline, setBaseline] = useState('');
  const [saving, setSaving] = useState(false);
  const savingRef = useRef(false);
  const draftMode = workflow && editsDraft(wf, holdsRight);
  const now = payload && draftMode ? JSON.stringify(payload) : '';
  const dirty = !!now && now !== baseline;

  const save = async (id: string, body: Record<string, unknown>, quiet: boolean): Promise<number | null> => {
    if (!wf || savingRef.current) return null;
    savingRef.current = true;
    setSaving(true);
    try {
      const res = await saveDraft(decl.key, id, body, wf.draft?.version ?? 0);
      setWf((w) => (w ? { ...w, draft: res.result } : w));
      setBaseline(JSON.stringify(body));
      if (!quiet) toast.success(res.message ?? 'Draft saved!');
      void mutate(draftsListKey(decl.key));
      return res.result.version;
    } catch (err) {
      if (err instanceof HttpError && err.status === 409) setConflict(err.message);
      else toast.error(messageOf(err));
      return null;
    } finally {
      savingRef.current = false;
      setSaving(false);
    }
  };

  useAutosave(!!openId && dirty && !conflict && !saving && !busy, now, () => {
    if (openId && payload) void save(openId, payload, true);
  });

  return {
    workflow,
    wf,
    id: openId,
    draftMode,
    /** createsDraft: "Save" of a new record makes a draft (POST /{c}/draft). */
    createsDraft: workflow && !holdsRight,
    saving,
    dirty,
    conflict,
    /** load reads a record to edit through GET …/draft (null: not a workflow collection, load as before). */
    async load(id: string): Promise<{ copy: ApiRecord; live: ApiRecord | null } | null> {
      if (!workflow) return null;
      const answer = (await getDraft(decl.key, id)).result;
      setWf(answer);
      setConflict('');
      return { copy: editorCopyOf(answer, id) as ApiRecord, live: answer.live as ApiRecord | null };
    },
    /** loaded marks what the form holds right after a load as saved (autosave starts from it). */
    loaded(body: Record<string, unknown>) {
      setBaseline(JSON.stringify(body));
    },
    reset() {
      setWf(null);
      setConflict('');
      setBaseline('');
    },
    save,
    async create(body: Record<string, unknown>) {
      const res = await createDraft(decl.key, body);
      void mutate(draftsListKey(decl.key));
      return res;
    },
    setDraft(d: Draft) {
      setWf((w) => (w ? { ...w, draft: w.draft ? withStep(w.draft, d) : d } : w));
    },
    /** flush saves unsaved changes before a step; the draft's version, or null. */
    async flush(): Promise<number | null> {
      for (let i = 0; savingRef.current && i < 200; i++) await new Promise((r) => setTimeout(r, 50));
      if (savingRef.current) return null;
      if (dirty && openId && payload) return save(openId, payload, true);
      return wf?.draft?.version ?? null;
    },
  };
}

export type RecordDraft = ReturnType<typeof useRecordDraft>;
