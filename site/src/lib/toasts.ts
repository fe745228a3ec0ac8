import type { Toast } from 'react-hot-toast';

type ToastState = Pick<Toast, 'id' | 'type' | 'createdAt' | 'visible'>;

/**
 * replacedErrors names the error toasts that a newer outcome (a success, an error, a message)
 * replaces, so an error never lingers beside the next outcome. A loading toast is no outcome.
 */
export function replacedErrors(toasts: readonly ToastState[]): string[] {
  const outcomes = toasts.filter((t) => t.visible && t.type !== 'loading');
  const newest = Math.max(-Infinity, ...outcomes.map((t) => t.createdAt));
  return outcomes.filter((t) => t.type === 'error' && t.createdAt < newest).map((t) => t.id);
}
