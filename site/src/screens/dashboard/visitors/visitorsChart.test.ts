import { describe, expect, it } from 'vitest';
import { OTHER } from '../../../api/visits';
import { CHART, dayLabel, niceMax, shapeChart, sortedDays, summarize, topPageRows, topSiteRows, views } from './visitorsChart';

const day = (date: string, n: number) => ({ date, views: n });

/** month is 30 days ending 26 Nov 2026 with the given views (zeros elsewhere). */
function month(counts: Record<number, number> = {}) {
  const out = [];
  for (let i = 0; i < 30; i++) {
    const d = new Date(Date.UTC(2026, 10, 26 - 29 + i));
    out.push(day(d.toISOString().slice(0, 10), counts[i] ?? 0));
  }
  return out;
}

describe('niceMax', () => {
  it.each([
    [0, 4],
    [3, 4],
    [4, 4],
    [5, 8],
    [13, 16],
    [37, 40],
    [120, 120],
    [121, 160],
    [999, 1000],
    [4321, 5000],
    [55, 60],
  ])('%i views fit a scale to %i in four whole steps', (max, top) => {
    expect(niceMax(max)).toBe(top);
    expect(Number.isInteger(top / 4)).toBe(true);
  });
});

describe('dayLabel', () => {
  it('writes the UTC day, whatever the browser zone', () => {
    expect(dayLabel('2026-11-26')).toBe('26 Nov');
    expect(dayLabel('2027-01-01')).toBe('1 Jan');
    expect(dayLabel('not a date')).toBe('not a date');
  });
});

describe('shapeChart', () => {
  it('draws one bar per day, oldest first, scaled to the busiest, inside the drawing box', () => {
    const model = shapeChart(month({ 0: 2, 10: 40, 29: 10 }));
    expect(model.bars).toHaveLength(30);
    expect(model.total).toBe(52);
    const [first, , ...rest] = model.bars;
    const busiest = model.bars[10];
    const today = model.bars[29];
    expect(first.date).toBe('2026-10-28');
    expect(today.date).toBe('2026-11-26');
    const plotBottom = CHART.height - CHART.bottom;
    expect(busiest.height).toBeCloseTo(CHART.height - CHART.top - CHART.bottom, 1);
    expect(today.height).toBeCloseTo(busiest.height / 4, 1);
    expect(model.width).toBe(CHART.width);
    for (const b of model.bars) {
      expect(b.y + b.height).toBeCloseTo(plotBottom, 1);
      expect(b.x).toBeGreaterThanOrEqual(CHART.left);
      expect(b.x + b.width).toBeLessThanOrEqual(CHART.width - CHART.right + 0.01);
      expect(b.width).toBeGreaterThan(0);
    }
    expect(rest.filter((b) => b.views === 0).every((b) => b.height === 0)).toBe(true);
    expect(today.label).toBe('26 Nov: 10 views');
    expect(model.bars[0].label).toBe('28 Oct: 2 views');
  });

  it('has a scale of five ticks from 0 and labels about six days, today among them', () => {
    const model = shapeChart(month({ 3: 7 }));
    expect(model.ticks.map((t) => t.text)).toEqual(['0', '2', '4', '6', '8']);
    expect(model.ticks[0].y).toBe(CHART.height - CHART.bottom);
    expect(model.ticks[4].y).toBe(CHART.top);
    expect(model.dayLabels.length).toBeGreaterThanOrEqual(5);
    expect(model.dayLabels.length).toBeLessThanOrEqual(7);
    const last = model.dayLabels[model.dayLabels.length - 1];
    expect(last).toEqual({ x: CHART.width - CHART.right, text: '26 Nov', anchor: 'end' });
  });

  it('draws at the width it is given: a phone gets fewer day labels, never text squeezed', () => {
    const phone = shapeChart(month({ 29: 3 }), 300);
    expect(phone.width).toBe(300);
    const last = phone.bars[29];
    expect(last.x + last.width).toBeLessThanOrEqual(300 - CHART.right + 0.01);
    expect(phone.dayLabels.length).toBeLessThanOrEqual(3);
    const xs = phone.dayLabels.map((l) => l.x);
    for (let i = 1; i < xs.length; i++) expect(xs[i] - xs[i - 1]).toBeGreaterThanOrEqual(60);
    expect(shapeChart(month(), 50).width).toBe(240);
  });

  it('orders days and drops repeats and nonsense counts', () => {
    expect(sortedDays([day('2026-11-02', 3), day('2026-11-01', -5), day('2026-11-02', 4)])).toEqual([
      day('2026-11-01', 0),
      day('2026-11-02', 4),
    ]);
  });

  it('draws an empty month without dividing by zero', () => {
    const model = shapeChart(month());
    expect(model.bars.every((b) => b.height === 0 && Number.isFinite(b.y))).toBe(true);
    expect(model.summary).toBe('No page views in the last 30 days.');
    expect(shapeChart([]).bars).toEqual([]);
  });
});

describe('summarize', () => {
  it('says the total, the busiest day and today', () => {
    expect(summarize(month({ 10: 1200, 29: 1 }))).toBe('1,201 views in the last 30 days. Busiest day: 7 Nov, 1,200 views. Today: 1 view.');
    expect(summarize([day('2026-11-26', 3)])).toBe('3 views in the last 1 day. Busiest day: 26 Nov, 3 views. Today: 3 views.');
    expect(summarize([])).toBe('No days to show.');
  });
  it('counts in words', () => {
    expect(views(1)).toBe('1 view');
    expect(views(0)).toBe('0 views');
  });
});

describe('top rows', () => {
  it('links pages to the website and names the other bucket', () => {
    const rows = topPageRows(
      [
        { path: '/admissions', views: 30 },
        { path: OTHER, views: 10 },
      ],
      80,
      'https://school.example.org/',
    );
    expect(rows).toEqual([
      { key: '/admissions', name: '/admissions', views: 30, share: 38, href: 'https://school.example.org/admissions' },
      { key: OTHER, name: 'Other pages', views: 10, share: 13, href: undefined },
    ]);
    expect(topPageRows([{ path: '/', views: 1 }], 0)[0]).toMatchObject({ href: undefined, share: 0 });
  });
  it('never links referring sites', () => {
    expect(topSiteRows([{ host: 'www.google.com', views: 5 }, { host: OTHER, views: 1 }], 6)).toEqual([
      { key: 'www.google.com', name: 'www.google.com', views: 5, share: 83 },
      { key: OTHER, name: 'Other sites', views: 1, share: 17 },
    ]);
  });
});
