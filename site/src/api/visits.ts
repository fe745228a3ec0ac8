/**
 * The website's page views (GET /visits, issue 38): per day, the most viewed pages and the sites
 * visitors came from, over the last `days` days (1–90). Counted privately by the website's
 * beacon: a page's path and the referring site's host, nothing about the visitor.
 */

/** DayViews are one day's views (date is YYYY-MM-DD in the report's time zone). */
export interface DayViews {
  date: string;
  views: number;
}

export interface PageViews {
  path: string;
  views: number;
}

export interface HostViews {
  host: string;
  views: number;
}

export interface VisitsReport {
  /** days: one per day, oldest first, the last today. */
  days: DayViews[];
  topPages: PageViews[];
  topReferrers: HostViews[];
  /** timeZone is the zone whose days these are: the institution's (Site Settings), UTC by default. */
  timeZone: string;
}

/** OTHER is how the report names the views past a day's bound of distinct pages or sites. */
export const OTHER = '(other)';

/** visitsKey is the swr key (an API path) of the report of the last `days` days. */
export function visitsKey(days: number): string {
  return `/visits?days=${days}`;
}
