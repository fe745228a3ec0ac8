import { Button, Card, Flex, Heading, Loader, SelectField, Text, TextAreaField } from '@aws-amplify/ui-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { useSWRConfig } from 'swr';
import catalogue from '../../../../shared/themes/catalogue.json';
import { KEYS } from '../../api/hooks';
import { useApp } from '../../app/AppContext';
import { LoadError } from '../../components/LoadError';
import { can, collectionFor } from '../../lib/collections';
import { useSingleton } from '../singleton/useSingleton';
import './themes.css';

interface Palette {
  name: string;
  primaryColor: string;
  secondaryColor: string;
}

const PALETTES: Palette[] = catalogue.palettes;
/** The CSS limit the server enforces (51,200 bytes), shown as the user types. */
const CSS_LIMIT = 51200;

/**
 * ThemeSettingsScreen edits the theme settings (SPEC §2): font family, colour palette, custom
 * CSS. The CSS is stored as text for the public website; the admin panel never injects it.
 */
export function ThemeSettingsScreen() {
  const base = collectionFor('theme-settings');
  if (!base) throw new Error('theme-settings is not declared');
  // The active theme is chosen on the Themes screen (another permission); it is not sent from here.
  const decl = useMemo(() => ({ ...base, fields: base.fields.filter((f) => f.name !== 'theme') }), [base]);
  const { user } = useApp();
  const { mutate } = useSWRConfig();
  const form = useSingleton(decl, () => void mutate(KEYS.tenantInfo));
  const fonts = decl.fields.find((f) => f.name === 'fontFamily')?.options ?? [];
  const css = String(form.values.customCss ?? '');
  const cssBytes = new TextEncoder().encode(css).length;

  const choosePalette = (p: Palette) => {
    form.setField('colorSchemeName', p.name);
    form.setField('primaryColor', p.primaryColor);
    form.setField('secondaryColor', p.secondaryColor);
  };

  return (
    <Card variation="outlined" className="panel">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" marginBottom="medium">
        <Heading level={2} className="screen-heading">
          Theme Settings
        </Heading>
        <Link to="/themes">Themes</Link>
      </Flex>
      {form.loading ? (
        <Loader />
      ) : form.failed ? (
        <LoadError error={form.error} onRetry={form.reload} />
      ) : (
        <form onSubmit={form.save} noValidate aria-label="Theme Settings">
          <Flex direction="column" gap="large">
            <SelectField
              label="Font Family"
              value={String(form.values.fontFamily ?? '')}
              onChange={(e) => form.setField('fontFamily', e.target.value)}
              hasError={Boolean(form.errors.fontFamily)}
              errorMessage={form.errors.fontFamily}
            >
              {fonts.map((f) => (
                <option key={f} value={f} style={{ fontFamily: f }}>
                  {f}
                </option>
              ))}
            </SelectField>
            <div>
              <Text fontWeight="bold" marginBottom="small">
                Colour Palette
              </Text>
              <div className="card-grid" role="radiogroup" aria-label="Colour Palette">
                {PALETTES.map((p) => {
                  const on = form.values.colorSchemeName === p.name;
                  return (
                    <button
                      key={p.name}
                      type="button"
                      role="radio"
                      aria-checked={on}
                      aria-label={`Palette ${p.name}`}
                      className={`choice-card${on ? ' choice-card--active' : ''}`}
                      onClick={() => choosePalette(p)}
                    >
                      <span className="palette-swatch" aria-hidden="true">
                        <span style={{ background: p.primaryColor }} />
                        <span style={{ background: p.secondaryColor }} />
                      </span>
                      <Text padding="small" fontWeight={on ? 'bold' : 'normal'}>
                        {p.name}
                      </Text>
                    </button>
                  );
                })}
              </div>
            </div>
            <TextAreaField
              label="Custom CSS"
              className="css-field"
              rows={10}
              value={css}
              spellCheck={false}
              onChange={(e) => form.setField('customCss', e.target.value)}
              descriptiveText={`Applied to the public website only. ${cssBytes.toLocaleString()} / ${CSS_LIMIT.toLocaleString()} bytes.`}
              hasError={Boolean(form.errors.customCss) || cssBytes > CSS_LIMIT}
              errorMessage={form.errors.customCss ?? 'Custom CSS must be at most 51,200 bytes.'}
            />
            {can(user, decl, 'EDIT') && (
              <Flex justifyContent="flex-end">
                <Button type="submit" variation="primary" isLoading={form.saving} loadingText="Please wait..." isDisabled={cssBytes > CSS_LIMIT}>
                  Save Changes
                </Button>
              </Flex>
            )}
          </Flex>
        </form>
      )}
    </Card>
  );
}
