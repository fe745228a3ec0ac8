import { Alert, Button, Flex, Grid } from '@aws-amplify/ui-react';
import type { MediaItem } from '../../components/media-picker/rules';
import { ScheduleChip } from '../../components/ScheduleChip';
import { isStatusField, type CollectionDecl, type FieldErrors, type FormValues } from '../../lib/collections';
import { fromLocalInput } from '../../lib/schedule';
import { FieldInput, WIDE_TYPES } from './fields/FieldInput';
import { FileSizeField } from './fields/FileSizeField';
import { WithFindings } from '../../components/a11y/Findings';
import type { Finding } from '../../lib/a11y';

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
  /** findings are the accessibility checker's, by field name; each shows below its field. */
  findings?: Record<string, Finding[]>;
}

/**
 * RecordFields lays a declared collection's fields out in two columns, wide types across both. A
 * derived field is the server's to set: a scheduled collection shows its schedule state as a
 * Scheduled / Live / Expired chip beside the status switch, from the dates being edited; a file
 * size (sizeOf) is shown read-only and emptied when another file is chosen, until the save sets it.
 */
export function RecordFields({ decl, editing, values, errors, setField, findings = {} }: FieldsProps) {
  const set = (name: string, value: unknown, picked?: MediaItem) => {
    setField(name, value);
    // The chosen file's size shows at once (the save takes it from the same media record).
    for (const f of decl.fields) if (f.sizeOf === name && value !== values[name]) setField(f.name, picked?.fileSize ?? '');
  };
  return (
    <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr' }} gap="medium">
      {decl.fields
        .filter((f) => !f.derived || f.sizeOf)
        .map((f) => (
          <WithFindings key={f.name} findings={findings[f.name]} className={WIDE_TYPES.has(f.type) || f.type === 'languages' ? 'form-cell form-cell--wide' : 'form-cell'}>
            {f.sizeOf ? (
              <FileSizeField field={f} value={values[f.name]} file={values[f.sizeOf]} />
            ) : decl.scheduled && isStatusField(f) ? (
              <Flex alignItems="center" gap="small">
                <FieldInput field={f} value={values[f.name]} error={errors[f.name]} editing={editing} onChange={(v) => set(f.name, v)} />
                <ScheduleChip publishAt={fromLocalInput(values.publishAt)} unpublishAt={fromLocalInput(values.unpublishAt)} />
              </Flex>
            ) : (
              <FieldInput
                field={f}
                value={values[f.name]}
                error={errors[f.name]}
                editing={editing}
                holdsAll={f.allWhen ? values[f.allWhen] === true : false}
                values={values}
                onChange={(v, picked) => set(f.name, v, picked)}
              />
            )}
          </WithFindings>
        ))}
    </Grid>
  );
}
