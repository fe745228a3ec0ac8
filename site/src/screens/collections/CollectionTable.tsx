import { Badge, Button, Flex, SelectField } from '@aws-amplify/ui-react';
import type { ComponentType } from 'react';
import { Link } from 'react-router';
import { useApp } from '../../app/AppContext';
import { isStatusField, listColumns, type ApiRecord, type CollectionDecl, type FieldDecl, type SortState } from '../../lib/collections';
import { formatBytes, mediaUrl, stripHtml, toBool, trimText } from '../../lib/format';
import { ScheduleChip } from '../../components/ScheduleChip';
import { useRefName } from './useRefOptions';
import { Thumbnail } from '../../components/media-picker/Thumbnail';
import { TranslationBadges, useListLanguages } from '../translations/TranslationBadges';

export interface RowLink {
  label: string;
  to: (id: string) => string;
}

export interface RowAction {
  label: string;
  /** The question asked before it runs. */
  confirm: (row: ApiRecord) => string;
  /** Runs it; the answer's message is shown. */
  run: (row: ApiRecord) => Promise<{ message?: string }>;
}

/** RowDialog is a per-row button opening a dialog about the row (a preview), for every viewer. */
export interface RowDialog {
  label: string;
  Dialog: ComponentType<{ row: ApiRecord; onClose: () => void }>;
}

interface Props {
  decl: CollectionDecl;
  rows: ApiRecord[];
  sort: SortState | null;
  onSort: (field: string) => void;
  /** sortable, when set, are the only columns the server can sort this list by (it is large). */
  sortable?: string[];
  canEdit: boolean;
  canDelete: boolean;
  onEdit: (row: ApiRecord) => void;
  onDelete: (row: ApiRecord) => void;
  deleting: string | null;
  rowLinks?: RowLink[];
  rowActions?: RowAction[];
  onAction?: (action: RowAction, row: ApiRecord) => void;
  acting?: string | null;
  rowDialogs?: RowDialog[];
  onDialog?: (dialog: RowDialog, row: ApiRecord) => void;
  /** cells draw the named fields' cells themselves. */
  cells?: Record<string, ComponentType<{ row: ApiRecord }>>;
}

function Trimmed({ text }: { text: string }) {
  if (!text) return <span className="muted">-</span>;
  const short = trimText(text);
  return <span title={short === text ? undefined : text}>{short}</span>;
}

function RefCell({ field, value }: { field: FieldDecl; value: unknown }) {
  const { name, loaded } = useRefName(field.ref, value);
  if (value === undefined || value === null || value === '') return <span className="muted">-</span>;
  return <Trimmed text={name ?? (loaded ? String(value) : '...')} />;
}

function Cell({ field, value, row }: { field: FieldDecl; value: unknown; row: ApiRecord }) {
  const { objectUrlPrefix } = useApp();
  if (field.derived && field.name === 'schedule') {
    // The state now, from the record's dates (the stored one follows within a minute).
    return <ScheduleChip publishAt={row.publishAt} unpublishAt={row.unpublishAt} />;
  }
  if (isStatusField(field)) {
    return toBool(value) ? <Badge variation="success">Active</Badge> : <Badge variation="error">Inactive</Badge>;
  }
  switch (field.type) {
    case 'boolean':
      return <>{toBool(value) ? 'Yes' : 'No'}</>;
    case 'reference':
      return <RefCell field={field} value={value} />;
    case 'image': {
      return typeof value === 'string' && value ? (
        <Thumbnail className="cell-thumb" fileUrl={value} objectUrlPrefix={objectUrlPrefix} alt={field.label} />
      ) : (
        <span className="muted">-</span>
      );
    }
    case 'file': {
      const src = typeof value === 'string' ? mediaUrl(value, objectUrlPrefix) : '';
      return src ? (
        <a href={src} target="_blank" rel="noreferrer" title={String(value)}>
          {trimText(String(value).split('/').pop() ?? '')}
        </a>
      ) : (
        <span className="muted">-</span>
      );
    }
    case 'date':
      return <Trimmed text={typeof value === 'string' ? value.slice(0, 10) : ''} />;
    case 'richtext':
      return <Trimmed text={typeof value === 'string' ? stripHtml(value) : ''} />;
    case 'number':
      if (field.format === 'bytes') return <Trimmed text={formatBytes(value)} />;
      return <Trimmed text={value === undefined || value === null ? '' : String(value)} />;
    default:
      return <Trimmed text={value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value)} />;
  }
}

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

/** canSortBy: every column while the server allows it, else only the ones it names. */
function canSortBy(sortable: string[] | undefined, field: string): boolean {
  return !sortable || sortable.includes(field);
}

