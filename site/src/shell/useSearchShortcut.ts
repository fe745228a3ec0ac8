import { useEffect, useRef } from 'react';

/** isSearchShortcut: Ctrl + / (or ⌘ + / on a Mac), whatever has focus. */
export function isSearchShortcut(e: Pick<KeyboardEvent, 'ctrlKey' | 'metaKey' | 'altKey' | 'key'>): boolean {
  return (e.ctrlKey || e.metaKey) && !e.altKey && e.key === '/';
}

/** useSearchShortcut calls onShortcut on Ctrl + / (or Cmd + /) anywhere in the window. */
export function useSearchShortcut(onShortcut: () => void): void {
  const latest = useRef(onShortcut);
  latest.current = onShortcut;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isSearchShortcut(e)) {
        e.preventDefault();
        latest.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
