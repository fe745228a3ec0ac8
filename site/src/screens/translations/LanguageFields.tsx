import { CheckboxField, SelectField, Text, TextField } from '@aws-amplify/ui-react';
import { useEffect, useId } from 'react';
import useSWR, { mutate } from 'swr';
import { keys } from '../../api/dataProvider';
import { requiredLabel, type FieldDecl } from '../../lib/collections';
import { MAX_OTHER_LANGUAGES, describe, languageLabel, readCodes, type Language } from './languages';
import { LANGUAGES_KEY, useCatalogue } from './useSiteLanguages';
import './translations.css';

interface Props {
  field: FieldDecl;
  value: unknown;
  error?: string;
  onChange: (value: unknown) => void;
  /** values: the form's other values (the default language, for the others' picker). */
  values?: Record<string, unknown>;
}

/** defaultCode is the default language the form holds (Site settings' defaultLanguage, the contract's name). */
function defaultCode(values: Record<string, unknown> | undefined): string {
  const v = values?.defaultLanguage;
  return typeof v === 'string' && v ? v : 'en';
}

/** LanguageSelect chooses one language of the catalogue (a site's default), each by its own name and its English one. */
function LanguageSelect({ field, value, error, onChange }: Props) {
  const { catalogue, loading } = useCatalogue();
  const current = typeof value === 'string' ? value : '';
  if (!loading && catalogue.length === 0) {
    return <TextField label={requiredLabel(field)} name={field.name} value={current} descriptiveText="A language code, such as en or fr" hasError={Boolean(error)} errorMessage={error} onChange={(e) => onChange(e.target.value)} />;
  }
  const listed = catalogue.some((l) => l.code === current);
  return (
    <SelectField
      label={requiredLabel(field)}
      name={field.name}
      value={current}
      onChange={(e) => onChange(e.target.value)}
      hasError={Boolean(error)}
      errorMessage={error}
      descriptiveText="The language of the website's main addresses (/); the others are at /{code}/."
    >
      {!current && <option value="">Select {field.label}</option>}
      {current && !listed && <option value={current}>{current}</option>}
      {catalogue.map((l) => (
        <option key={l.code} value={l.code} lang={l.code}>
          {languageLabel(l)}
        </option>
      ))}
    </SelectField>
  );
}

/**
 * LanguagesPicker chooses a site's other languages (at most 9) from the catalogue: one box per
 * language, each named in its own language (with lang and dir) and in English; the default
 * language is not one of them.
 */
function LanguagesPicker({ field, value, error, onChange, values }: Props) {
  const { catalogue, loading } = useCatalogue();
  const id = useId();
  const chosen = readCodes(value);
  const def = defaultCode(values);
  const full = chosen.filter((c) => c !== def).length >= MAX_OTHER_LANGUAGES;
  // A language made the default leaves the others.
  useEffect(() => {
    if (chosen.includes(def)) onChange(chosen.filter((c) => c !== def));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [def, chosen.join(',')]);
  const toggle = (code: string, on: boolean) => onChange(on ? [...chosen, code] : chosen.filter((c) => c !== code));
  // Codes the site holds that the catalogue does not list still show (to be removed).
  const shown: Language[] = [...catalogue, ...chosen.filter((c) => !catalogue.some((l) => l.code === c)).map((c) => describe(c, catalogue))];
  return (
    <fieldset className="language-picker" aria-describedby={`${id}-count`}>
      <legend className="amplify-label">{requiredLabel(field)}</legend>
      <Text id={`${id}-count`} className="language-picker__count">
        {`${chosen.filter((c) => c !== def).length} of at most ${MAX_OTHER_LANGUAGES} chosen. Each is published at /{code}/ beside ${describe(def, catalogue).english}.`}
      </Text>
      {loading && <Text>Loading the languages…</Text>}
      <div className="language-picker__grid">
        {shown.map((l) => {
          const on = chosen.includes(l.code);
          const isDefault = l.code === def;
          return (
            <CheckboxField
              key={l.code}
              name={`${field.name}-${l.code}`}
              value={l.code}
              checked={on && !isDefault}
              isDisabled={isDefault || (!on && full)}
              onChange={(e) => toggle(l.code, e.target.checked)}
              label={
                <span>
                  <span lang={l.code} dir={l.dir}>
                    {l.name}
                  </span>
                  {l.english !== l.name && ` (${l.english})`}
                  {isDefault && ' — the default'}
                </span>
              }
            />
          );
        })}
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** LanguageField is the Site settings picker of a field declared with format "language" (one) or of type "languages" (the others). */
export default function LanguageField(props: Props) {
  // The Site settings as their screen loaded or saved them: once saved, the language switches
  // elsewhere (GET /languages says the site's languages) read them again.
  const { data: settings } = useSWR(keys.singleton('site-settings'), null);
  useEffect(() => {
    if (settings !== undefined) void mutate(LANGUAGES_KEY);
  }, [settings]);
  return props.field.type === 'languages' ? <LanguagesPicker {...props} /> : <LanguageSelect {...props} />;
}
