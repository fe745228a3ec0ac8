import { Card, Loader } from '@aws-amplify/ui-react';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import useSWR from 'swr';
import { swrFetcher } from '../../../api/client';
import type { Envelope } from '../../../api/types';
import { visitsKey, type VisitsReport } from '../../../api/visits';
import { useApp } from '../../../app/AppContext';
import { LoadError } from '../../../components/LoadError';
import { CHART, dayLabel, formatCount, shapeChart, topPageRows, topSiteRows, type TopRow } from './visitorsChart';
import './visitors.css';

/** CHART_DAYS is the chart's period; TOP_PAGE_DAYS the top pages'. */
const CHART_DAYS = 30;
const TOP_PAGE_DAYS = 7;

const once = { revalidateOnFocus: false } as const;

/**
 * VisitorsCard is the dashboard's "Visitors" (issue 38): the website's page views of the last
 * 30 days as a bar chart (with the numbers as a table), the top pages of the last 7 days and
 * the sites visitors came from. It is its own chunk, loaded after the dashboard's counters.
 */
export function VisitorsCard() {
  const month = useSWR<Envelope<VisitsReport>>(visitsKey(CHART_DAYS), swrFetcher, once);
  const week = useSWR<Envelope<VisitsReport>>(visitsKey(TOP_PAGE_DAYS), swrFetcher, once);
  // Fetched again whenever Home is shown, like the counters.
  const { mutate: again30 } = month;
  const { mutate: again7 } = week;
  useEffect(() => {
    void again30();
    void again7();
  }, [again30, again7]);
  const headingId = useId();
  return (
    <Card as="section" variation="outlined" className="visitors" aria-labelledby={headingId}>
      <h2 id={headingId} className="visitors-heading">
        Visitors
      </h2>
      <p className="visitors-note">
        Page views on the website, counted without cookies: only the page and the site a visitor came from are kept, never who visited. Visitors who
        ask not to be tracked are not counted.
      </p>
      <Body month={month} week={week} />
    </Card>
  );
}

interface Loaded {
  data?: Envelope<VisitsReport>;
  error?: unknown;
  mutate: () => unknown;
}

function Body({ month, week }: { month: Loaded; week: Loaded }) {
  const { tenant } = useApp();
  const report = month.data?.result;
  const [box, width] = useWidth();
  const model = useMemo(() => (report ? shapeChart(report.days, width) : null), [report, width]);
  if (month.error && !report) return <LoadError error={month.error} onRetry={() => month.mutate()} />;
  if (!report || !model) return <Loader size="large" ariaLabel="Loading visitors" />;
  const weekReport = week.data?.result;
  const weekTotal = weekReport ? weekReport.days.reduce((n, d) => n + d.views, 0) : 0;
  return (
    <>
      <div ref={box}>
        <Chart model={model} days={report.days.length} timeZone={report.timeZone} />
      </div>
      <div className="visitors-tops">
        <section aria-labelledby="visitors-pages">
          <h3 id="visitors-pages" className="visitors-subheading">
            Top pages, last {TOP_PAGE_DAYS} days
          </h3>
          {week.error && !weekReport ? (
            <LoadError error={week.error} onRetry={() => week.mutate()} />
          ) : !weekReport ? (
            <Loader ariaLabel="Loading top pages" />
          ) : (
            <TopList
              rows={topPageRows(weekReport.topPages, weekTotal, tenant?.websiteUrl ?? '')}
              empty={`No page views in the last ${TOP_PAGE_DAYS} days.`}
              labelledBy="visitors-pages"
            />
          )}
        </section>
        <section aria-labelledby="visitors-sites">
          <h3 id="visitors-sites" className="visitors-subheading">
            Top referring sites, last {CHART_DAYS} days
          </h3>
          <TopList rows={topSiteRows(report.topReferrers, model.total)} empty="No visitors came from other sites." labelledBy="visitors-sites" />
        </section>
      </div>
    </>
  );
}

/** Chart draws the daily views as bars; the numbers are also a table under it. */
function Chart({ model, days, timeZone }: { model: ReturnType<typeof shapeChart>; days: number; timeZone: string }) {
  const titleId = useId();
  const descId = useId();
  const caption = `Page views per day, last ${days} days`;
  return (
    <figure className="visitors-chart">
      <figcaption className="visitors-caption">
        {caption}: <strong>{formatCount(model.total)}</strong> in all{' '}
        <span className="visitors-zone">(days in {timeZone || 'UTC'} time)</span>
      </figcaption>
      <svg
        width={model.width}
        height={CHART.height}
        viewBox={`0 0 ${model.width} ${CHART.height}`}
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        className="visitors-svg"
      >
        <title id={titleId}>{caption}</title>
        <desc id={descId}>{model.summary}</desc>
        <g className="visitors-grid" aria-hidden="true">
          {model.ticks.map((t) => (
            <g key={t.value}>
              <line x1={CHART.left} x2={model.width - CHART.right} y1={t.y} y2={t.y} />
              <text x={CHART.left - 6} y={t.y} dy="0.32em" textAnchor="end">
                {t.text}
              </text>
            </g>
          ))}
        </g>
        <g className="visitors-bars">
          {model.bars.map((b) => (
            <rect key={b.date} x={b.x} y={b.y} width={b.width} height={b.height} data-date={b.date} data-views={b.views}>
              <title>{b.label}</title>
            </rect>
          ))}
        </g>
        <g className="visitors-days" aria-hidden="true">
          {model.dayLabels.map((l) => (
            <text key={l.text} x={l.x} y={CHART.height - 8} textAnchor={l.anchor}>
              {l.text}
            </text>
          ))}
        </g>
      </svg>
      <details className="visitors-table">
        <summary>Show the numbers</summary>
        <table>
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Views</th>
            </tr>
          </thead>
          <tbody>
            {[...model.bars].reverse().map((b) => (
              <tr key={b.date}>
                <th scope="row">
                  <time dateTime={b.date}>{dayLabel(b.date)}</time>
                </th>
                <td>{formatCount(b.views)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/** useWidth measures the element ref is put on, so the chart is drawn at its width (in pixels). */
function useWidth(): [(el: HTMLDivElement | null) => void, number] {
  const [width, setWidth] = useState<number>(CHART.width);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((el: HTMLDivElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => setWidth(Math.min(960, Math.floor(el.clientWidth)) || CHART.width);
    observer.current = new ResizeObserver(measure);
    observer.current.observe(el);
    measure();
  }, []);
  return [ref, width];
}

function TopList({ rows, empty, labelledBy }: { rows: TopRow[]; empty: string; labelledBy: string }) {
  if (rows.length === 0) return <p className="visitors-empty">{empty}</p>;
  return (
    <ol className="visitors-top" aria-labelledby={labelledBy}>
      {rows.map((r) => (
        <li key={r.key}>
          <span className="visitors-name">
            {r.href ? (
              <a href={r.href} target="_blank" rel="noreferrer">
                {r.name}
              </a>
            ) : (
              r.name
            )}
          </span>
          <span className="visitors-count">
            {formatCount(r.views)} <span className="visitors-share">({r.share}%)</span>
          </span>
        </li>
      ))}
    </ol>
  );
}
