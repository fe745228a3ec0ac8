import { describe, expect, it } from 'vitest';
import type { ImportJob } from '../../api/wordpressImports';
import {
  CONFIRM_IMPORT,
  HOW_TO_EXPORT,
  RECENT_MAX,
  announcement,
  ended,
  firstUnderWay,
  isUnderWay,
  nextAction,
  phaseLabel,
  progressBar,
  progressLabel,
  reportTitle,
  stateLabel,
  withJob,
} from './importJob';

function job(over: Partial<ImportJob> = {}): ImportJob {
  return {
    id: 'J1',
    fileName: 'riverside.xml',
    size: 5000,
    state: 'checked',
    dryRun: true,
    progress: { phase: 'done', done: 1, total: 1 },
    report: [{ title: 'Would import', lines: ['pages: 2 new'] }],
    by: 'admin',
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    ...over,
  };
}

describe('copy', () => {
  it('is the issue’s, verbatim', () => {
    expect(CONFIRM_IMPORT).toBe(
      'Import this site? Existing pages with the same addresses keep theirs; the menu is replaced (the old one stays in its history).',
    );
    expect(HOW_TO_EXPORT).toBe('In WordPress, go to Tools → Export, choose All content, and download the export file.');
  });
});

describe('progressBar', () => {
  it('counts the steps done of the total', () => {
    expect(progressBar({ phase: 'content', done: 12, total: 40 })).toEqual({ now: 12, max: 40, text: '12 of 40' });
  });
  it('is waiting (no value) before the run has counted its steps', () => {
    expect(progressBar({ phase: '', done: 0, total: 0 })).toEqual({ now: null, max: 1, text: 'Starting' });
    expect(progressBar(undefined)).toEqual({ now: null, max: 1, text: 'Starting' });
  });
  it('never shows more than the total or less than nothing', () => {
    expect(progressBar({ phase: 'menu', done: 50, total: 40 }).now).toBe(40);
    expect(progressBar({ phase: 'menu', done: -3, total: 40 }).now).toBe(0);
  });
});

describe('progressLabel', () => {
  it('names the bar by the run', () => {
    expect(progressLabel(job({ dryRun: true }))).toBe('Check progress');
    expect(progressLabel(job({ dryRun: false }))).toBe('Import progress');
  });
});

describe('announcement', () => {
  it('names the run and its phase while under way', () => {
    expect(announcement(job({ state: 'checking', progress: { phase: 'media', done: 0, total: 9 } }))).toBe('Checking the file: images and files');
    expect(announcement(job({ state: 'importing', dryRun: false, progress: { phase: 'content', done: 3, total: 9 } }))).toBe(
      'Importing: pages and notices',
    );
  });
  it('does not change with the steps of one phase (announced once per phase)', () => {
    const a = announcement(job({ state: 'importing', dryRun: false, progress: { phase: 'content', done: 3, total: 9 } }));
    const b = announcement(job({ state: 'importing', dryRun: false, progress: { phase: 'content', done: 4, total: 9 } }));
    expect(a).toBe(b);
  });
  it('says a run ended, and leaves a failure to its alert', () => {
    expect(announcement(job({ state: 'checked' }))).toMatch(/^Check finished/);
    expect(announcement(job({ state: 'imported', dryRun: false }))).toBe('Import finished.');
    expect(announcement(job({ state: 'failed', error: 'boom' }))).toBe('');
    expect(announcement(null)).toBe('');
  });
});

describe('what the open job shows and offers', () => {
  it('titles the report by the run', () => {
    expect(reportTitle(job({ state: 'checked' }))).toBe('What will be imported');
    expect(reportTitle(job({ state: 'imported', dryRun: false }))).toBe('Import finished');
    expect(reportTitle(job({ state: 'failed', dryRun: false }))).toBe('What was imported before it stopped');
    expect(reportTitle(job({ state: 'failed', dryRun: true }))).toBe('');
    expect(reportTitle(job({ state: 'importing', dryRun: false }))).toBe('');
  });
  it('imports a checked file, goes on with a failed import, checks again a failed check', () => {
    expect(nextAction(job({ state: 'checked' }))).toBe('import');
    expect(nextAction(job({ state: 'failed', dryRun: false }))).toBe('import');
    expect(nextAction(job({ state: 'failed', dryRun: true }))).toBe('check');
    expect(nextAction(job({ state: 'uploading' }))).toBe('check');
    expect(nextAction(job({ state: 'checking' }))).toBeNull();
    expect(nextAction(job({ state: 'importing', dryRun: false }))).toBeNull();
    expect(nextAction(job({ state: 'imported', dryRun: false }))).toBeNull();
  });
  it('names states and phases', () => {
    expect(stateLabel(job({ state: 'failed', dryRun: true }))).toBe('Check failed');
    expect(stateLabel(job({ state: 'failed', dryRun: false }))).toBe('Import failed');
    expect(stateLabel(job({ state: 'imported' }))).toBe('Imported');
    expect(phaseLabel('redirects')).toBe('Redirects');
    expect(phaseLabel(undefined)).toBe('Starting');
  });
  it('polls only a run under way, and sees it end', () => {
    expect(isUnderWay(job({ state: 'checking' }))).toBe(true);
    expect(isUnderWay(job({ state: 'importing' }))).toBe(true);
    expect(isUnderWay(job({ state: 'checked' }))).toBe(false);
    expect(isUnderWay(null)).toBe(false);
    expect(ended(job({ state: 'importing' }), job({ state: 'imported' }))).toBe(true);
    expect(ended(job({ state: 'importing' }), job({ state: 'failed' }))).toBe(true);
    expect(ended(job({ state: 'checked' }), job({ state: 'checked' }))).toBe(false);
    expect(ended(null, job({ state: 'imported' }))).toBe(false);
  });
});

describe('recent imports', () => {
  it('puts a new job first and replaces a known one in place, without its report', () => {
    const older = [job({ id: 'A', state: 'imported' }), job({ id: 'B', state: 'checked' })];
    const fresh = withJob(older, job({ id: 'C', state: 'uploading' }));
    expect(fresh.map((j) => j.id)).toEqual(['C', 'A', 'B']);
    expect(fresh[0].report).toEqual([]);
    const moved = withJob(fresh, job({ id: 'B', state: 'importing' }));
    expect(moved.map((j) => `${j.id}:${j.state}`)).toEqual(['C:uploading', 'A:imported', 'B:importing']);
    expect(withJob(undefined, job()).length).toBe(1);
  });
  it('keeps at most the ten the server lists', () => {
    const many = Array.from({ length: RECENT_MAX }, (_, i) => job({ id: `J${i}` }));
    const out = withJob(many, job({ id: 'NEW' }));
    expect(out).toHaveLength(RECENT_MAX);
    expect(out[0].id).toBe('NEW');
  });
  it('finds the newest run under way for a reload to open', () => {
    expect(firstUnderWay([job({ id: 'A', state: 'imported' }), job({ id: 'B', state: 'importing' }), job({ id: 'C', state: 'checking' })])?.id).toBe('B');
    expect(firstUnderWay([job({ state: 'checked' })])).toBeUndefined();
    expect(firstUnderWay(undefined)).toBeUndefined();
  });
});
