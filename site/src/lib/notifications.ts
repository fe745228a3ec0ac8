/** The header bell's rules (SPEC §2 Notification modal, §9). */
import { toBool } from './format';

/**
 * BELL_KEY is the poll. It asks only for unread notifications (read=false: the server's sparse
 * unread index), one page of the smallest size (5), so the bell reads at most the few it shows
 * whatever the number of notifications; unreadCount comes from the server's counter.
 */
export const BELL_KEY = '/notifications?read=false&limit=5&page=1';
/** BELL_MAX_UNREAD: the bell keeps only the first 3 unread notifications. */
export const BELL_MAX_UNREAD = 3;

export interface NotificationItem {
  id: string;
  title?: string;
  message?: string;
  description?: string;
  createdAt?: string;
  read?: unknown;
}

export interface NotificationsResponse {
  result: NotificationItem[];
  totalCount: number;
  /** facetCount is the size of the declared facet: the unread notifications. */
  facetCount?: number;
}

/** bellItems keeps the first 3 unread notifications of the poll, in the server's (newest first) order. */
export function bellItems(res: NotificationsResponse | undefined): NotificationItem[] {
  return (res?.result ?? []).filter((n) => !toBool(n.read)).slice(0, BELL_MAX_UNREAD);
}

/** unreadCount is the server's count (the unread facet's), else the unread among the polled page. */
export function unreadCount(res: NotificationsResponse | undefined): number {
  if (!res) return 0;
  if (typeof res.facetCount === 'number') return res.facetCount;
  return (res.result ?? []).filter((n) => !toBool(n.read)).length;
}

/** markReadBody is PATCH /notifications/'s body; `notificaitonIds` is the API's spelling (sic). */
export function markReadBody(ids: string[]): { passcode: string; notificaitonIds: string[] } {
  return { passcode: 'read', notificaitonIds: ids };
}

/** notificationText is the description, or the message when there is none. */
export function notificationText(n: NotificationItem): string {
  return n.description?.trim() ? n.description : (n.message ?? '');
}
