import { usePagedList } from '../../api/usePagedList';
import { mediaFilter, type Accept, type MediaItem } from './rules';

const SEARCH_DEBOUNCE_MS = 300;

/** MEDIA_PAGE_SIZE is the library's default page size (SPEC §9: 10 per page). */
export const MEDIA_PAGE_SIZE = 10;

/** useMediaLibrary pages and searches the library on the server; accept 'image' shows images only. */
export function useMediaLibrary(accept: Accept = 'file', initialLimit = MEDIA_PAGE_SIZE) {
  return usePagedList<MediaItem>('media', { filter: mediaFilter(accept) }, { initialLimit, debounceMs: SEARCH_DEBOUNCE_MS });
}
