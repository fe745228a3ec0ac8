/**
 * Start-up step 4's notifications (SPEC §2 Notification modal): poll
 * GET /notifications?read=false&limit=5&page=1 (BELL_KEY) every 60 s and on focus; the bell reads the same swr cache.
 */
import useSWR from 'swr';
import { swrFetcher } from '../api/client';
import { BELL_KEY, type NotificationsResponse } from '../lib/notifications';

const POLL_MS = 60_000;

export function useNotificationsPoll(enabled: boolean): void {
  useSWR<NotificationsResponse>(enabled ? BELL_KEY : null, swrFetcher, {
    refreshInterval: POLL_MS,
    revalidateOnFocus: true,
    // Failures to load notifications are only logged (SPEC §8).
    onError: (err) => console.warn('notifications poll failed', err),
  });
}

/** useBellFeed reads the poll's cached result (it never starts its own polling). */
export function useBellFeed() {
  return useSWR<NotificationsResponse>(BELL_KEY, swrFetcher, {
    revalidateOnMount: false,
    revalidateIfStale: false,
    revalidateOnFocus: false,
  });
}
