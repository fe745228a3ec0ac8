import { Button, Flex, Loader } from '@aws-amplify/ui-react';
import { Suspense, useMemo, useState, type FormEvent } from 'react';
import { FindingsCount, FindingsList } from '../../components/a11y/Findings';
import { placeFindings, type Finding } from '../../lib/a11y';
import { HistoryPanel } from '../../components/history/HistoryPanel';
import { toPayload, type ApiRecord, type CollectionDecl, type FieldErrors, type FormValues } from '../../lib/collections';
import { ConflictAlert, RecordFields } from './RecordFields';
import type { FormDialog } from './screenOptions';
import { TranslationArea } from '../translations/TranslationArea';
import type { TranslationEditor } from '../translations/useTranslationEdits';
import { DraftBar } from '../drafts/DraftBar';
import type { RecordDraft } from '../drafts/useRecordDraft';

interface Props {
  decl: CollectionDecl;
  editing: boolean;
  values: FormValues;
  errors: FieldErrors;
  loading: boolean;
  saving: boolean;
  conflict: string | null;
  setField: (name: string, value: unknown) => void;
  onSave: (e: FormEvent) => void;
  onCancel: () => void;
  onReload: () => void;
  /** record is the stored copy being edited; with it the form offers its history. */
  record?: ApiRecord | null;
  canRestore?: boolean;
  /** formDialogs open over the form with what it holds (a preview of unsaved input). */
  formDialogs?: FormDialog[];
  /** findings are the accessibility checker's findings of the record as the form holds it. */
  findings?: Finding[];
  checking?: boolean;
  /** translations: the record's other languages (issue 35), edited under a language switch. */
  translations?: TranslationEditor;
  /** drafts: a workflow collection's draft of the record (issue 36); onGone closes the form once its record is gone. */
  drafts?: RecordDraft;
  onGone?: () => void;
}

/** RecordForm is the one create/edit form of every collection: two columns, Cancel and Save. */
export function RecordForm({ decl, editing, values, errors, loading, saving, conflict, setField, onSave, onCancel, onReload, record, canRestore = false, formDialogs = [], findings = [], checking = false, translations, drafts, onGone }: Props) {
  const placed = useMemo(() => placeFindings(findings, decl.fields.map((f) => f.name)), [findings, decl]);
  const [open, setOpen] = useState<{ d: FormDialog; body: Record<string, unknown> } | null>(null);
  return (
    <form onSubmit={onSave} noValidate aria-label={`${editing ? 'Edit' : 'Create'} ${decl.title}`} aria-busy={loading}>
      <ConflictAlert message={conflict} loading={loading} onReload={onReload} />
      {editing && drafts?.wf && drafts.id && (
        <DraftBar
          decl={decl}
          id={drafts.id}
          answer={drafts.wf}
          editsDraft={drafts.draftMode}
          status={drafts.saving ? 'saving' : drafts.dirty ? 'unsaved' : 'saved'}
          flush={drafts.flush}
          onDraft={drafts.setDraft}
          onDone={(_, gone) => (gone ? onGone?.() : onReload())}
          conflict={drafts.conflict}
          onReload={onReload}
        />
      )}
      <TranslationArea fields={decl.fields} tr={translations} defaults={values} errors={errors}>
        <RecordFields decl={decl} editing={editing} values={values} errors={errors} setField={setField} findings={placed.byField} />
      </TranslationArea>
      {placed.other.length > 0 && (
        <div className="a11y-other">
          <FindingsList findings={placed.other} />
        </div>
      )}
      <Flex gap="small" marginTop="large" justifyContent="flex-end" alignItems="center" wrap="wrap">
        <FindingsCount findings={findings} checking={checking} />
        {loading && <Loader />}
        {formDialogs.map((d) => (
          <Button key={d.label} type="button" onClick={() => setOpen({ d, body: toPayload(decl, values) })} isDisabled={loading}>
            {d.label}
          </Button>
        ))}
        <Button type="button" onClick={onCancel} isDisabled={saving}>
          Cancel
        </Button>
        {editing && drafts?.wf && !drafts.draftMode && drafts.id && (
          <Button type="button" onClick={() => void drafts.save(drafts.id!, toPayload(decl, values), false)} isDisabled={loading || saving || drafts.saving}>
            Save draft
          </Button>
        )}
        <Button type="submit" variation="primary" isLoading={saving} loadingText="Please wait..." isDisabled={loading}>
          {drafts && (editing ? drafts.draftMode : drafts.createsDraft) ? 'Save draft' : 'Save'}
        </Button>
      </Flex>
      {editing && record && <HistoryPanel decl={decl} id={record.id} current={record} canRestore={canRestore} onRestored={onReload} />}
      {open && (
        <Suspense fallback={null}>
          <open.d.Dialog body={open.body} onClose={() => setOpen(null)} />
        </Suspense>
      )}
    </form>
  );
}
