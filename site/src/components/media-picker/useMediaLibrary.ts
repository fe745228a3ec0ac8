import { mutate as globalMutate } from 'swr';
import { usePagedList } from '../../api/usePagedList';
import { mediaListPath, type Accept, type MediaItem } from './rules';

const SEARCH_DEBOUNCE_MS = 300;

/** reloadMedia revalidates every cached page of the library (the screen's and the pickers'). */
export function reloadMedia(): Promise<unknown> {
  return globalMutate((k) => typeof k === 'string' && k.startsWith('/media?'));
}

/** useMediaLibrary pages and searches the library on the server; accept 'image' shows images only. */
export function useMediaLibrary(accept: Accept = 'file', initialLimit = 20) {
  return usePagedList<MediaItem>((q) => mediaListPath({ ...q, accept }), { initialLimit, debounceMs: SEARCH_DEBOUNCE_MS });
}
