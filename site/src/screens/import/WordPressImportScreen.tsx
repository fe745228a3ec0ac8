import { Alert, Badge, Button, Card, Flex, Heading, Loader, Text } from '@aws-amplify/ui-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import useSWR from 'swr';
import { mutateResource } from '../../api/dataProvider';
import { HttpError, messageOf } from '../../api/http';
import {
  UploadError,
  checkExportFile,
  checkImport,
  createImport,
  getImport,
  listImports,
  startImport,
  uploadExport,
  type ImportJob,
  type ReportSection,
} from '../../api/wordpressImports';
import { LoadError } from '../../components/LoadError';
import { useConfirm } from '../../components/useConfirm';
import { formatBytes, formatDateTime } from '../../lib/format';
import '../collections/collections.css';
import './import.css';
import {
  CONFIRM_IMPORT,
  EXPLAIN,
  HOW_TO_EXPORT,
  NO_RECENT,
  POLL_MS,
  announcement,
  ended,
  firstUnderWay,
  isUnderWay,
  nextAction,
  phaseLabel,
  progressBar,
  progressLabel,
  reportTitle,
  runName,
  stateLabel,
  withJob,
} from './importJob';

/** RECENT_KEY is the swr key of the recent imports. */
const RECENT_KEY = '/wordpress-imports';
/** IMPORTED are the resources an import writes: their cached lists are read again when it ends. */
const IMPORTED = ['pages', 'notices', 'media', 'menu-items', 'redirects'];

interface Failure {
  /** where: beside the file input (uploading and checking a new file), or in the open import. */
  where: 'file' | 'job';
  message: string;
}

/**
 * WordPressImportScreen (issue 34): choose a WordPress export, Check file (it is uploaded with
 * progress, then checked by a dry run outside the request), read what will be imported, Import,
 * follow the import's phases, and see what was imported. The ten latest imports are listed, so a
 * reload finds a run under way (and opens it). Administrators only.
 */
