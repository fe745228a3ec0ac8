import { useEffect } from 'react';
import { useNavigate } from 'react-router';

/**
 * useLeaveGuard keeps unsaved work from being lost silently: closing or reloading the tab asks
 * the browser's own question, and following an in-app link asks ask() first. (The app uses
 * BrowserRouter, which has no navigation blocker, so links are intercepted before React Router
 * sees the click.)
 */
export function useLeaveGuard(dirty: boolean, ask: () => Promise<boolean>): void {
  const navigate = useNavigate();
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
    };
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const a = (e.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!a || a.target === '_blank' || a.origin !== window.location.origin) return;
      if (a.pathname === window.location.pathname) return;
      e.preventDefault();
      e.stopPropagation();
      const to = a.pathname + a.search + a.hash;
      void ask().then((leave) => {
        if (leave) navigate(to);
      });
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [dirty, ask, navigate]);
}
