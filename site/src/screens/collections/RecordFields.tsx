import { Alert, Button, Flex, Grid } from '@aws-amplify/ui-react';
import type { CollectionDecl, FieldErrors, FormValues } from '../../lib/collections';
import { FieldInput, WIDE_TYPES } from './fields/FieldInput';

/** ConflictAlert tells that someone else saved the record first and offers to reload it. */
export function ConflictAlert({ message, loading, onReload }: { message: string | null; loading?: boolean; onReload: () => void }) {
  if (!message) return null;
  return (
    <Alert variation="warning" marginBottom="medium" role="alert">
      <Flex alignItems="center" gap="small" wrap="wrap">
        <span>{message}</span>
        <Button size="small" onClick={onReload} isLoading={loading}>
          Reload
        </Button>
      </Flex>
    </Alert>
  );
}

interface FieldsProps {
  decl: CollectionDecl;
  editing: boolean;
  values: FormValues;
  errors: FieldErrors;
  setField: (name: string, value: unknown) => void;
}

/** RecordFields lays a declared collection's fields out in two columns, wide types across both. */
export function RecordFields({ decl, editing, values, errors, setField }: FieldsProps) {
  return (
    <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr' }} gap="medium">
      {decl.fields.map((f) => (
        <div key={f.name} className={WIDE_TYPES.has(f.type) ? 'form-cell form-cell--wide' : 'form-cell'}>
          <FieldInput field={f} value={values[f.name]} error={errors[f.name]} editing={editing} onChange={(v) => setField(f.name, v)} />
        </div>
      ))}
    </Grid>
  );
}
