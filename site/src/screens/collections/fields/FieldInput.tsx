import { Flex, Loader, SelectField, SwitchField, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { lazy, Suspense, useState } from 'react';
import { isStatusField, requiredLabel, type FieldDecl } from '../../../lib/collections';
import { useRefName, useRefOptions } from '../useRefOptions';
import type { MediaItem } from '../../../components/media-picker/rules';
import { FileField } from './FileField';
import { PermissionsField } from './PermissionsField';
import { RichTextField } from './RichTextField';

interface Props {
  field: FieldDecl;
  value: unknown;
  error?: string;
  editing: boolean;
  /** A permissions field of someone who holds every permission (an administrator, allWhen). */
  holdsAll?: boolean;
  /** picked is the media record an image or file field's picker chose (its size, for sizeOf fields). */
  onChange: (value: unknown, picked?: MediaItem) => void;
  /** values: the form's other values (a field whose input depends on another: the Site settings' languages). */
  values?: Record<string, unknown>;
}

// Issue 35: the Site settings' language pickers (format "language", type "languages") load with that screen only.
const LanguageField = lazy(() => import('../../translations/LanguageFields'));

const KEEP_PASSWORD = 'Only Enter if you want to change';

/** WIDE_TYPES take both form columns. */
export const WIDE_TYPES = new Set(['longtext', 'richtext', 'json', 'permissions']);

function ReferenceInput({ field, value, error, onChange }: Props) {
  const [search, setSearch] = useState('');
  const { options, searching } = useRefOptions(field.ref, search);
  const current = String(value ?? '');
  const { name: currentName } = useRefName(field.ref, current);
  return (
    <div className="ref-input">
      {/* The server searches names as the user types; the select lists one page of matches. */}
      <TextField
        label="Filter choices by name"
        labelHidden
        size="small"
        placeholder={`Search ${field.label.toLowerCase()} by name`}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        aria-busy={searching}
      />
      <SelectField
        label={requiredLabel(field)}
        value={current}
        onChange={(e) => onChange(e.target.value)}
        hasError={Boolean(error)}
        errorMessage={error}
      >
        <option value="">Select {field.label}</option>
        {current && !options.some((o) => o.id === current) && <option value={current}>{currentName ?? current}</option>}
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </SelectField>
    </div>
  );
}

/** ColorInput is a colour picker beside the hex text it stands for (either can be edited). */
function ColorInput({ field, value, error, onChange }: Props) {
  const hex = typeof value === 'string' ? value : '';
  const label = requiredLabel(field);
  return (
    <Flex gap="small" alignItems="flex-end">
      <input
        type="color"
        className="color-swatch"
        aria-label={`${label} picker`}
        value={/^#[0-9a-fA-F]{6}$/.test(hex) ? hex : '#000000'}
        onChange={(e) => onChange(e.target.value)}
      />
      <TextField
        label={label}
        name={field.name}
        value={hex}
        placeholder="#1a73e8"
        hasError={Boolean(error)}
        errorMessage={error}
        onChange={(e) => onChange(e.target.value)}
        flex="1"
      />
    </Flex>
  );
}

/** timeZones are the IANA names the browser knows, offered as suggestions (the server checks the name). */
function timeZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
}

/** TimeZoneInput is a time zone name (format "timezone") typed with the browser's names as suggestions. */
function TimeZoneInput({ field, value, error, onChange }: Props) {
  const listId = `${field.name}-zones`;
  const [zones] = useState(timeZones);
  return (
    <>
      <TextField
        label={requiredLabel(field)}
        name={field.name}
        value={typeof value === 'string' ? value : ''}
        placeholder="Europe/London"
        list={listId}
        autoComplete="off"
        descriptiveText="An IANA time zone name, such as Europe/London or America/New_York; empty means UTC"
        hasError={Boolean(error)}
        errorMessage={error}
        onChange={(e) => onChange(e.target.value)}
      />
      <datalist id={listId}>
        {zones.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
    </>
  );
}

/** FieldInput renders the editor for one declared field by its type. */
export function FieldInput(props: Props) {
  const { field, value, error, editing, holdsAll, onChange } = props;
  if (field.format === 'language' || field.type === 'languages') {
    return (
      <Suspense fallback={<Loader />}>
        <LanguageField field={field} value={value} error={error} onChange={onChange} values={props.values} />
      </Suspense>
    );
  }
  const label = requiredLabel(field);
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  const common = {
    label,
    name: field.name,
    hasError: Boolean(error),
    errorMessage: error,
  };

  switch (field.type) {
    case 'boolean': {
      const on = value === true;
      // The record status switch reads Enable / Disabled (SPEC §2); other switches keep their label.
      const switchLabel = isStatusField(field) ? (on ? 'Enable' : 'Disabled') : field.label;
      return (
        <SwitchField
          label={switchLabel}
          name={field.name}
          isChecked={on}
          onChange={(e) => onChange(e.target.checked)}
          labelPosition="end"
          className="form-switch"
        />
      );
    }
    case 'longtext':
      return <TextAreaField {...common} rows={4} value={text} onChange={(e) => onChange(e.target.value)} />;
    case 'emails':
      return (
        <TextAreaField {...common} rows={3} inputMode="email" autoCapitalize="none" spellCheck={false} value={text} onChange={(e) => onChange(e.target.value)} descriptiveText="One email address a line (at most 10)" />
      );
    case 'json':
      return (
        <TextAreaField
          {...common}
          rows={8}
          className="json-field"
          value={text}
          onChange={(e) => onChange(e.target.value)}
          descriptiveText="JSON text"
        />
      );
    case 'richtext':
      return <RichTextField label={label} value={text} onChange={onChange} errorMessage={error} />;
    case 'number':
      return <TextField {...common} type="number" inputMode="decimal" value={text} onChange={(e) => onChange(e.target.value)} />;
    case 'date':
      return <TextField {...common} type="date" value={text} onChange={(e) => onChange(e.target.value)} />;
    case 'datetime':
      return (
        <TextField
          {...common}
          type="datetime-local"
          value={text}
          descriptiveText="Your local time; leave empty for none"
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'email':
      return <TextField {...common} type="email" value={text} onChange={(e) => onChange(e.target.value)} />;
    case 'url':
      return <TextField {...common} type="url" value={text} onChange={(e) => onChange(e.target.value)} />;
    case 'color':
      return <ColorInput {...props} />;
    case 'password':
      return (
        <TextField
          {...common}
          type="password"
          autoComplete="new-password"
          placeholder={editing ? KEEP_PASSWORD : ''}
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'select':
      return (
        <SelectField {...common} value={text} onChange={(e) => onChange(e.target.value)}>
          <option value="">Select {field.label}</option>
          {(field.options ?? []).map((o) => (
            <option key={o} value={o}>
              {field.optionLabels?.[o] ?? o}
            </option>
          ))}
        </SelectField>
      );
    case 'reference':
      return <ReferenceInput {...props} />;
    case 'image':
    case 'file':
      return <FileField label={label} value={text} onChange={onChange} accept={field.type} errorMessage={error} />;
    case 'permissions':
      return (
        <PermissionsField
          label={label}
          value={Array.isArray(value) ? (value as string[]) : []}
          holdsAll={holdsAll}
          onChange={onChange}
          errorMessage={error}
        />
      );
    default:
      if (field.format === 'timezone') return <TimeZoneInput {...props} />;
      // A phone number brings up the phone's dial pad; a slug is typed without capitals or corrections.
      if (field.format === 'tel') return <TextField {...common} type="tel" autoComplete="tel" value={text} onChange={(e) => onChange(e.target.value)} />;
      if (field.format === 'slug') return <TextField {...common} autoCapitalize="none" spellCheck={false} value={text} onChange={(e) => onChange(e.target.value)} />;
      return <TextField {...common} value={text} onChange={(e) => onChange(e.target.value)} />;
  }
}
