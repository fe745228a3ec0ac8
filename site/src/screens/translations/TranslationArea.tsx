import { Loader } from '@aws-amplify/ui-react';
import { lazy, Suspense, useId, useMemo, type ReactNode } from 'react';
import type { FieldDecl } from '../../lib/collections';
import { describe, type SiteLanguages } from './languages';
import { LanguageSwitch } from './LanguageSwitch';
import { translatableFields } from './translationState';
import { useSiteLanguages } from './useSiteLanguages';
import type { TranslationEditor } from './useTranslationEdits';
import './translations.css';

// The translation fields (and the rich-text editor they may hold) load the first time another language is chosen.
const TranslatedFields = lazy(() => import('./TranslatedFields'));

/** NOTE_OTHER_FIELDS is what a translation says of the fields that are the same in every language. */
export function otherFieldsNote(defaultLanguage: { english: string }): string {
  return `The other fields (images, dates, switches, choices) are the same in every language: edit them in ${defaultLanguage.english}.`;
}

interface Props {
  /** fields: the form's declared fields (the translatable ones get a translation). */
  fields: FieldDecl[];
  /** tr: the form's translations; without it the form is the default language alone. */
  tr?: TranslationEditor;
  /** defaults: the form's own values (the default-language text shown for reference). */
  defaults: Record<string, unknown>;
  errors: Record<string, string>;
  /** defaultDirty: the default language's fields hold unsaved changes (a dot on its tab). */
  defaultDirty?: boolean;
  /** note replaces the standard note on the fields the translation leaves out. */
  note?: string;
  /** children: the form's own fields, shown on the default language. */
  children: ReactNode;
}

/** errorLanguages are the languages a save's errors name (translations.{lang}…). */
function errorLanguages(errors: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(errors)) {
    const m = /^translations\.([^.]+)/.exec(k);
    if (v && m && !out.includes(m[1])) out.push(m[1]);
  }
  return out;
}

/**
 * useLanguages is the site's languages for a form with translatable fields; undefined (no switch)
 * while unknown, without translatable fields, or when the site has one language.
 */
export function useFormLanguages(fields: FieldDecl[], tr?: TranslationEditor): SiteLanguages | undefined {
  const wanted = Boolean(tr) && translatableFields(fields).length > 0;
  const site = useSiteLanguages(wanted);
  return wanted && site && site.others.length > 0 ? site : undefined;
}

/**
 * TranslationArea puts a language switch over a form with translatable fields when the site has
 * other languages: the default language shows the form's own fields (children), another language
 * its translation. Without other languages it is the form alone.
 */
export function TranslationArea({ fields, tr, defaults, errors, defaultDirty, note, children }: Props) {
  const site = useFormLanguages(fields, tr);
  const idPrefix = useId();
  const translatable = useMemo(() => translatableFields(fields), [fields]);
  if (!site || !tr) return <>{children}</>;
  // A language the save's errors name though the site no longer lists it still shows.
  const current = tr.lang ? (site.others.find((l) => l.code === tr.lang) ?? describe(tr.lang, site.catalogue)) : undefined;
  const others = current && !site.others.includes(current) ? [...site.others, current] : site.others;
  const panelId = `${idPrefix}-panel`;
  return (
    <div className="translation-area">
      <LanguageSwitch
        defaultLanguage={site.defaultLanguage}
        others={others}
        current={tr.lang}
        onChange={tr.setLang}
        dirty={tr.dirtyLanguages}
        defaultDirty={defaultDirty}
        withErrors={errorLanguages(errors)}
        panelId={panelId}
        idPrefix={idPrefix}
      />
      <div role="tabpanel" id={panelId} aria-labelledby={`${idPrefix}-${current?.code ?? site.defaultLanguage.code}`} className="translation-panel">
        {current ? (
          <Suspense fallback={<Loader />}>
            <TranslatedFields
              fields={translatable}
              lang={current}
              defaultLanguage={site.defaultLanguage}
              tr={tr}
              defaults={defaults}
              errors={errors}
              note={note ?? otherFieldsNote(site.defaultLanguage)}
            />
          </Suspense>
        ) : (
          children
        )}
      </div>
    </div>
  );
}
