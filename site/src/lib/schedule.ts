/**
 * Scheduled publishing (pages, sliders, notices, events, popups): the state a record's
 * publishAt / unpublishAt give it at a moment, as the server works it out (collections.ScheduleAt),
 * and the conversions between the server's RFC 3339 UTC times and a datetime-local input, which
 * edits in the browser's own time zone.
 */

export type ScheduleState = 'scheduled' | 'live' | 'expired' | '';

export const SCHEDULE_LABELS: Record<Exclude<ScheduleState, ''>, string> = {
  scheduled: 'Scheduled',
  live: 'Live',
  expired: 'Expired',
};

function instant(v: unknown): number | null {
  if (typeof v !== 'string' || v.trim() === '') return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : t;
}

/**
 * scheduleState is "scheduled" before publishAt, "expired" from unpublishAt on, "live" between,
 * and "" without either date (no chip).
 */
export function scheduleState(publishAt: unknown, unpublishAt: unknown, now: number = Date.now()): ScheduleState {
  const from = instant(publishAt);
  const until = instant(unpublishAt);
  if (from === null && until === null) return '';
  if (until !== null && now >= until) return 'expired';
  if (from !== null && now < from) return 'scheduled';
  return 'live';
}

const pad = (n: number) => String(n).padStart(2, '0');

/** toLocalInput turns a stored time ("2031-05-01T07:30:00Z") into a datetime-local value in the browser's zone. */
export function toLocalInput(iso: unknown): string {
  const t = instant(iso);
  if (t === null) return '';
  const d = new Date(t);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** fromLocalInput turns a datetime-local value into RFC 3339 UTC for the server; "" stays null (cleared). */
export function fromLocalInput(local: unknown): string | null {
  if (typeof local !== 'string' || local.trim() === '') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local.trim());
  if (!m) return local.trim(); // the server explains what it expects
  const d = new Date(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], m[6] ? +m[6] : 0);
  return d.toISOString().replace('.000Z', 'Z');
}
