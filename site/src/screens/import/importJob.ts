/** What the Import screen shows of a job: its state, its run's progress, its report and what can be done next. */
import type { ImportJob, ImportPhase, ImportProgress, ImportState } from '../../api/wordpressImports';

/** POLL_MS is how often a job under way is read again. */
export const POLL_MS = 1000;
/** RECENT_MAX is how many imports the server lists. */
export const RECENT_MAX = 10;

export const CONFIRM_IMPORT =
  'Import this site? Existing pages with the same addresses keep theirs; the menu is replaced (the old one stays in its history).';
export const EXPLAIN =
  'Move a WordPress site in: its published pages, its posts (as notices), its images and files, its menu, and a redirect from every old address to the new one, so old links keep working. Drafts, private posts, comments and users are not imported.';
export const HOW_TO_EXPORT = 'In WordPress, go to Tools → Export, choose All content, and download the export file.';
export const NO_RECENT = 'No imports yet. Choose an export file above to start one.';

const STATE_LABELS: Record<ImportState, string> = {
  uploading: 'Not checked',
  checking: 'Checking',
  checked: 'Checked',
  importing: 'Importing',
  imported: 'Imported',
  failed: 'Failed',
};

/** stateLabel names a job's state as the list of recent imports shows it. */
export function stateLabel(job: Pick<ImportJob, 'state' | 'dryRun'>): string {
  if (job.state === 'failed') return job.dryRun ? 'Check failed' : 'Import failed';
  return STATE_LABELS[job.state] ?? job.state;
}

const PHASE_LABELS: Record<ImportPhase, string> = {
  '': 'Starting',
  media: 'Images and files',
  content: 'Pages and notices',
  menu: 'Menu',
  redirects: 'Redirects',
  done: 'Finishing',
};

/** phaseLabel names a run's phase. */
export function phaseLabel(phase: ImportPhase | undefined): string {
  return PHASE_LABELS[phase ?? ''] ?? phase ?? '';
}

/** isUnderWay says whether a job's run is going on (the screen polls it then). */
export function isUnderWay(job: Pick<ImportJob, 'state'> | null | undefined): boolean {
  return job?.state === 'checking' || job?.state === 'importing';
}

/** runName is what the run under way, or the last one, does. */
export function runName(job: Pick<ImportJob, 'dryRun'>): string {
  return job.dryRun ? 'Checking the file' : 'Importing';
}

/** progressLabel names a run's progress bar. */
export function progressLabel(job: Pick<ImportJob, 'dryRun'>): string {
  return job.dryRun ? 'Check progress' : 'Import progress';
}

export interface Bar {
  /** now and max are the steps done and all of them; null while the run has not counted them yet. */
  now: number | null;
  max: number;
  /** text is what the bar says ("12 of 40"), or "Starting" before it counts. */
  text: string;
}

/** progressBar turns a run's progress into the progress bar's values. */
export function progressBar(p: ImportProgress | null | undefined): Bar {
  const total = Math.max(0, p?.total ?? 0);
  if (!p || total === 0) return { now: null, max: 1, text: 'Starting' };
  const done = Math.min(Math.max(0, p.done), total);
  return { now: done, max: total, text: `${done} of ${total}` };
}

/**
 * announcement is what the live region says of a job: the phase of a run under way (it changes a
 * handful of times per run, never every second), and when a run ends, that it did. A failure is
 * left to the error shown (an alert), so that it is not announced twice.
 */
export function announcement(job: ImportJob | null | undefined): string {
  if (!job) return '';
  switch (job.state) {
    case 'checking':
    case 'importing':
      return `${runName(job)}: ${phaseLabel(job.progress?.phase).toLowerCase()}`;
    case 'checked':
      return 'Check finished. See what will be imported below.';
    case 'imported':
      return 'Import finished.';
    default:
      return '';
  }
}

/** reportTitle is the heading over a job's report, or '' when it has none to show. */
export function reportTitle(job: Pick<ImportJob, 'state' | 'dryRun'>): string {
  switch (job.state) {
    case 'checked':
      return 'What will be imported';
    case 'imported':
      return 'Import finished';
    case 'failed':
      // A check that stopped is checked again from the start: only an import's part is worth showing.
      return job.dryRun ? '' : 'What was imported before it stopped';
    default:
      return '';
  }
}

export type NextAction = 'import' | 'check' | null;

/**
 * nextAction is what the open job's button does: import a checked file (or go on with a failed
 * import from where it stopped); check a file whose check failed, or that was never checked.
 */
export function nextAction(job: Pick<ImportJob, 'state' | 'dryRun'>): NextAction {
  if (job.state === 'checked') return 'import';
  if (job.state === 'failed') return job.dryRun ? 'check' : 'import';
  if (job.state === 'uploading') return 'check';
  return null;
}

/** withJob puts a job's newest copy into the list of recent imports (first when new), at most RECENT_MAX. */
export function withJob(list: ImportJob[] | undefined, job: ImportJob): ImportJob[] {
  const current = list ?? [];
  const slim = { ...job, report: [] };
  const at = current.findIndex((j) => j.id === job.id);
  if (at < 0) return [slim, ...current].slice(0, RECENT_MAX);
  return current.map((j, i) => (i === at ? slim : j));
}

/** firstUnderWay is the newest import under way in the list, for a reload to open it. */
export function firstUnderWay(list: ImportJob[] | undefined): ImportJob | undefined {
  return list?.find((j) => isUnderWay(j));
}

/** ended says whether a job's poll found its run over (it was under way, and is not any more). */
export function ended(before: Pick<ImportJob, 'state'> | null, after: Pick<ImportJob, 'state'>): boolean {
  return isUnderWay(before) && !isUnderWay(after);
}
