import { TextField } from '@aws-amplify/ui-react';
import type { FieldDecl } from '../../../lib/collections';
import { formatBytes } from '../../../lib/format';

interface Props {
  field: FieldDecl;
  /** The stored size in bytes; empty once another file is chosen, until the save. */
  value: unknown;
  /** The file reference the size belongs to. */
  file: unknown;
}

/**
 * FileSizeField shows a size the server takes from the chosen media library file (a sizeOf
 * field): read-only, never typed in; after another file is chosen it says the save will set it.
 */
export function FileSizeField({ field, value, file }: Props) {
  const size = formatBytes(value);
  return (
    <TextField
      label={field.label}
      name={field.name}
      value={size}
      isReadOnly
      placeholder={file ? 'Set from the chosen file when you save' : 'Choose a file first'}
      descriptiveText="Taken from the file in the media library"
    />
  );
}
