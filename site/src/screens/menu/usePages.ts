import useSWR from 'swr';
import { fetchers, keys, type ListResult } from '../../api/dataProvider';
import type { PageOption } from './MenuItemPanel';

type PageRow = { id: string; title?: string; slug?: string };

/** usePages loads the page choice for PAGE items: one page of up to 100 pages (SPEC §7). */
export function usePages() {
  const { data } = useSWR<ListResult<PageRow>>(keys.list('pages', { limit: 100 }), fetchers.list<PageRow>, {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
  const pages: PageOption[] = (data?.items ?? []).map((p) => ({ id: p.id, title: p.title || p.slug || p.id }));
  return { pages, titleOf: (id: string) => pages.find((p) => p.id === id)?.title };
}
