/**
 * Hook point for start-up step 4's notifications (SPEC §2 Notification modal):
 * a later issue polls GET /notifications?limit=10&page=1 here and keeps the first 3 unread.
 */
export function useNotificationsPoll(_enabled: boolean): void {
  // Intentionally empty until the notifications issue.
}
