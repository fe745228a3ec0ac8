import { Alert, Button, Flex, Loader, Text } from '@aws-amplify/ui-react';
import { useCallback, useState } from 'react';
import toast from 'react-hot-toast';
import { dataProvider, keys, mutateResource } from '../../api/dataProvider';
import { messageOf } from '../../api/http';
import type { ApiRecord, CollectionDecl } from '../../lib/collections';
import { formatDateTime } from '../../lib/format';
import { useConfirm } from '../useConfirm';
import { compareRows, describe, type DiffRow, type VersionInfo } from './history';
import './history.css';

interface Props {
  decl: CollectionDecl;
  /** id is the record's (a singleton's is its tenant's). */
  id: string;
  /** current is the record as last loaded: what a version is compared with, and whose version a restore names. */
  current: ApiRecord;
  canRestore: boolean;
  /** onRestored reloads the screen's copy after a restore. */
  onRestored: () => void;
}

/** HistoryPanel is the VersionsPanel of a collection's record: fields compared by their labels. */
export function HistoryPanel({ decl, id, current, canRestore, onRestored }: Props) {
  return (
    <VersionsPanel
      resource={decl.key}
      id={id}
      currentVersion={typeof current.version === 'number' ? current.version : undefined}
      describe={(v) => describe(decl, v)}
      compare={(kept) => compareRows(decl, kept as ApiRecord, current)}
      canRestore={canRestore}
      onRestored={onRestored}
    />
  );
}

interface VersionsProps {
  /** resource and id name what the versions are of; without an id, the resource's own (the menu tree). */
  resource: string;
  id?: string;
  /** currentVersion is the version a restore names, so a stale screen gets a 409. */
  currentVersion: number | undefined;
  describe: (v: VersionInfo) => string;
  /** compare lines a kept version (dataProvider.version's result) up against what is saved now. */
  compare: (kept: unknown) => DiffRow[];
  canRestore: boolean;
  onRestored: () => void;
}

/**
 * VersionsPanel lists what a thing's saves replaced (who, when, what changed), compares any kept
 * version with now field by field, and restores one through the same rules as an edit. It loads
 * nothing until opened.
 */
export function VersionsPanel({ resource, id, currentVersion, describe: say, compare: rowsOf, canRestore, onRestored }: VersionsProps) {
  const [open, setOpen] = useState(false);
  const [versions, setVersions] = useState<VersionInfo[] | null>(null);
  const [error, setError] = useState('');
  const [comparing, setComparing] = useState<{ version: number; rows: DiffRow[] } | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [confirm, confirmDialog] = useConfirm();
  const panelId = `history-${keys.versions(resource, id).replace(/[^a-zA-Z0-9]/g, '-')}`;

  const load = useCallback(async () => {
    setError('');
    try {
      setVersions((await dataProvider.versions<VersionInfo>(resource, id)).result);
    } catch (err) {
      setError(messageOf(err));
    }
  }, [resource, id]);

  const toggle = () => {
    const next = !open;
    setOpen(next);
    setComparing(null);
    if (next) void load();
  };

  const compare = async (version: number) => {
    setBusy(version);
    try {
      const kept = (await dataProvider.version(resource, id, version)).result;
      setComparing({ version, rows: rowsOf(kept) });
    } catch (err) {
      toast.error(messageOf(err));
    } finally {
      setBusy(null);
    }
  };

  const restore = async (version: number) => {
    if (!(await confirm(`Restore version ${version}? What is saved now is kept in the history.`))) return;
    setBusy(version);
    try {
      const res = await dataProvider.restoreVersion(resource, id, version, currentVersion);
      toast.success(res.message || `Restored version ${version}.`);
      setComparing(null);
      onRestored();
      void mutateResource(resource);
      await load();
    } catch (err) {
      toast.error(messageOf(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="history" aria-label="History">
      <Button type="button" size="small" variation="link" onClick={toggle} aria-expanded={open} aria-controls={panelId}>
        {open ? 'Hide history' : 'History'}
      </Button>
      {open && (
        <div id={panelId} className="history-body">
          {error && (
            <Alert variation="error" role="alert">
              {error}{' '}
              <Button size="small" onClick={() => void load()}>
                Retry
              </Button>
            </Alert>
          )}
          {!error && versions === null && <Loader />}
          {versions?.length === 0 && <Text color="font.secondary">No earlier versions yet: each save keeps the one it replaces.</Text>}
          {versions && versions.length > 0 && (
            <ol className="history-list">
              {versions.map((v) => (
                <li key={v.version} className={comparing?.version === v.version ? 'history-item history-item--open' : 'history-item'}>
                  <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="xs">
                    <Text>
                      <strong>Version {v.version}</strong> · {say(v)} by {v.byName || 'someone'} on {formatDateTime(v.replacedAt)}
                    </Text>
                    <Flex gap="xs">
                      <Button size="small" onClick={() => void compare(v.version)} isDisabled={busy !== null}>
                        Compare
                      </Button>
                      {canRestore && (
                        <Button size="small" onClick={() => void restore(v.version)} isDisabled={busy !== null} isLoading={busy === v.version} loadingText="Please wait...">
                          Restore
                        </Button>
                      )}
                    </Flex>
                  </Flex>
                  {comparing?.version === v.version && <Comparison rows={comparing.rows} version={v.version} />}
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
      {confirmDialog}
    </section>
  );
}

/**
 * Comparison is the field-by-field table of a compare: a kept version with now, or (drafts) the
 * live record with its draft; keptLabel and currentLabel head the two columns.
 */
export function Comparison({ rows, version, keptLabel, currentLabel = 'Now' }: { rows: DiffRow[]; version?: number; keptLabel?: string; currentLabel?: string }) {
  const changed = rows.filter((r) => r.changed).length;
  const kept = keptLabel ?? `Version ${version}`;
  return (
    <table className="history-compare">
      <caption>
        {kept} compared with {currentLabel === 'Now' ? 'now' : currentLabel.toLowerCase()}: {changed === 0 ? 'no differences' : `${changed} field${changed === 1 ? '' : 's'} differ`}
      </caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">{kept}</th>
          <th scope="col">{currentLabel}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.name} className={r.changed ? 'history-changed' : undefined}>
            <th scope="row">
              {r.label}
              {r.changed && <span className="visually-hidden"> (changed)</span>}
            </th>
            <td>{r.kept || '—'}</td>
            <td>{r.current || '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
