import { Badge, Button, Card, Flex, Heading, Loader, SelectField, Text } from '@aws-amplify/ui-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import useSWRInfinite from 'swr/infinite';
import { useApp } from '../../app/AppContext';
import { dataProvider, fetchers, keys, mutateResource, type Reply } from '../../api/dataProvider';
import { HttpError, messageOf } from '../../api/http';
import { LoadError } from '../../components/LoadError';
import { useConfirm } from '../../components/useConfirm';
import { formatDateTime } from '../../lib/format';
import '../collections/collections.css';
import './trash.css';
import {
  canPurge,
  canRestore,
  confirmPurgeMessage,
  entryKey,
  formatDate,
  emptyMessage,
  kindName,
  kindOptions,
  markedPurging,
  purgeFinished,
  withoutEntry,
  type TrashEntry,
  type TrashPage,
} from './trash';

const KINDS = kindOptions();

/**
 * TrashScreen lists what was deleted in the last 30 days, newest first, a page at a time ("Load
 * more" follows the server's cursor), narrowed by kind; each entry can be restored or deleted
 * forever by whoever holds the kind's CREATE or DELETE right.
 */
export function TrashScreen() {
  const { user } = useApp();
  const [kind, setKind] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [confirm, confirmDialog] = useConfirm();

  const list = useSWRInfinite<TrashPage>(
    (index, previous: TrashPage | null) => {
      if (index === 0) return keys.trash({ kind });
      return previous?.nextCursor ? keys.trash({ kind, cursor: previous.nextCursor }) : null;
    },
    fetchers.list<TrashEntry>,
    { revalidateOnFocus: false, revalidateFirstPage: false },
  );
  const pages = list.data;
  const entries = pages?.flatMap((p) => p.items) ?? [];
  const nextCursor = pages?.[pages.length - 1]?.nextCursor;
  const loadingMore = list.isValidating && !!pages && list.size > pages.length;
  const error = Boolean(list.error);

  const drop = (e: TrashEntry) => list.mutate((current) => withoutEntry(current, e), { revalidate: false });
  const markPurging = (e: TrashEntry) => list.mutate((current) => markedPurging(current, e), { revalidate: false });

  const act = async (e: TrashEntry, run: () => Promise<Reply<unknown>>, fallback: string, after?: () => Promise<unknown>) => {
    if (busy) return;
    setBusy(entryKey(e));
    try {
      const res = await run();
      toast.success(res.message || fallback);
      // A Delete forever still going (202) keeps its row, marked; anything else has left the trash.
      if (purgeFinished(res.result)) await drop(e);
      else await markPurging(e);
      await after?.();
    } catch (err) {
      // Gone meanwhile (restored or purged elsewhere, or expired): it is not in the trash either.
      if (err instanceof HttpError && err.status === 404) await drop(e);
      toast.error(messageOf(err));
    } finally {
      setBusy(null);
    }
  };

  const restore = (e: TrashEntry) =>
    act(e, () => dataProvider.restoreFromTrash(e.kind, e.id, e.version), `${kindName(e.kind)} restored from the trash!`, () => mutateResource(e.kind));

  const purge = async (e: TrashEntry) => {
    if (busy || !(await confirm(confirmPurgeMessage(e)))) return;
    await act(e, () => dataProvider.purge(e.kind, e.id, e.version), 'Deleted forever.');
  };

  return (
    <Card variation="outlined" className="panel trash-screen">
      <Heading level={2} className="screen-heading">
        Trash
      </Heading>
      <Text marginTop="xs">Deleted items stay here for 30 days and are then deleted forever.</Text>
      <Flex gap="small" wrap="wrap" alignItems="flex-end" marginTop="small">
        <SelectField label="Kind" value={kind} onChange={(ev) => setKind(ev.target.value)}>
          <option value="">Everything</option>
          {KINDS.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </SelectField>
      </Flex>
      {error && <LoadError error={list.error} onRetry={() => list.mutate()} />}
      {!error && !pages && (
        <Flex justifyContent="center" padding="large" role="status" aria-label="Loading the trash">
          <Loader size="large" />
        </Flex>
      )}
      {pages && entries.length === 0 && !error && (
        <Text className="empty-state" padding="large" textAlign="center">
          {emptyMessage(kind)}
        </Text>
      )}
      {entries.length > 0 && (
        <div className="table-scroll">
          <table className="data-table data-table--cards" aria-label="Trash">
            <thead>
              <tr>
                <th scope="col">What</th>
                <th scope="col">Kind</th>
                <th scope="col">Deleted by</th>
                <th scope="col">Deleted at</th>
                <th scope="col">Deleted forever on</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => {
                const key = entryKey(e);
                const mayRestore = canRestore(user, e.kind) && !e.purging;
                const mayPurge = canPurge(user, e.kind);
                return (
                  <tr key={key}>
                    <td>{e.title}</td>
                    <td data-label="Kind">{kindName(e.kind)}</td>
                    <td data-label="Deleted by">{e.byName || '—'}</td>
                    <td data-label="Deleted at">{formatDateTime(e.deletedAt)}</td>
                    <td data-label="Deleted forever on">{e.purging ? <Badge variation="warning">Being deleted</Badge> : formatDate(e.purgedAt)}</td>
                    <td className="row-actions">
                      <Flex gap="xs" justifyContent="flex-end">
                        {mayRestore && (
                          <Button size="small" onClick={() => void restore(e)} isLoading={busy === key} loadingText="Please wait..." isDisabled={!!busy && busy !== key}>
                            Restore<span className="visually-hidden"> {e.title}</span>
                          </Button>
                        )}
                        {mayPurge && (
                          <Button size="small" variation="destructive" onClick={() => void purge(e)} isDisabled={!!busy}>
                            {e.purging ? 'Finish deleting' : 'Delete forever'}
                            <span className="visually-hidden"> {e.title}</span>
                          </Button>
                        )}
                      </Flex>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {nextCursor && !error && (
        <Flex justifyContent="center" marginTop="medium">
          <Button onClick={() => void list.setSize(list.size + 1)} isLoading={loadingMore} loadingText="Please wait...">
            Load more
          </Button>
        </Flex>
      )}
      {confirmDialog}
    </Card>
  );
}
