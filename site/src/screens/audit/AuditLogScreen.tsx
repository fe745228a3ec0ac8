import { Button, Card, Flex, Heading, Loader, SelectField, Text, TextField } from '@aws-amplify/ui-react';
import { useCallback, useEffect, useState } from 'react';
import { dataProvider, keys } from '../../api/dataProvider';
import { useDownload } from '../../api/download';
import { LoadError } from '../../components/LoadError';
import { COLLECTIONS } from '../../lib/collections';
import { formatDateTime } from '../../lib/format';
import '../collections/collections.css';
import { ACTIONS, EMPTY_FILTER, what, type AuditEntry, type AuditFilter } from './auditLog';

/** AUDIT_PAGE_SIZE is how many entries one page of the log asks for. */
const AUDIT_PAGE_SIZE = 50;

/**
 * AuditLogScreen is the tenant's audit log: newest first, narrowed by user, collection, action
 * and dates, a page at a time ("Load more" follows the server's cursor), and its CSV export.
 */
export function AuditLogScreen() {
  const [filter, setFilter] = useState<AuditFilter>(EMPTY_FILTER);
  const [applied, setApplied] = useState<AuditFilter>(EMPTY_FILTER);
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [cursor, setCursor] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(false);
  const csv = useDownload();
  const [users, setUsers] = useState<Array<{ id: string; username: string }>>([]);

  const load = useCallback(async (f: AuditFilter, after = '') => {
    setLoading(true);
    setError(null);
    try {
      const res = await dataProvider.list<AuditEntry>('audit-log', { limit: AUDIT_PAGE_SIZE, filter: { ...f }, cursor: after });
      setEntries((prev) => (after && prev ? [...prev, ...res.items] : res.items));
      setCursor(res.nextCursor ?? '');
    } catch (err) {
      setError(err);
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load(EMPTY_FILTER);
    dataProvider
      .list<{ id: string; username: string }>('users', { limit: 100, sort: 'username', order: 'asc' })
      .then((res) => setUsers(res.items))
      .catch(() => setUsers([]));
  }, [load]);

  const set = (k: keyof AuditFilter) => (e: { target: { value: string } }) => setFilter((f) => ({ ...f, [k]: e.target.value }));
  const apply = (e: React.FormEvent) => {
    e.preventDefault();
    setApplied(filter);
    void load(filter);
  };
  const exportCsv = () => csv.start(keys.list('audit-log/export', { filter: { ...applied } }));

  return (
    <Card variation="outlined" className="panel">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <Heading level={2} className="screen-heading">
          Audit Log
        </Heading>
        <Button onClick={() => void exportCsv()} isLoading={csv.downloading} loadingText="Please wait..." isDisabled={!!error}>
          Export CSV
        </Button>
      </Flex>
      <form onSubmit={apply} aria-label="Filter the audit log" className="audit-filters">
        <Flex gap="small" wrap="wrap" alignItems="flex-end" marginTop="small">
          <SelectField label="User" value={filter.user} onChange={set('user')}>
            <option value="">Everyone</option>
            {users.map((u) => (
              <option key={u.id} value={u.id}>
                {u.username}
              </option>
            ))}
          </SelectField>
          <SelectField label="What" value={filter.collection} onChange={set('collection')}>
            <option value="">Everything</option>
            <option value="menu">Menu</option>
            {Object.values(COLLECTIONS).map((c) => (
              <option key={c.key} value={c.key}>
                {c.titlePlural}
              </option>
            ))}
          </SelectField>
          <SelectField label="Action" value={filter.action} onChange={set('action')}>
            <option value="">Any</option>
            {ACTIONS.map(([a, label]) => (
              <option key={a} value={a}>
                {label}
              </option>
            ))}
          </SelectField>
          <TextField label="From" type="date" value={filter.from} onChange={set('from')} />
          <TextField label="To" type="date" value={filter.to} onChange={set('to')} />
          <Button type="submit" variation="primary">
            Apply
          </Button>
        </Flex>
      </form>
      {Boolean(error) && <LoadError error={error} onRetry={() => load(applied)} />}
      {!error && entries === null && <Loader />}
      {entries?.length === 0 && <Text marginTop="medium">No entries match.</Text>}
      {entries && entries.length > 0 && (
        <table className="data-table data-table--cards" aria-label="Audit log entries">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">User</th>
              <th scope="col">What</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td data-label="When">{formatDateTime(e.at)}</td>
                <td data-label="User">{e.username || '—'}</td>
                <td data-label="What">{what(e)}</td>
                <td data-label="From" title={e.userAgent}>{e.address || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {cursor && (
        <Flex justifyContent="center" marginTop="medium">
          <Button onClick={() => void load(applied, cursor)} isLoading={loading} loadingText="Please wait...">
            Load more
          </Button>
        </Flex>
      )}
    </Card>
  );
}
