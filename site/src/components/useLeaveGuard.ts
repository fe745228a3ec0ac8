import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';

/**
 * useLeaveGuard asks before unsaved changes are lost: the browser's own prompt on reload or
 * close, and ask() on a click on any in-app link (the sidebar, the header). The app uses a
 * BrowserRouter, which has no navigation blocker, so links are caught at the document before
 * React Router sees the click.
 */
export function useLeaveGuard(dirty: boolean, ask: () => Promise<boolean>): void {
  const navigate = useNavigate();
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;

  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (!dirtyRef.current) return;
      e.preventDefault();
      e.returnValue = '';
    };
    const onClick = (e: MouseEvent) => {
      if (!dirtyRef.current || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const a = (e.target as Element | null)?.closest?.('a[href]');
      if (!(a instanceof HTMLAnchorElement) || a.target === '_blank' || a.origin !== window.location.origin) return;
      if (a.pathname === window.location.pathname) return;
      e.preventDefault();
      e.stopPropagation();
      const to = a.pathname + a.search + a.hash;
      void ask().then((leave) => {
        if (leave) {
          dirtyRef.current = false;
          navigate(to);
        }
      });
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [ask, navigate]);
}
