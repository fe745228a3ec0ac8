import { useMemo } from 'react';
import useSWR from 'swr';
import { swrFetcher } from '../../api/client';
import { fetchers, keys } from '../../api/dataProvider';
import { readCatalogue, readSiteChoice, siteLanguages, type SiteLanguages } from './languages';

/** LANGUAGES_KEY is GET /languages: the catalogue (and, where the server gives it, the site's choice). */
export const LANGUAGES_KEY = '/languages';
// The Site settings record, read as its settings screen reads it (one swr key, one shape).
const SETTINGS_KEY = keys.singleton('site-settings');

const quiet = { shouldRetryOnError: false, revalidateOnFocus: false } as const;

/**
 * useSiteLanguages reads the catalogue and the site's languages; undefined until known (and for
 * good when `enabled` is false: a form without translatable fields asks nothing). The site's choice
 * comes with GET /languages, else from GET /site-settings (read only when needed).
 */
export function useSiteLanguages(enabled = true): SiteLanguages | undefined {
  const cat = useSWR<unknown>(enabled ? LANGUAGES_KEY : null, swrFetcher, quiet);
  const ownChoice = cat.data === undefined ? undefined : readSiteChoice(cat.data);
  const needSettings = enabled && cat.data !== undefined && !ownChoice;
  const settings = useSWR<unknown>(needSettings ? SETTINGS_KEY : null, fetchers.reply, quiet);
  const choice = ownChoice ?? (settings.data === undefined ? undefined : readSiteChoice(settings.data));
  return useMemo(() => {
    if (!choice || cat.data === undefined) return undefined;
    return siteLanguages(choice, readCatalogue(cat.data));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [cat.data, settings.data]);
}

/** useCatalogue is the catalogue alone (the Site settings pickers). */
export function useCatalogue() {
  const { data, error, isLoading } = useSWR<unknown>(LANGUAGES_KEY, swrFetcher, quiet);
  const catalogue = useMemo(() => readCatalogue(data), [data]);
  return { catalogue, error, loading: isLoading };
}
