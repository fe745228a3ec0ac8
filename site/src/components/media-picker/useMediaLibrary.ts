import { usePagedList } from '../../api/usePagedList';
import { mediaFilter, type Accept, type MediaItem } from './rules';

const SEARCH_DEBOUNCE_MS = 300;

/** useMediaLibrary pages and searches the library on the server; accept 'image' shows images only. */
export function useMediaLibrary(accept: Accept = 'file', initialLimit = 20) {
  return usePagedList<MediaItem>('media', { filter: mediaFilter(accept) }, { initialLimit, debounceMs: SEARCH_DEBOUNCE_MS });
}
