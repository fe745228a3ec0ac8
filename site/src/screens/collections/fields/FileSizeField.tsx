import { TextField } from '@aws-amplify/ui-react';
import type { FieldDecl } from '../../../lib/collections';
import { formatBytes } from '../../../lib/format';

interface Props {
  field: FieldDecl;
  /** The size in bytes: the stored one, or the chosen file's from its media record. */
  value: unknown;
  /** The file reference the size belongs to. */
  file: unknown;
}

/**
 * FileSizeField shows a size the server takes from the chosen media library file (a sizeOf
 * field): read-only, never typed in; the chosen file's size as soon as it is picked.
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
