import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import useSWR from 'swr';
import { dataProvider, fetchers, isStale, keys, mutateResource, type ListResult } from '../../api/dataProvider';
import { HttpError, messageOf } from '../../api/http';
import { findingsOfError, useAccessibilityCheck } from '../../components/a11y/useAccessibilityCheck';
import { sectionsPayload, toDraft, type ApiSection, type DraftSection, type SectionType } from '../../lib/pageSections';
import { fromLocalInput, toLocalInput } from '../../lib/schedule';
import { useApp } from '../../app/AppContext';
import { hasPermission } from '../../lib/permissions';
import { getDraft, saveDraft } from '../../api/drafts';
import { useAutosave } from '../drafts/autosave';
import { editorCopyOf, editsDraft as savesToDraft, withStep, type Draft, type DraftAnswer } from '../drafts/workflow';
import { collectionFor } from '../../lib/collections';

/** WORKFLOW: pages are declared "workflow": true (collections.json): they are edited through drafts. */
const WORKFLOW = !!collectionFor('pages')?.workflow;
import { PAGE_MSG } from './messages';
import { useTranslationEdits, withTranslations } from '../translations/useTranslationEdits';

/** PageFields are the page's own editable fields (SPEC §3). */
export interface PageFields {
  title: string;
  slug: string;
  description: string;
  content: string;
  image: string;
  metaTitle: string;
  metaDescription: string;
  metaKeywords: string;
  canonicalUrl: string;
  ogTitle: string;
  ogDescription: string;
  ogImage: string;
  ogType: string;
  ogUrl: string;
  noIndex: boolean;
  noFollow: boolean;
  isPublished: boolean;
  status: boolean;
  /** publishAt / unpublishAt as datetime-local values (the browser's zone); "" for none. */
  publishAt: string;
  unpublishAt: string;
}

type ApiPage = Partial<Record<keyof PageFields, unknown>> & { id: string; version: number; pageSections?: ApiSection[] };

const TEXT_FIELDS = [
  'title', 'slug', 'description', 'content', 'image', 'metaTitle', 'metaDescription', 'metaKeywords',
  'canonicalUrl', 'ogTitle', 'ogDescription', 'ogImage', 'ogType', 'ogUrl',
] as const;

/** fieldsOf reads a page record into the form; switches default as the server does. */
export function fieldsOf(p: ApiPage): PageFields {
  const text = Object.fromEntries(TEXT_FIELDS.map((k) => [k, typeof p[k] === 'string' ? (p[k] as string) : ''])) as Record<
    (typeof TEXT_FIELDS)[number],
    string
  >;
  return {
    ...text,
    noIndex: p.noIndex === true,
    noFollow: p.noFollow === true,
    isPublished: p.isPublished !== false,
    status: p.status !== false,
    publishAt: toLocalInput(p.publishAt),
    unpublishAt: toLocalInput(p.unpublishAt),
  };
}

/** snapshot is what "unsaved changes" compares: the fields and the sections as a save would send them. */
function snapshot(fields: PageFields, sections: DraftSection[], types: SectionType[]): string {
  // Quill reports an empty editor as <p><br></p>; it is the same as nothing.
  const content = fields.content === '<p><br></p>' ? '' : fields.content;
  return JSON.stringify({ ...fields, content, sections: sectionsPayload(sections, types) });
}

/** bodyOf is the page as a save sends it (and as the accessibility checker reads it). */
function bodyOf(fields: PageFields, sections: DraftSection[], types: SectionType[]) {
  return {
    ...fields,
    content: fields.content === '<p><br></p>' ? '' : fields.content,
    publishAt: fromLocalInput(fields.publishAt),
    unpublishAt: fromLocalInput(fields.unpublishAt),
    pageSections: sectionsPayload(sections, types),
  };
}

interface Loaded {
  fields: PageFields;
  sections: DraftSection[];
  version: number;
}

