import { useSyncExternalStore } from 'react';

/**
 * DRAWER_QUERY is below a tablet's width: the sidebar is an off-canvas drawer there, lists show
 * their rows as cards and dialogs fill the screen (styles.css uses the same 767px).
 */
export const DRAWER_QUERY = '(max-width: 767px)';

/** useMediaQuery is whether the media query matches now, following changes (rotation, resizing). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window === 'undefined' || !window.matchMedia) return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => (typeof window !== 'undefined' && window.matchMedia ? window.matchMedia(query).matches : false),
    () => false,
  );
}
