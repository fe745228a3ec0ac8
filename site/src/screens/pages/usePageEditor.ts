import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import useSWR from 'swr';
import { dataProvider, fetchers, isStale, keys, mutateResource, type ListResult } from '../../api/dataProvider';
import { HttpError, messageOf } from '../../api/http';
import { findingsOfError, useAccessibilityCheck } from '../../components/a11y/useAccessibilityCheck';
import { sectionsPayload, toDraft, type ApiSection, type DraftSection, type SectionType } from '../../lib/pageSections';
import { fromLocalInput, toLocalInput } from '../../lib/schedule';
import { PAGE_MSG } from './messages';

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
  // Issue 37: the checker reads the draft as staff type (sections included).
  const a11y = useAccessibilityCheck('pages', fields ? bodyOf(fields, sections, types) : null);

  const adopt = useCallback((p: ApiPage) => {
    const next = { fields: fieldsOf(p), sections: (p.pageSections ?? []).map(toDraft), version: p.version };
    setLoaded(next);
    setRecord(p);
    setFields(next.fields);
    setSections(next.sections);
    setErrors({});
    setConflict(false);
  }, []);

  const load = useCallback(async () => {
    setLoadError('');
    try {
      const res = await dataProvider.one<ApiPage>('pages', id);
      adopt(res.result);
    } catch (err) {
      setLoadError(messageOf(err));
    }
  }, [id, adopt]);

  useEffect(() => {
    void load();
  }, [load]);

  const dirty = useMemo(
    () => !!loaded && !!fields && snapshot(fields, sections, types) !== snapshot(loaded.fields, loaded.sections, types),
    [loaded, fields, sections, types],
  );

  const setField = <K extends keyof PageFields>(name: K, value: PageFields[K]) => {
    setFields((f) => (f ? { ...f, [name]: value } : f));
    setErrors((e) => (e[name] ? { ...e, [name]: '' } : e));
  };

  const save = async () => {
    if (!fields || !loaded || savingRef.current) return;
    if (!fields.title.trim()) {
      setErrors({ title: PAGE_MSG.titleRequired });
      toast.error(PAGE_MSG.titleRequired);
      return;
    }
    savingRef.current = true;
    setSaving(true);
    try {
      const body = bodyOf(fields, sections, types);
      const res = await dataProvider.update<ApiPage>('pages', id, body, loaded.version);
      adopt(res.result);
      toast.success(res.message ?? 'Saved Changes!');
      void mutateResource('pages');
    } catch (err) {
      if (isStale(err)) {
        setConflict(true);
      } else {
        if (err instanceof HttpError) setErrors(err.errors);
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
    version: loaded?.version,
    /** savedTitle is the title as last loaded or saved. */
    savedTitle: loaded?.fields.title ?? '',
  };
}
