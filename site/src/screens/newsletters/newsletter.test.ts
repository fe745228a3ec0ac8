import { describe, expect, it } from 'vitest';
import type { ApiRecord } from '../../lib/collections';
import { countLines, countOf, formatCount, previewTitle, REFRESH_MS, refreshInterval, sendProgress } from './newsletter';

const row = (over: Record<string, unknown> = {}): ApiRecord => ({ id: 'N1', subject: 'News', state: 'draft', ...over });

describe('sendProgress', () => {
  it('says how far a send is, with thousands separated', () => {
    expect(sendProgress(row({ state: 'sending', recipientCount: 1040, sentCount: 120, failedCount: 2, suppressedCount: 3 }))).toEqual({
      done: 125,
      total: 1040,
      text: 'Sending: 125 of 1,040',
    });
  });
  it('is nothing for a draft or a sent newsletter', () => {
    expect(sendProgress(row())).toBeNull();
    expect(sendProgress(row({ state: 'sent', recipientCount: 10, sentCount: 10 }))).toBeNull();
  });
  it('follows the recipients gone through past the count taken when the send started', () => {
    expect(sendProgress(row({ state: 'sending', recipientCount: 10, sentCount: 12 }))).toEqual({ done: 12, total: 12, text: 'Sending: 12 of 12' });
  });
  it('has no total for a send that did not count its recipients', () => {
    expect(sendProgress(row({ state: 'sending' }))).toEqual({ done: 0, total: 0, text: 'Sending' });
    expect(sendProgress(row({ state: 'sending', sentCount: 25 }))?.text).toBe('Sending: 25 so far');
  });
  it('reads odd stored values as 0', () => {
    expect(sendProgress(row({ state: 'sending', recipientCount: '40', sentCount: -3, failedCount: 'x', suppressedCount: null }))).toEqual({
      done: 0,
      total: 40,
      text: 'Sending: 0 of 40',
    });
  });
});

describe('refreshInterval', () => {
  it('refreshes every few seconds only while a newsletter is being sent', () => {
    expect(refreshInterval([row(), row({ state: 'sent' })])).toBe(0);
    expect(refreshInterval([row(), row({ state: 'sending' })])).toBe(REFRESH_MS);
    expect(refreshInterval([])).toBe(0);
    expect(REFRESH_MS).toBeGreaterThanOrEqual(2000);
    expect(REFRESH_MS).toBeLessThanOrEqual(5000);
  });
});

describe('counts', () => {
  const label = (f: string) => ({ recipientCount: 'Recipients', sentCount: 'Sent', failedCount: 'Failed', suppressedCount: 'Skipped (suppressed)', bouncedCount: 'Bounced', unsubscribedCount: 'Unsubscribed', complainedCount: 'Spam reports' })[f] ?? f;
  it('lists a sent newsletter’s counts', () => {
    expect(
      countLines(row({ state: 'sent', recipientCount: 1200, sentCount: 1190, failedCount: 1, suppressedCount: 9, bouncedCount: 4, unsubscribedCount: 2 }), label),
    ).toEqual(['Recipients: 1,200', 'Sent: 1,190', 'Failed: 1', 'Skipped (suppressed): 9', 'Bounced: 4', 'Unsubscribed: 2', 'Spam reports: 0']);
  });
  it('lists none for a draft, and no recipients where none were counted', () => {
    expect(countLines(row(), label)).toEqual([]);
    expect(countLines(row({ state: 'sent', sentCount: 3 }), label)[0]).toBe('Sent: 3');
  });
  it('formats and reads counts', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(countOf(2.7)).toBe(2);
    expect(countOf(undefined)).toBe(0);
  });
});

describe('previewTitle', () => {
  it('names the frame after the subject', () => {
    expect(previewTitle(' Autumn news ')).toBe('Preview of the newsletter “Autumn news”');
    expect(previewTitle('')).toBe('Preview of the newsletter');
  });
});
