import { Button, Flex, Loader } from '@aws-amplify/ui-react';
import type { FormEvent } from 'react';
import { HistoryPanel } from '../../components/history/HistoryPanel';
import type { ApiRecord, CollectionDecl, FieldErrors, FormValues } from '../../lib/collections';
import { ConflictAlert, RecordFields } from './RecordFields';

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
}

/** RecordForm is the one create/edit form of every collection: two columns, Cancel and Save. */
export function RecordForm({ decl, editing, values, errors, loading, saving, conflict, setField, onSave, onCancel, onReload, record, canRestore = false }: Props) {
  return (
    <form onSubmit={onSave} noValidate aria-label={`${editing ? 'Edit' : 'Create'} ${decl.title}`} aria-busy={loading}>
      <ConflictAlert message={conflict} loading={loading} onReload={onReload} />
      <RecordFields decl={decl} editing={editing} values={values} errors={errors} setField={setField} />
      <Flex gap="small" marginTop="large" justifyContent="flex-end" alignItems="center">
        {loading && <Loader />}
        <Button type="button" onClick={onCancel} isDisabled={saving}>
          Cancel
        </Button>
        <Button type="submit" variation="primary" isLoading={saving} loadingText="Please wait..." isDisabled={loading}>
          Save
        </Button>
      </Flex>
      {editing && record && <HistoryPanel decl={decl} id={record.id} current={record} canRestore={canRestore} onRestored={onReload} />}
    </form>
  );
}
