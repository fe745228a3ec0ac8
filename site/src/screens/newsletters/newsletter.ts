/** The Newsletters screen's logic: a send's progress, when the list refreshes, the counts shown. */
import type { ApiRecord } from '../../lib/collections';

/** REFRESH_MS is how often the list is read again while a newsletter is being sent. */
export const REFRESH_MS = 3000;

/** Copy of the preview. */
export const PREVIEW_TITLE = 'Newsletter preview';
export const DRAFT_NOTE = 'This preview shows what the form holds now; nothing is saved until you press Save.';
export const SAMPLE_LINK_NOTE = 'Each subscriber gets their own unsubscribe link; this preview shows a sample one.';

const numbers = new Intl.NumberFormat('en-US');

/** formatCount writes a count as the panel does: 1,040. */
export function formatCount(n: number): string {
  return numbers.format(n);
}

/** countOf reads a stored count: a whole number, 0 when absent or not one. */
export function countOf(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

export interface SendProgress {
  /** done are the recipients gone through (sent, failed, or skipped as suppressed). */
  done: number;
  /** total is how many it goes to; 0 when the newsletter does not say (sent before it kept it). */
  total: number;
  /** text is what the row says: "Sending: 125 of 1,040". */
  text: string;
}

/**
 * sendProgress is a sending newsletter's progress, null for any other: the recipients gone
 * through of those counted when the send started (recipientCount, the confirmed signups then).
 * Signups confirmed during the send are sent to as well, so done may pass that count: the total
 * then follows done.
 */
export function sendProgress(row: ApiRecord): SendProgress | null {
  if (row.state !== 'sending') return null;
  const done = countOf(row.sentCount) + countOf(row.failedCount) + countOf(row.suppressedCount);
  const counted = countOf(row.recipientCount);
  if (counted === 0) return { done, total: 0, text: done > 0 ? `Sending: ${formatCount(done)} so far` : 'Sending' };
  const total = Math.max(counted, done);
  return { done, total, text: `Sending: ${formatCount(done)} of ${formatCount(total)}` };
}

/** refreshInterval is how often a list of newsletters is read again: every few seconds while one is being sent, else never. */
export function refreshInterval(rows: readonly ApiRecord[]): number {
  return rows.some((r) => r.state === 'sending') ? REFRESH_MS : 0;
}

/** COUNT_FIELDS are the counts a sent (or sending) newsletter shows in its preview, in order. */
export const COUNT_FIELDS = ['recipientCount', 'sentCount', 'failedCount', 'suppressedCount', 'bouncedCount', 'unsubscribedCount', 'complainedCount'] as const;

/** countLines are a newsletter's counts as "Label: 1,040", labelled by labelOf; none for a draft. */
export function countLines(row: ApiRecord, labelOf: (field: string) => string): string[] {
  if (row.state !== 'sending' && row.state !== 'sent') return [];
  return COUNT_FIELDS.filter((f) => f !== 'recipientCount' || row.recipientCount !== undefined).map(
    (f) => `${labelOf(f)}: ${formatCount(countOf(row[f]))}`,
  );
}

/** previewTitle is the accessible name of the preview's frame. */
export function previewTitle(subject: string): string {
  const s = subject.trim();
  return s ? `Preview of the newsletter “${s}”` : 'Preview of the newsletter';
}
