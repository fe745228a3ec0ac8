import { Button, CheckboxField, Loader, Text, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { lazy, Suspense, useId } from 'react';
import type { FieldDecl } from '../../lib/collections';
import { stripHtml } from '../../lib/format';
import type { Language } from './languages';
import { errorsIn, type FieldState } from './translationState';
import type { TranslationEditor } from './useTranslationEdits';
import './translations.css';

// Quill is large: it loads with the first rich-text field shown, never with the first screen.
const ReactQuill = lazy(async () => {
  await import('react-quill-new/dist/quill.snow.css');
  return import('react-quill-new');
});

const TOOLBAR = [['bold', 'italic', 'underline', 'strike'], [{ list: 'ordered' }, { list: 'bullet' }], ['link'], ['clean']];

export const NOT_TRANSLATED = 'Not translated yet';
export const OUT_OF_DATE = 'May be out of date';

interface Props {
  /** fields: the translatable fields, in the form's order. */
  fields: FieldDecl[];
  lang: Language;
  defaultLanguage: Language;
  tr: TranslationEditor;
  /** defaults: the default-language values as the form holds them (unsaved edits included). */
  defaults: Record<string, unknown>;
  errors: Record<string, string>;
  /** note: what the form says of its other fields (the same in every language). */
  note?: string;
}

const WIDE = new Set(['longtext', 'richtext']);

function stateText(state: FieldState): string | undefined {
  return state === 'missing' ? NOT_TRANSLATED : state === 'outdated' ? OUT_OF_DATE : undefined;
}

/** Reference is the default language's text of a field, read-only, in its own language and direction. */
function Reference({ field, value, lang, id }: { field: FieldDecl; value: unknown; lang: Language; id: string }) {
  const raw = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  const text = field.type === 'richtext' ? stripHtml(raw) : raw;
  return (
    <div className="translation-ref" id={id}>
      <span className="translation-ref__caption">
        {field.label} in {lang.english}
      </span>
      {text ? (
        <div className="translation-ref__text" lang={lang.code} dir={lang.dir}>
          {text}
        </div>
      ) : (
        <div className="translation-ref__text translation-ref__text--empty">Empty in {lang.english}</div>
      )}
    </div>
  );
}

/** TranslatedRichText edits a rich-text field's translation with Quill, in the language's direction. */
function TranslatedRichText({ label, value, lang, onChange, hint, error }: { label: string; value: string; lang: Language; onChange: (v: string) => void; hint?: string; error?: string }) {
  const id = useId();
  return (
    <div className="rich-text-field translation-rich">
      <label id={id} className="amplify-label">
        {label}
      </label>
      {/* The editor's text is in the language (and its direction); the label and toolbar are the panel's. */}
      <div className="translation-rich__editor" lang={lang.code} dir={lang.dir}>
        <Suspense fallback={<Loader />}>
          <ReactQuill
            theme="snow"
            value={value}
            onChange={(html, _delta, source) => source === 'user' && onChange(html === '<p><br></p>' ? '' : html)}
            modules={{ toolbar: TOOLBAR }}
            aria-labelledby={id}
          />
        </Suspense>
      </div>
      {hint && <p className="translation-state">{hint}</p>}
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}

/**
 * TranslatedFields edits a record's translation into one language: each translatable field with
 * the default language's text beside it for reference, "Not translated yet" on an empty one and
 * "May be out of date" (with a way to say it is not) where the default changed after it; the
 * inputs carry the language's lang and dir; the "Publish this translation" box keeps a language
 * back while it is being written.
 */
export default function TranslatedFields({ fields, lang, defaultLanguage, tr, defaults, errors, note }: Props) {
  const prefix = useId();
  const fieldErrors = errorsIn(errors, lang.code);
  const languageError = errors[`translations.${lang.code}`];
  return (
    <div className="translated-fields" lang="en" dir="ltr">
      <div className="translation-head">
        <CheckboxField
          label="Publish this translation"
          name={`publish-${lang.code}`}
          checked={tr.published(lang.code)}
          onChange={(e) => tr.setPublished(lang.code, e.target.checked)}
        />
        <Text className="translation-head__note" fontSize="small">
          {tr.published(lang.code)
            ? `The ${lang.english} version is shown on the website where it is translated.`
            : `Kept back: the website does not show this ${lang.english} translation yet.`}
        </Text>
      </div>
      {languageError && (
        <p className="field-error" role="alert">
          {languageError}
        </p>
      )}
      {fields.map((f) => {
        const state = tr.state(lang.code, f.name);
        const value = tr.text(lang.code, f.name);
        const hint = stateText(state);
        const error = fieldErrors[f.name];
        const refId = `${prefix}-${f.name}-ref`;
        const common = {
          label: f.label,
          name: `translations.${lang.code}.${f.name}`,
          lang: lang.code,
          dir: lang.dir,
          hasError: Boolean(error),
          errorMessage: error,
          descriptiveText: hint,
          'aria-details': refId,
        };
        const set = (v: string) => tr.setText(lang.code, f.name, v);
        return (
          <div key={f.name} className={`translation-row${WIDE.has(f.type) ? ' translation-row--wide' : ''} translation-row--${state}`}>
            <Reference field={f} value={defaults[f.name]} lang={defaultLanguage} id={refId} />
            <div className="translation-input">
              {f.type === 'richtext' ? (
                <TranslatedRichText label={f.label} value={value} lang={lang} onChange={set} hint={hint} error={error} />
              ) : f.type === 'longtext' ? (
                <TextAreaField {...common} rows={4} value={value} onChange={(e) => set(e.target.value)} />
              ) : f.format === 'slug' ? (
                <TextField {...common} autoCapitalize="none" spellCheck={false} value={value} onChange={(e) => set(e.target.value)} />
              ) : (
                <TextField {...common} value={value} onChange={(e) => set(e.target.value)} />
              )}
              {state === 'outdated' && (
                <Button size="small" variation="link" onClick={() => tr.confirm(lang.code, f.name)}>
                  {`Still right: mark ${f.label} as up to date`}
                </Button>
              )}
            </div>
          </div>
        );
      })}
      {note && (
        <Text className="translation-note" fontSize="small">
          {note}
        </Text>
      )}
    </div>
  );
}
