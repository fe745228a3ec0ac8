import { useEffect } from 'react';
import { useMasters } from '../../api/hooks';
import type { DashboardStats } from '../../api/types';
import { abbreviateNumber } from '../../lib/abbreviateNumber';

/** The six counters of SPEC §2 Dashboard, labels verbatim. */
export const COUNTERS: Array<{ key: keyof DashboardStats; label: string }> = [
  { key: 'pageCount', label: 'Total Pages' },
  { key: 'formCount', label: 'Total Forms' },
  { key: 'popupCount', label: 'Total Popups' },
  { key: 'albumCount', label: 'Total Albums' },
  { key: 'newsletterSignupCount', label: 'Total Newsletter Signups' },
  { key: 'customFormSubmissionCount', label: 'Total unchecked form submissions' },
];

export interface CounterView {
  key: string;
  label: string;
  value: string;
  exact: string;
}

/**
 * useDashboard turns the masters' dashboardStats into display values ('...' while loading). They
 * are fetched again whenever Home is shown (writes elsewhere, other tabs); meanwhile the last
 * counters stay on screen.
 */
export function useDashboard(): CounterView[] {
  const masters = useMasters(true);
  // Fetched again on every showing: mutate, unlike revalidateOnMount, does not reuse a fetch of the last seconds.
  const { mutate } = masters;
  useEffect(() => {
    void mutate();
  }, [mutate]);
  const dashboardStats = masters.data?.result?.dashboardStats;
  const loading = masters.data === undefined && masters.error === undefined;
  return COUNTERS.map(({ key, label }) => {
    const n = dashboardStats?.[key];
    if (loading) return { key, label, value: '...', exact: '' };
    // A failed masters load is only logged (SPEC §8); show a dash rather than a fake zero.
    if (!dashboardStats) return { key, label, value: '—', exact: '' };
    return { key, label, value: abbreviateNumber(n ?? 0), exact: String(n ?? 0) };
  });
}
