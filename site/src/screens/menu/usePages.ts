import useSWR from 'swr';
import { swrFetcher } from '../../api/client';
import type { PageOption } from './MenuItemPanel';

/** usePages loads the page choice for PAGE items: one page of up to 100 pages (SPEC §7). */
export function usePages() {
  const { data } = useSWR<{ result: Array<{ id: string; title?: string; slug?: string }> }>('/pages?limit=100', swrFetcher, {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
  const pages: PageOption[] = (data?.result ?? []).map((p) => ({ id: p.id, title: p.title || p.slug || p.id }));
  return { pages, titleOf: (id: string) => pages.find((p) => p.id === id)?.title };
}
