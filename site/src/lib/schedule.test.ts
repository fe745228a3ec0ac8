import { describe, expect, it } from 'vitest';
import { fromLocalInput, scheduleState, toLocalInput } from './schedule';

describe('scheduleState', () => {
  const now = Date.parse('2030-01-01T12:00:00Z');
  it.each([
    ['no dates', '', '', ''],
    ['before start', '2030-01-01T12:00:01Z', '', 'scheduled'],
    ['at start', '2030-01-01T12:00:00Z', '', 'live'],
    ['before end', '', '2030-01-01T12:00:01Z', 'live'],
    ['at end', '', '2030-01-01T12:00:00Z', 'expired'],
    ['inverted window', '2031-01-01T00:00:00Z', '2029-01-01T00:00:00Z', 'expired'],
  ])('%s', (_name, from, until, want) => {
    expect(scheduleState(from, until, now)).toBe(want);
  });
});

describe('datetime-local conversions', () => {
  it('round-trips a stored UTC time through the local input', () => {
    const stored = '2031-05-01T07:30:00Z';
    expect(fromLocalInput(toLocalInput(stored))).toBe(stored);
  });
  it('clears an empty input and leaves unreadable text for the server to refuse', () => {
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('soon')).toBe('soon');
    expect(toLocalInput(undefined)).toBe('');
  });
});
