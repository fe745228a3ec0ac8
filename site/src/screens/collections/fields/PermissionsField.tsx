import { CheckboxField, Loader, Text } from '@aws-amplify/ui-react';
import { useEffect, useMemo } from 'react';
import useSWR from 'swr';
import { swrFetcher } from '../../../api/client';

export interface PermissionItem {
  id: string;
  code: string;
  name: string;
  category: string;
  action: string;
}

export interface PermissionsResponse {
  permissions: PermissionItem[];
  result: string[];
  permissionsGrouped: Record<string, PermissionItem[]>;
}

interface Props {
  label: string;
  value: string[];
  /** Shows every permission held, none editable: an administrator passes every check. */
  holdsAll?: boolean;
  onChange: (value: string[]) => void;
  errorMessage?: string;
}

/** ADMIN_NOTE explains why an administrator's permissions are all checked and locked. */
const ADMIN_NOTE = 'An administrator holds every permission.';

const ACTION_ORDER = ['VIEW', 'CREATE', 'EDIT', 'DELETE', 'PUBLISH'];

function byAction(a: PermissionItem, b: PermissionItem): number {
  const ia = ACTION_ORDER.indexOf(a.action);
  const ib = ACTION_ORDER.indexOf(b.action);
  return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.code.localeCompare(b.code);
}

/** groupLabel names a category after its permissions ("View FAQs" → "FAQs"), else from its code. */
function groupLabel(category: string, items: PermissionItem[]): string {
  const fromName = items[0]?.name?.replace(/^\S+\s+/, '').trim();
  if (fromName) return fromName;
  return category
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/**
 * PermissionsField edits a list of permission codes as checkboxes grouped by category (GET
 * /permissions). For an administrator (holdsAll) every box is checked and disabled, with a note;
 * the list itself is kept as it was, for when the administrator right is taken away.
 */
export function PermissionsField({ label, value, holdsAll = false, onChange, errorMessage }: Props) {
  const { data, error } = useSWR<PermissionsResponse>('/permissions', swrFetcher, { revalidateOnFocus: false });
  // Codes the catalogue no longer offers (a role saved before it was narrowed to codes a route
  // checks) are dropped from the draft, so the next save is not refused for a box nobody can see.
  const offered = useMemo(() => new Set(Object.values(data?.permissionsGrouped ?? {}).flatMap((items) => items.map((p) => p.id))), [data]);
  const stale = data ? value.filter((id) => !offered.has(id)) : [];
  useEffect(() => {
    if (stale.length > 0) onChange(value.filter((id) => offered.has(id)));
  }, [stale.length, value, offered, onChange]);
  const own = new Set(value);
  const selected = { has: (id: string) => holdsAll || own.has(id) };
  const toggle = (ids: string[], on: boolean) => {
    const next = new Set(own);
    for (const id of ids) {
      if (on) next.add(id);
      else next.delete(id);
    }
    onChange([...next]);
  };

  return (
    <fieldset className="permissions-field">
      <legend className="permissions-legend">{label}</legend>
      {holdsAll && <Text className="permissions-note">{ADMIN_NOTE}</Text>}
      {error && <Text color="font.error">Could not load permissions.</Text>}
      {!data && !error && <Loader />}
      {data && (
        <div className="permissions-groups">
          {Object.entries(data.permissionsGrouped ?? {})
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([category, items]) => {
              const sorted = [...items].sort(byAction);
              const ids = sorted.map((p) => p.id);
              const title = groupLabel(category, sorted);
              const all = ids.every((id) => selected.has(id));
              const some = ids.some((id) => selected.has(id));
              return (
                <div className="permissions-group" key={category} role="group" aria-label={title}>
                  <CheckboxField
                    name={`group-${category}`}
                    label={<strong>{title}</strong>}
                    checked={all}
                    isIndeterminate={some && !all}
                    isDisabled={holdsAll}
                    onChange={(e) => toggle(ids, e.target.checked)}
                    value="all"
                  />
                  <div className="permissions-items">
                    {sorted.map((p) => (
                      <CheckboxField
                        key={p.id}
                        name={p.code}
                        label={p.name || p.action}
                        title={p.code}
                        value={p.id}
                        checked={selected.has(p.id)}
                        isDisabled={holdsAll}
                        onChange={(e) => toggle([p.id], e.target.checked)}
                      />
                    ))}
                  </div>
                </div>
              );
            })}
        </div>
      )}
      {errorMessage && <Text color="font.error">{errorMessage}</Text>}
    </fieldset>
  );
}