/** sortHint is the tooltip of a header the server cannot sort by on a large list. */
function sortHint(sortable: string[], decl: CollectionDecl): string {
  const labels = sortable.map((f) => (f === 'updatedAt' ? 'last update' : f === 'createdAt' ? 'creation date' : (decl.fields.find((x) => x.name === f)?.label ?? f)));
  return `This list is too large to sort by this column. It can be sorted by ${labels.join(', ')}.`;
}

/**
 * SortSelect is the sort control of a list shown as cards (below a tablet's width, where the
 * table's header row is hidden): a column and an order, through the same onSort as the headers.
 */
function SortSelect({ columns, sort, sortable, onSort }: { columns: FieldDecl[]; sort: SortState | null; sortable?: string[]; onSort: (field: string) => void }) {
  const usable = columns.filter((f) => canSortBy(sortable, f.name));
  if (usable.length === 0) return null;
  const choose = (value: string) => {
    const [field, order] = value.split(':');
    if (!field) return;
    // onSort toggles: a new column starts ascending, the same column flips its order.
    const steps = sort?.field === field ? (sort.order === order ? 0 : 1) : order === 'asc' ? 1 : 2;
    for (let i = 0; i < steps; i++) onSort(field);
  };
  return (
    <SelectField label="Sort by" size="small" className="sort-select" value={sort ? `${sort.field}:${sort.order}` : ''} onChange={(e) => choose(e.target.value)}>
      {!sort && <option value="">Default order</option>}
      {usable.flatMap((f) => [
        <option key={`${f.name}:asc`} value={`${f.name}:asc`}>
          {f.label}, ascending
        </option>,
        <option key={`${f.name}:desc`} value={`${f.name}:desc`}>
          {f.label}, descending
        </option>,
      ])}
    </SelectField>
  );
}

/** CollectionTable lists records: sortable headers, typed cells, per-row actions by permission. */
export function CollectionTable({
  decl,
  rows,
  sort,
  onSort,
  sortable,
  canEdit,
  canDelete,
  onEdit,
  onDelete,
  deleting,
  rowLinks = [],
  rowActions = [],
  onAction,
  acting,
  rowDialogs = [],
  onDialog,
  cells = {},
}: Props) {
  const columns = listColumns(decl);
  // Issue 35: each row's translation status, when the site has other languages.
  const langs = useListLanguages(decl);
  const actions = canEdit ? rowActions : [];
  const hasActions = canEdit || canDelete || rowLinks.length > 0 || rowDialogs.length > 0;
  return (
    <div className="table-scroll">
      <SortSelect columns={columns} sort={sort} sortable={sortable} onSort={onSort} />
      <table className="data-table data-table--cards">
        <thead>
          <tr>
            {columns.map((f) => {
              const active = sort?.field === f.name;
              return (
                <th key={f.name} scope="col" aria-sort={active ? ARIA_SORT[sort.order] : 'none'}>
                  <button
                    type="button"
                    className="sort-button"
                    onClick={() => onSort(f.name)}
                    disabled={!canSortBy(sortable, f.name)}
                    title={canSortBy(sortable, f.name) ? undefined : sortHint(sortable ?? [], decl)}
                  >
                    {f.label}
                    <span className="sort-mark" aria-hidden="true">
                      {active ? (sort.order === 'asc' ? '▲' : '▼') : '↕'}
                    </span>
                  </button>
                </th>
              );
            })}
            {langs && <th scope="col">Translations</th>}
            {hasActions && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              {columns.map((f) => {
                const Own = cells[f.name];
                return <td key={f.name} data-label={f.label}>{Own ? <Own row={row} /> : <Cell field={f} value={row[f.name]} row={row} />}</td>;
              })}
              {langs && (
                <td data-label="Translations">
                  <TranslationBadges row={row} langs={langs} />
                </td>
              )}
              {hasActions && (
                <td className="row-actions">
                  <Flex gap="xs" wrap="nowrap">
                    {rowLinks.map((l) => (
                      <Link key={l.label} className="amplify-button amplify-button--small amplify-button--link" to={l.to(row.id)}>
                        {l.label}
                      </Link>
                    ))}
                    {rowDialogs.map((d) => (
                      <Button key={d.label} size="small" onClick={() => onDialog?.(d, row)}>
                        {d.label}
                      </Button>
                    ))}
                    {actions.map((a) => (
                      <Button key={a.label} size="small" onClick={() => onAction?.(a, row)} isLoading={acting === `${a.label}:${row.id}`}>
                        {a.label}
                      </Button>
                    ))}
                    {canEdit && (
                      <Button size="small" onClick={() => onEdit(row)}>
                        Edit
                      </Button>
                    )}
                    {canDelete && (
                      <Button size="small" variation="destructive" onClick={() => onDelete(row)} isLoading={deleting === row.id}>
                        Delete
                      </Button>
                    )}
                  </Flex>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
