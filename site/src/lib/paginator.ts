/** Paginator model (SPEC §2, §5, §9): page buttons with ellipses, go-to-page check, "Showing x - y of n". */

export const PAGE_SIZES = [5, 10, 20, 50] as const;
export const DEFAULT_PAGE_SIZE = 10;
/** MAX_PAGE_BUTTONS is the most numbered page buttons the paginator shows. */
export const MAX_PAGE_BUTTONS = 10;
export const INVALID_PAGE = 'Please enter a valid page!';

export type PageItem = number | 'start-ellipsis' | 'end-ellipsis';

/** lastPage is the number of pages for total records at size per page (at least 1). */
export function lastPage(total: number, size: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, size)));
}

/**
 * pageItems lists the page buttons: every page when there are at most `max`, otherwise the
 * first, the last and a window around the current page, with an ellipsis wherever pages are
 * hidden, never more than `max` numbered buttons.
 */
export function pageItems(current: number, total: number, max: number = MAX_PAGE_BUTTONS): PageItem[] {
  if (total <= max) return Array.from({ length: Math.max(total, 1) }, (_, i) => i + 1);
  const inner = Math.max(1, max - 2);
  const page = Math.min(Math.max(1, current), total);
  let start = page - Math.floor((inner - 1) / 2);
  start = Math.min(Math.max(start, 2), total - inner);
  const end = start + inner - 1;
  const items: PageItem[] = [1];
  if (start > 2) items.push('start-ellipsis');
  for (let p = start; p <= end; p++) items.push(p);
  if (end < total - 1) items.push('end-ellipsis');
  items.push(total);
  return items;
}

/** parseGoToPage returns the page typed into 'Go to Page', or an error when it is not 1..last. */
export function parseGoToPage(input: string, last: number): { page: number } | { error: string } {
  const text = input.trim();
  if (!/^\d+$/.test(text)) return { error: INVALID_PAGE };
  const page = Number(text);
  if (page < 1 || page > last) return { error: INVALID_PAGE };
  return { page };
}

/** goToPageLabel is the go-to input's label, 'Go to Page (1 - N)'. */
export function goToPageLabel(last: number): string {
  return `Go to Page (1 - ${last})`;
}

/** showingText is 'Showing x - y of n' for a page of a list. */
export function showingText(page: number, size: number, total: number): string {
  if (total <= 0) return 'Showing 0 - 0 of 0';
  const from = (page - 1) * size + 1;
  const to = Math.min(page * size, total);
  return `Showing ${Math.min(from, total)} - ${to} of ${total}`;
}
