/**
 * The Visitors card's logic, apart from React: the daily views shaped into an SVG bar chart
 * (scale, bars, axis labels), its text alternative, and the top lists' rows.
 */
import { OTHER, type DayViews, type HostViews, type PageViews } from '../../../api/visits';

/**
 * CHART is the chart's drawing box in pixels: the card draws it at its own width (one SVG unit a
 * pixel, so text keeps its size on a phone); width is the default before it is measured.
 */
export const CHART = { width: 640, height: 220, left: 44, right: 8, top: 12, bottom: 28 } as const;

/** MIN_WIDTH is the narrowest chart drawn. */
export const MIN_WIDTH = 240;

export interface Bar {
  date: string;
  views: number;
  x: number;
  y: number;
  width: number;
  height: number;
  /** label names the day and its views (the bar's tooltip and the table's row). */
  label: string;
}

export interface Tick {
  value: number;
  y: number;
  text: string;
}

export interface DayLabel {
  x: number;
  text: string;
  /** anchor keeps the last label (today) inside the box. */
  anchor: 'middle' | 'end';
}

export interface ChartModel {
  width: number;
  bars: Bar[];
  ticks: Tick[];
  dayLabels: DayLabel[];
  total: number;
  /** summary is the chart's text alternative in one sentence. */
  summary: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** formatCount writes a count with thousands separators: 1,234. */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** views is "1 view" or "n views". */
export function views(n: number): string {
  return `${formatCount(n)} ${n === 1 ? 'view' : 'views'}`;
}

/** dayLabel writes a YYYY-MM-DD date as "26 Nov" (the dates are UTC days, so no time zone moves them). */
export function dayLabel(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return date;
  return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1] ?? m[2]}`;
}

/**
 * niceMax is the top of the scale: four equal whole steps, each a round number (1, 1.25, 1.5, 2,
 * 2.5, 3, 4, 5, 6 or 8 times a power of ten), the smallest that hold max; at least 4, so a quiet month is
 * not drawn as full bars.
 */
export function niceMax(max: number): number {
  const raw = Math.max(1, Math.ceil(Math.max(0, max) / 4));
  const pow = 10 ** Math.floor(Math.log10(raw));
  // Halves and quarters only where they are still whole numbers.
  const steps = pow >= 100 ? [1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10] : pow >= 10 ? [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10] : [1, 2, 3, 4, 5, 6, 8, 10];
  const step = steps.map((s) => s * pow).find((s) => s >= raw) ?? 10 * pow;
  return step * 4;
}

/** sortedDays is the days oldest first, without repeats or negative counts. */
export function sortedDays(days: DayViews[]): DayViews[] {
  const byDate = new Map<string, number>();
  for (const d of days) byDate.set(d.date, Math.max(0, Math.round(d.views) || 0));
  return [...byDate.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([date, n]) => ({ date, views: n }));
}

/**
 * shapeChart turns the daily views into bars across width pixels, a scale with four steps and
 * as many day labels as fit (one per 72 pixels, at most six, today always).
 */
export function shapeChart(input: DayViews[], chartWidth: number = CHART.width): ChartModel {
  const days = sortedDays(input);
  const width = Math.max(MIN_WIDTH, Math.round(chartWidth));
  const { height, left, right, top, bottom } = CHART;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const max = niceMax(Math.max(0, ...days.map((d) => d.views)));
  const slot = days.length ? plotW / days.length : plotW;
  const gap = Math.min(4, slot * 0.25);
  const round = (n: number) => Math.round(n * 100) / 100;
  const bars = days.map((d, i) => {
    const h = (d.views / max) * plotH;
    return {
      date: d.date,
      views: d.views,
      x: round(left + i * slot + gap / 2),
      y: round(top + plotH - h),
      width: round(slot - gap),
      height: round(h),
      label: `${dayLabel(d.date)}: ${views(d.views)}`,
    };
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => ({ value: max * f, y: round(top + plotH - f * plotH), text: formatCount(max * f) }));
  // As many day labels as fit, counted back from the last day (today), which is always one.
  const fit = Math.max(2, Math.min(6, Math.floor(plotW / 72)));
  const every = Math.max(1, Math.ceil(days.length / fit));
  const dayLabels: DayLabel[] = days
    .map((d, i) => ({ i, d }))
    .filter(({ i }) => (days.length - 1 - i) % every === 0)
    .map(({ i, d }) =>
      i === days.length - 1
        ? { x: width - right, text: dayLabel(d.date), anchor: 'end' as const }
        : { x: round(left + i * slot + slot / 2), text: dayLabel(d.date), anchor: 'middle' as const },
    );
  const total = days.reduce((n, d) => n + d.views, 0);
  return { width, bars, ticks, dayLabels, total, summary: summarize(days, total) };
}

/** summarize says what the chart shows: the total, the busiest day and today. */
export function summarize(days: DayViews[], total = days.reduce((n, d) => n + d.views, 0)): string {
  if (days.length === 0) return 'No days to show.';
  const period = `the last ${days.length} ${days.length === 1 ? 'day' : 'days'}`;
  if (total === 0) return `No page views in ${period}.`;
  const busiest = days.reduce((a, b) => (b.views > a.views ? b : a));
  const today = days[days.length - 1];
  return `${views(total)} in ${period}. Busiest day: ${dayLabel(busiest.date)}, ${views(busiest.views)}. Today: ${views(today.views)}.`;
}

export interface TopRow {
  key: string;
  /** name is what the row shows: a path, a site's host, or "Other pages" / "Other sites". */
  name: string;
  views: number;
  /** share is the row's percentage of the period's views (0–100, whole). */
  share: number;
  /** href links a page to the website (none for the other rows, or without an address). */
  href?: string;
}

/** topPageRows are the top pages as rows, linked to the website when it has an address. */
export function topPageRows(pages: PageViews[], total: number, websiteUrl = ''): TopRow[] {
  const site = websiteUrl.replace(/\/+$/, '');
  return pages.map((p) => ({
    key: p.path,
    name: p.path === OTHER ? 'Other pages' : p.path,
    views: p.views,
    share: total > 0 ? Math.round((p.views / total) * 100) : 0,
    href: p.path !== OTHER && site && p.path.startsWith('/') ? site + p.path : undefined,
  }));
}

/** topSiteRows are the referring sites as rows (never links: they are whatever a visitor came from). */
export function topSiteRows(hosts: HostViews[], total: number): TopRow[] {
  return hosts.map((h) => ({
    key: h.host,
    name: h.host === OTHER ? 'Other sites' : h.host,
    views: h.views,
    share: total > 0 ? Math.round((h.views / total) * 100) : 0,
  }));
}
