import { matchPath } from 'react-router';

interface Titled {
  path: string;
  title: string;
}

/** titleForPath finds the declared title of the route matching pathname, or ''. */
export function titleForPath(routes: Titled[], pathname: string): string {
  // Static segments first so /pages/create wins over /pages/:id.
  const sorted = [...routes].sort((a, b) => Number(a.path.includes(':')) - Number(b.path.includes(':')));
  return sorted.find((r) => matchPath({ path: r.path, end: true }, pathname))?.title ?? '';
}