export function WordPressImportScreen() {
  const recent = useSWR<ImportJob[]>(RECENT_KEY, () => listImports(), { revalidateOnFocus: false });
  const [file, setFile] = useState<File | null>(null);
  const [uploaded, setUploaded] = useState<number | null>(null);
  const [busy, setBusy] = useState<'check' | 'run' | 'open' | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [job, setJob] = useState<ImportJob | null>(null);
  const [live, setLive] = useState('');
  const [confirm, confirmDialog] = useConfirm();
  const inputRef = useRef<HTMLInputElement>(null);
  const jobHeading = useRef<HTMLHeadingElement>(null);
  const autoOpened = useRef(false);
  const inputId = useId();
  const hintId = useId();
  const fileErrorId = useId();

  /** show makes job the open one and the newest copy in the recent list. */
  const mutateRecent = recent.mutate;
  const show = useCallback(
    (next: ImportJob) => {
      setJob(next);
      void mutateRecent((list) => withJob(list, next), { revalidate: false });
    },
    [mutateRecent],
  );

  // A run under way is read again every second until it ends. Only a change of phase or state is
  // announced (the live region), not every step.
  useEffect(() => {
    if (!job || !isUnderWay(job)) return;
    let stopped = false;
    const timer = setTimeout(async () => {
      try {
        const next = await getImport(job.id);
        if (stopped) return;
        const said = announcement(job);
        const now = announcement(next);
        if (now !== said && now) setLive(now);
        if (ended(job, next) && next.state === 'imported') IMPORTED.forEach((r) => void mutateResource(r));
        show(next);
      } catch (err) {
        if (stopped) return;
        if (err instanceof HttpError && (err.status === 403 || err.status === 404)) {
          setFailure({ where: 'job', message: messageOf(err) });
          return;
        }
        // A lost answer: ask again a little later.
        setJob((current) => (current && current.id === job.id ? { ...current } : current));
      }
    }, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [job, show]);

  const open = useCallback(
    async (id: string, focus: boolean) => {
      setBusy('open');
      setFailure(null);
      try {
        const next = await getImport(id);
        setLive('');
        show(next);
        if (focus) requestAnimationFrame(() => jobHeading.current?.focus());
      } catch (err) {
        setFailure({ where: 'job', message: messageOf(err) });
      } finally {
        setBusy(null);
      }
    },
    [show],
  );

  // After a reload, the newest import under way opens by itself.
  useEffect(() => {
    if (autoOpened.current || !recent.data) return;
    autoOpened.current = true;
    const running = firstUnderWay(recent.data);
    if (running && !job) void open(running.id, false);
  }, [recent.data, job, open]);

  const choose = (files: FileList | null) => {
    const f = files?.[0] ?? null;
    const problem = f ? checkExportFile(f) : null;
    setFile(f);
    setFailure(problem ? { where: 'file', message: problem } : null);
  };

  /** checkFile uploads the chosen file to a new import and starts its check. */
  const checkFile = async () => {
    if (!file || busy) return;
    const problem = checkExportFile(file);
    if (problem) {
      setFailure({ where: 'file', message: problem });
      return;
    }
    setBusy('check');
    setFailure(null);
    setJob(null);
    setUploaded(0);
    setLive('Uploading the file.');
    try {
      // The new import opens once its check has started; until then it is only listed.
      const { upload, ...created } = await createImport(file);
      void mutateRecent((list) => withJob(list, created), { revalidate: false });
      // The bar stays full while the check is asked for.
      await uploadExport(upload, file, file.name, setUploaded);
      const started = await checkImport(created.id);
      setLive(announcement(started));
      show(started);
      setFile(null);
      if (inputRef.current) inputRef.current.value = '';
    } catch (err) {
      setLive('');
      setFailure({ where: 'file', message: err instanceof UploadError ? err.message : messageOf(err, 'The file could not be checked. Please try again.') });
      void mutateRecent();
    } finally {
      setBusy(null);
      setUploaded(null);
    }
  };

  /** run starts the open import's next run: the import (confirmed first), or a check (again). */
  const run = async () => {
    if (!job || busy) return;
    const action = nextAction(job);
    if (!action) return;
    if (action === 'import' && !(await confirm(CONFIRM_IMPORT))) return;
    setBusy('run');
    setFailure(null);
    try {
      const started = action === 'import' ? await startImport(job.id) : await checkImport(job.id);
      setLive(announcement(started));
      show(started);
    } catch (err) {
      setFailure({ where: 'job', message: messageOf(err) });
      // Already under way elsewhere (another tab): follow it.
      if (err instanceof HttpError && err.status === 409) {
        try {
          show(await getImport(job.id));
        } catch {
          /* the failure above is shown */
        }
      }
    } finally {
      setBusy(null);
    }
  };

  const running = isUnderWay(job);
  const fileError = failure?.where === 'file' ? failure.message : null;
  const jobError = failure?.where === 'job' ? failure.message : null;
  const action = job ? nextAction(job) : null;

  return (
    <Card variation="outlined" className="panel wp-import">
      <Heading level={2} className="screen-heading">
        Import from WordPress
      </Heading>
      <Text marginTop="xs" className="wp-import-intro">
        {EXPLAIN} {HOW_TO_EXPORT}
      </Text>

      <div role="status" className="visually-hidden">
        {live}
      </div>

      <section className="wp-import-file" aria-labelledby={`${inputId}-heading`}>
        <Heading level={3} id={`${inputId}-heading`} className="wp-import-subheading">
          Export file
        </Heading>
        <label htmlFor={inputId} className="wp-import-label">
          WordPress export file (.xml)
        </label>
        <Text as="span" id={hintId} fontSize="small" color="font.secondary" display="block">
          The file WordPress downloads from Tools → Export, up to 100 MB.
        </Text>
        <input
          id={inputId}
          ref={inputRef}
          type="file"
          accept=".xml,text/xml,application/xml"
          className="wp-import-input"
          aria-describedby={fileError ? `${hintId} ${fileErrorId}` : hintId}
          aria-invalid={fileError ? true : undefined}
          disabled={busy === 'check'}
          onChange={(e) => choose(e.target.files)}
        />
        <Flex alignItems="center" gap="medium" wrap="wrap" marginTop="small">
          <Button variation={action === 'import' ? undefined : 'primary'} onClick={() => void checkFile()} isDisabled={!file || !!busy || running || !!checkExportFile(file)}>
            {busy === 'check' ? 'Please wait...' : 'Check file'}
          </Button>
          {file && (
            <Text as="span" fontSize="small">
              {file.name} ({formatBytes(file.size)})
            </Text>
          )}
        </Flex>
        {uploaded !== null && (
          <Bar label="Upload progress" now={Math.round(uploaded * 100)} max={100} text={`Uploading: ${Math.round(uploaded * 100)}%`} />
        )}
        {fileError && (
          <Alert variation="error" marginTop="small" role="alert" id={fileErrorId}>
            {fileError}
          </Alert>
        )}
      </section>

      {job && (
        <section className="wp-import-job" aria-labelledby={`${inputId}-job`}>
          <Heading level={3} id={`${inputId}-job`} ref={jobHeading} tabIndex={-1} className="wp-import-subheading">
            {job.fileName}
          </Heading>
          <Text fontSize="small" color="font.secondary">
            {stateLabel(job)} · {formatBytes(job.size)} · {job.by || '—'} · {formatDateTime(job.createdAt)}
          </Text>
          {running && <RunProgress job={job} />}
          {job.state === 'uploading' && (
            <Text marginTop="small">This file has not been checked yet. Check it, or choose the file again above.</Text>
          )}
          {job.state === 'failed' && (
            <Alert variation="error" marginTop="small" role="alert" heading={job.dryRun ? 'The check stopped' : 'The import stopped'}>
              {job.error || 'Some error occured!'}
              {!job.dryRun && ' Import again to go on from where it stopped.'}
            </Alert>
          )}
          {reportTitle(job) && <Report title={reportTitle(job)} sections={job.report ?? []} />}
          {job.state === 'imported' && (
            <nav aria-label="Imported content" className="wp-import-links">
              <Text as="span">See what was imported:</Text>
              <ul>
                <li>
                  <Link to="/pages">Pages</Link>
                </li>
                <li>
                  <Link to="/notices">Notices</Link>
                </li>
                <li>
                  <Link to="/media">Media Library</Link>
                </li>
                <li>
                  <Link to="/redirects">Redirects</Link>
                </li>
              </ul>
            </nav>
          )}
          {action && (
            <Flex gap="small" marginTop="medium">
              <Button variation={action === 'import' ? 'primary' : undefined} onClick={() => void run()} isDisabled={!!busy}>
                {busy === 'run' ? 'Please wait...' : action === 'import' ? 'Import' : 'Check file again'}
              </Button>
            </Flex>
          )}
          {jobError && (
            <Alert variation="error" marginTop="small" role="alert">
              {jobError}
            </Alert>
          )}
        </section>
      )}
      {!job && jobError && (
        <Alert variation="error" marginTop="small" role="alert">
          {jobError}
        </Alert>
      )}

      <section className="wp-import-recent" aria-labelledby={`${inputId}-recent`}>
        <Heading level={3} id={`${inputId}-recent`} className="wp-import-subheading">
          Recent imports
        </Heading>
        {recent.error ? (
          <LoadError error={recent.error} onRetry={() => recent.mutate()} />
        ) : !recent.data ? (
          <Flex justifyContent="center" padding="medium" role="status" aria-label="Loading the recent imports">
            <Loader size="large" />
          </Flex>
        ) : recent.data.length === 0 ? (
          <Text className="empty-state" padding="medium">
            {NO_RECENT}
          </Text>
        ) : (
          <div className="table-scroll">
            <table className="data-table data-table--cards" aria-label="Recent imports">
              <thead>
                <tr>
                  <th scope="col">File</th>
                  <th scope="col">State</th>
                  <th scope="col">Started by</th>
                  <th scope="col">When</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {recent.data.map((j) => (
                  <tr key={j.id} aria-current={job?.id === j.id ? 'true' : undefined}>
                    <td data-label="File">{j.fileName}</td>
                    <td data-label="State">
                      <Badge variation={badgeOf(j)} size="small">
                        {stateLabel(j)}
                      </Badge>
                    </td>
                    <td data-label="Started by">{j.by || '—'}</td>
                    <td data-label="When">{formatDateTime(j.createdAt)}</td>
                    <td className="row-actions">
                      <Button size="small" onClick={() => void open(j.id, true)} isDisabled={busy === 'open'}>
                        Open<span className="visually-hidden"> {j.fileName}</span>
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {confirmDialog}
    </Card>
  );
}

function badgeOf(job: ImportJob): 'success' | 'error' | 'info' | 'warning' | undefined {
  switch (job.state) {
    case 'imported':
      return 'success';
    case 'failed':
      return 'error';
    case 'checking':
    case 'importing':
      return 'info';
    case 'checked':
      return 'warning';
    default:
      return undefined;
  }
}

interface BarProps {
  label: string;
  /** now is null while the total is not known yet (an indeterminate bar). */
  now: number | null;
  max: number;
  text: string;
}

/** Bar is a progress bar with its text; the text is not a live region (the screen's status says what changes). */
function Bar({ label, now, max, text }: BarProps) {
  const pct = now === null ? 0 : Math.round((now / max) * 100);
  return (
    <div className="wp-import-progress">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={now ?? undefined}
        aria-valuetext={text}
        className={`wp-import-bar${now === null ? ' wp-import-bar--waiting' : ''}`}
      >
        <div className="wp-import-bar-fill" style={{ width: `${pct}%` }} />
      </div>
      <Text as="span" fontSize="small" aria-hidden="true">
        {text}
      </Text>
    </div>
  );
}

/** RunProgress is the bar of a run under way and its phase. */
function RunProgress({ job }: { job: ImportJob }) {
  const bar = progressBar(job.progress);
  const phase = phaseLabel(job.progress?.phase);
  return (
    <div className="wp-import-run">
      <Text fontWeight="bold">
        {runName(job)}: {phase}
      </Text>
      <Bar label={progressLabel(job)} now={bar.now} max={bar.max} text={bar.text} />
    </div>
  );
}

/** Report is a run's report: a section per part, as cmsctl prints it. */
function Report({ title, sections }: { title: string; sections: ReportSection[] }) {
  const id = useId();
  return (
    <section className="wp-import-report" aria-labelledby={id}>
      <Heading level={4} id={id} className="wp-import-report-title">
        {title}
      </Heading>
      {sections.length === 0 ? (
        <Text>Nothing to report.</Text>
      ) : (
        sections.map((s, i) => (
          <div key={`${i}-${s.title}`} className="wp-import-section">
            <Heading level={5} className="wp-import-section-title">
              {s.title}
            </Heading>
            <ul>
              {s.lines.map((line, k) => (
                <li key={k}>{line}</li>
              ))}
            </ul>
          </div>
        ))
      )}
    </section>
  );
}
