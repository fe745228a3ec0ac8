import { CheckboxField, Text } from '@aws-amplify/ui-react';
import { formatDateTime } from '../../lib/format';
import type { SubmissionRow } from './useSubmissions';
import type { useSelection } from './useSelection';

interface Props {
  rows: SubmissionRow[];
  columns: string[];
  /** The ticked rows, for deleting; absent when the user may not delete. */
  selection?: ReturnType<typeof useSelection>;
  /** busy is the id of the row whose Checked mark is being saved. */
  busy: string | null;
  onChecked: (row: SubmissionRow, checked: boolean) => void;
}

function cellText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return v.join(', ');
  return String(v);
}

const submittedAt = (row: SubmissionRow) => (row.createdAt ? formatDateTime(String(row.createdAt)) : '');
const nameOf = (row: SubmissionRow) => `submission of ${submittedAt(row) || row.id}`;

/** SubmissionsTable is one page of submissions: one column per submitted key (SPEC §2), the Checked mark and, to delete, a tick per row and one for the page. */
export function SubmissionsTable({ rows, columns, selection, busy, onChecked }: Props) {
  return (
    <div className="table-scroll">
      <table className="data-table data-table--cards">
        <thead>
          <tr>
            {selection && (
              <th scope="col" className="select-cell">
                <CheckboxField
                  label="Select all submissions on this page"
                  labelHidden
                  name="select-all"
                  checked={selection.all}
                  isIndeterminate={selection.some}
                  onChange={(e) => selection.toggleAll(e.target.checked)}
                />
              </th>
            )}
            <th scope="col">Checked</th>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
            <th scope="col">Submitted At</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className={row.checked ? 'submission--checked' : undefined}>
              {selection && (
                <td className="select-cell" data-label="Select">
                  <CheckboxField
                    label={`Select ${nameOf(row)}`}
                    labelHidden
                    name={`select-${row.id}`}
                    checked={selection.isSelected(row.id)}
                    onChange={(e) => selection.toggle(row.id, e.target.checked)}
                  />
                </td>
              )}
              <td data-label="Checked">
                <CheckboxField
                  label={`Checked: ${nameOf(row)}`}
                  labelHidden
                  name={`checked-${row.id}`}
                  checked={row.checked === true}
                  isDisabled={busy === row.id}
                  onChange={(e) => onChecked(row, e.target.checked)}
                />
              </td>
              {columns.map((c) => (
                <td key={c} data-label={c}>
                  <Text as="span">{cellText(row[c])}</Text>
                </td>
              ))}
              <td data-label="Submitted At">{submittedAt(row)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
