import type { CollectionDecl } from '../../lib/collections';
import type { Language } from './languages';
import { readStatus, statusLabels, translatableFields } from './translationState';
import { useSiteLanguages } from './useSiteLanguages';
import './translations.css';

/** ListLanguages are what a list's Translations column needs: the site's other languages. */
export interface ListLanguages {
  others: Language[];
}

/**
 * useListLanguages is the Translations column of a list: undefined (no column) for a collection
 * without translatable fields or a site with one language.
 */
export function useListLanguages(decl: CollectionDecl): ListLanguages | undefined {
  const translatable = translatableFields(decl.fields).length > 0;
  const site = useSiteLanguages(translatable);
  if (!site || site.others.length === 0 || !translatable) return undefined;
  return { others: site.others };
}

/** TranslationBadges are a list row's "FR 6/8" per other language (from its translationStatus), out-of-date and kept-back ones marked. */
export function TranslationBadges({ row, langs }: { row: Record<string, unknown>; langs: ListLanguages }) {
  const labels = statusLabels(readStatus(row.translationStatus), langs.others);
  return (
    <ul className="translation-badges" aria-label="Translations">
      {labels.map((l) => (
        <li key={l.lang} className={`translation-badge translation-badge--${l.tone}`} title={l.long}>
          <span aria-hidden="true">
            {l.short}
            {l.outdated > 0 && ' ⚠'}
            {!l.published && l.tone !== 'none' && ' (kept back)'}
          </span>
          <span className="visually-hidden">{l.long}</span>
        </li>
      ))}
    </ul>
  );
}
