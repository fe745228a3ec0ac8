import { Alert, Button, Flex, Grid, Loader } from '@aws-amplify/ui-react';
import type { FormEvent } from 'react';
import type { CollectionDecl, FieldErrors, FormValues } from '../../lib/collections';
import { FieldInput, WIDE_TYPES } from './fields/FieldInput';

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
}

/** RecordForm is the one create/edit form of every collection: two columns, Cancel and Save. */
export function RecordForm({ decl, editing, values, errors, loading, saving, conflict, setField, onSave, onCancel, onReload }: Props) {
  return (
    <form onSubmit={onSave} noValidate aria-label={`${editing ? 'Edit' : 'Create'} ${decl.title}`} aria-busy={loading}>
      {conflict && (
        <Alert variation="warning" marginBottom="medium" role="alert">
          <Flex alignItems="center" gap="small" wrap="wrap">
            <span>{conflict}</span>
            <Button size="small" onClick={onReload} isLoading={loading}>
              Reload
            </Button>
          </Flex>
        </Alert>
      )}
      <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr' }} gap="medium">
        {decl.fields.map((f) => (
          <div key={f.name} className={WIDE_TYPES.has(f.type) ? 'form-cell form-cell--wide' : 'form-cell'}>
            <FieldInput field={f} value={values[f.name]} error={errors[f.name]} editing={editing} onChange={(v) => setField(f.name, v)} />
          </div>
        ))}
      </Grid>
      <Flex gap="small" marginTop="large" justifyContent="flex-end" alignItems="center">
        {loading && <Loader />}
        <Button type="button" onClick={onCancel} isDisabled={saving}>
          Cancel
        </Button>
        <Button type="submit" variation="primary" isLoading={saving} loadingText="Please wait..." isDisabled={loading}>
          Save
        </Button>
      </Flex>
    </form>
  );
}
