import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { ALL_ROUTES } from '../app/navigation';
import { titleForPath } from '../lib/routeTitle';

/** usePageTitle returns the current route's title and mirrors it into document.title. */
export function usePageTitle(tenantName: string): string {
  const { pathname } = useLocation();
  const title = titleForPath(ALL_ROUTES, pathname) || 'Page not found';
  useEffect(() => {
    document.title = tenantName ? `${title} | ${tenantName}` : title;
  }, [title, tenantName]);
  return title;
}