/**
 * usePageEditor holds one page in the editor: load, the draft (fields and sections), unsaved
 * changes (sections added, changed, moved or deleted included), and save with the page's version (a
 * 409 keeps the draft and says why).
 */
export function usePageEditor(id: string) {
  const typesQuery = useSWR<ListResult<SectionType>>(keys.list('page-section-types'), fetchers.list<SectionType>, { revalidateIfStale: false });
  const types = useMemo(() => typesQuery.data?.items ?? [], [typesQuery.data]);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  // record is the page as last loaded or saved (what the History panel compares with).
  const [record, setRecord] = useState<ApiPage | null>(null);
  const [fields, setFields] = useState<PageFields | null>(null);
  const [sections, setSections] = useState<DraftSection[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [loadError, setLoadError] = useState('');
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState(false);
  const savingRef = useRef(false);
  // Issue 35: every language's unsaved translations of the page's fields, saved with them.
  const translations = useTranslationEdits();
  // Issue 36: the page's draft and live copies (GET /pages/{id}/draft); edits go to the draft
  // once it exists, and always for a user without the publish right; autosaved while typing.
  const { user } = useApp();
  const holdsRight = hasPermission(user, 'CMS_PUBLISH_PAGE');
  const [wf, setWf] = useState<DraftAnswer | null>(null);
  const [draftConflict, setDraftConflict] = useState('');
  const wfRef = useRef(wf);
  wfRef.current = wf;
  // Issue 37: the checker reads the draft as staff type (sections included).
  const a11y = useAccessibilityCheck('pages', fields ? bodyOf(fields, sections, types) : null);

  const adopt = useCallback((p: ApiPage) => {
    const next = { fields: fieldsOf(p), sections: (p.pageSections ?? []).map(toDraft), version: p.version };
    setLoaded(next);
    setRecord(p);
    translations.adopt(p);
    setFields(next.fields);
    setSections(next.sections);
    setErrors({});
    setConflict(false);
  }, []);

  const load = useCallback(async () => {
    setLoadError('');
    try {
      if (!WORKFLOW) {
        adopt((await dataProvider.one<ApiPage>('pages', id)).result);
        return;
      }
      const answer = (await getDraft('pages', id)).result;
      adopt(editorCopyOf(answer, id) as ApiPage);
      // The history is the live page's (a new page's draft has none).
      setRecord(answer.live as ApiPage | null);
      setWf(answer);
      setDraftConflict('');
    } catch (err) {
      setLoadError(messageOf(err));
    }
  }, [id, adopt]);

  useEffect(() => {
    void load();
  }, [load]);

  const dirty = useMemo(
    () => translations.dirty || (!!loaded && !!fields && snapshot(fields, sections, types) !== snapshot(loaded.fields, loaded.sections, types)),
    [loaded, fields, sections, types, translations.dirty],
  );

  const setField = <K extends keyof PageFields>(name: K, value: PageFields[K]) => {
    setFields((f) => (f ? { ...f, [name]: value } : f));
    setErrors((e) => (e[name] ? { ...e, [name]: '' } : e));
  };

  const draftMode = savesToDraft(wf, holdsRight);
  /**
   * saveToDraft saves the draft (quiet: an autosave, no toast); what is typed meanwhile stays.
   * It answers the draft's version, or null when the save failed.
   */
  const saveToDraft = async (quiet: boolean): Promise<number | null> => {
    if (!fields || !loaded || !wf) return null;
    if (savingRef.current) return null;
    if (!fields.title.trim()) {
      setErrors({ title: PAGE_MSG.titleRequired });
      if (!quiet) toast.error(PAGE_MSG.titleRequired);
      return null;
    }
    savingRef.current = true;
    setSaving(true);
    const sent = { fields, sections };
    const sentTranslations = translations.patch;
    try {
      const res = await saveDraft('pages', id, withTranslations(bodyOf(fields, sections, types), sentTranslations), wf.draft?.version ?? 0);
      setWf((w) => (w ? { ...w, draft: res.result } : w));
      setLoaded({ ...sent, version: res.result.version });
      translations.saved(res.result.fields, sentTranslations);
      setErrors({});
      if (!quiet) toast.success(res.message ?? 'Draft saved!');
      return res.result.version;
    } catch (err) {
      if (err instanceof HttpError && err.status === 409) setDraftConflict(err.message);
      else {
        if (err instanceof HttpError) {
          setErrors(err.errors);
          translations.showErrors(err.errors);
        }
        toast.error(messageOf(err));
      }
      return null;
    } finally {
      savingRef.current = false;
      setSaving(false);
    }
  };
  const current = useMemo(() => (fields ? snapshot(fields, sections, types) : ''), [fields, sections, types]);
  useAutosave(draftMode && dirty && !draftConflict && !saving, current + JSON.stringify(translations.patch ?? null), () => void saveToDraft(true));

  const save = async () => {
    if (draftMode) {
      await saveToDraft(false);
      return;
    }
    if (!fields || !loaded || savingRef.current) return;
    if (!fields.title.trim()) {
      setErrors({ title: PAGE_MSG.titleRequired });
      toast.error(PAGE_MSG.titleRequired);
      return;
    }
    savingRef.current = true;
    setSaving(true);
    try {
      const sentTranslations = translations.patch;
      const body = withTranslations(bodyOf(fields, sections, types), sentTranslations);
      const res = await dataProvider.update<ApiPage>('pages', id, body, loaded.version);
      adopt(res.result);
      translations.saved(res.result, sentTranslations);
      setWf((w) => (w ? { ...w, live: res.result } : w));
      toast.success(res.message ?? 'Saved Changes!');
      void mutateResource('pages');
    } catch (err) {
      if (isStale(err)) {
        setConflict(true);
      } else {
        if (err instanceof HttpError) {
          setErrors(err.errors);
          translations.showErrors(err.errors);
        }
        // Blocked for accessibility errors (422): its findings show beside their fields.
        const found = findingsOfError(err);
        if (found) a11y.show(found);
        toast.error(messageOf(err)); // SPEC §8: page save shows the server's message
      }
    } finally {
      savingRef.current = false;
      setSaving(false);
    }
  };

  /**
   * removeSection drops a section from the draft. Like every other change it takes effect on the
   * page's Save, whose pageSections (the whole list) deletes the sections left out.
   */
  const removeSection = (key: string) => setSections((list) => list.filter((s) => s.key !== key));

  return {
    loading: !fields && !loadError,
    loadError,
    fields,
    setField,
    sections,
    setSections,
    removeSection,
    types,
    errors,
    dirty,
    saving,
    save,
    conflict,
    /** findings are the accessibility checker's, of the draft as it stands (or of a refused save). */
    findings: a11y.findings,
    checking: a11y.checking,
    reload: load,
    record,
    /** translations: the page's other languages (issue 35), edited under the language switch. */
    translations,
    version: loaded?.version,
    /** Drafts (issue 36): the draft answer, whether saves go to it, "Save draft" and flush before a step. */
    wf,
    setWfDraft: (draft: Draft) => setWf((w) => (w ? { ...w, draft: w.draft ? withStep(w.draft, draft) : draft } : w)),
    editsDraft: draftMode,
    draftConflict,
    saveDraft: () => saveToDraft(false),
    flush: async (): Promise<number | null> => {
      // An autosave under way finishes first: the step then names the version it saved.
      for (let i = 0; savingRef.current && i < 200; i++) await new Promise((r) => setTimeout(r, 50));
      if (savingRef.current) return null;
      return dirty ? saveToDraft(true) : (wfRef.current?.draft?.version ?? null);
    },
    /** savedTitle is the title as last loaded or saved. */
    savedTitle: loaded?.fields.title ?? '',
  };
}
