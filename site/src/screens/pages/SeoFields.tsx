import { SwitchField, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { MediaPicker } from '../../components/media-picker/MediaPicker';
import { ScheduleChip } from '../../components/ScheduleChip';
import { fromLocalInput } from '../../lib/schedule';
import type { PageFields } from './usePageEditor';

interface Props {
  fields: PageFields;
  errors: Record<string, string>;
  setField: <K extends keyof PageFields>(name: K, value: PageFields[K]) => void;
}

type TextKey = 'metaTitle' | 'metaKeywords' | 'canonicalUrl' | 'ogTitle' | 'ogType' | 'ogUrl';

/** SeoFields edits the page's search and sharing fields (SPEC §3). */
export function SeoFields({ fields, errors, setField }: Props) {
  const text = (name: TextKey, label: string, placeholder?: string) => (
    <TextField
      label={label}
      name={name}
      placeholder={placeholder}
      value={fields[name]}
      onChange={(e) => setField(name, e.target.value)}
      hasError={Boolean(errors[name])}
      errorMessage={errors[name]}
    />
  );
  return (
    <div className="page-form-grid">
      {text('metaTitle', 'Meta Title')}
      {text('metaKeywords', 'Meta Keywords', 'admissions, campus, fees')}
      <div className="form-cell--wide">
        <TextAreaField label="Meta Description" name="metaDescription" rows={2} value={fields.metaDescription} onChange={(e) => setField('metaDescription', e.target.value)} errorMessage={errors.metaDescription} hasError={Boolean(errors.metaDescription)} />
      </div>
      {text('canonicalUrl', 'Canonical URL', 'https://')}
      {text('ogTitle', 'OG Title')}
      <div className="form-cell--wide">
        <TextAreaField label="OG Description" name="ogDescription" rows={2} value={fields.ogDescription} onChange={(e) => setField('ogDescription', e.target.value)} errorMessage={errors.ogDescription} hasError={Boolean(errors.ogDescription)} />
      </div>
      {text('ogType', 'OG Type', 'website')}
      {text('ogUrl', 'OG URL', 'https://')}
      <div className="form-cell--wide">
        <MediaPicker label="OG Image" accept="image" value={fields.ogImage} onChange={(v) => setField('ogImage', v)} errorMessage={errors.ogImage} />
      </div>
      <TextField
        label="Publish at"
        name="publishAt"
        type="datetime-local"
        descriptiveText="Your local time; empty publishes at once"
        value={fields.publishAt}
        onChange={(e) => setField('publishAt', e.target.value)}
        hasError={Boolean(errors.publishAt)}
        errorMessage={errors.publishAt}
      />
      <TextField
        label="Unpublish at"
        name="unpublishAt"
        type="datetime-local"
        descriptiveText="Your local time; empty keeps it up"
        value={fields.unpublishAt}
        onChange={(e) => setField('unpublishAt', e.target.value)}
        hasError={Boolean(errors.unpublishAt)}
        errorMessage={errors.unpublishAt}
      />
      <div className="form-cell--wide page-switches">
        <SwitchField label="No Index" isChecked={fields.noIndex} onChange={(e) => setField('noIndex', e.target.checked)} labelPosition="end" />
        <SwitchField label="No Follow" isChecked={fields.noFollow} onChange={(e) => setField('noFollow', e.target.checked)} labelPosition="end" />
        <SwitchField label="Published" isChecked={fields.isPublished} onChange={(e) => setField('isPublished', e.target.checked)} labelPosition="end" />
        <SwitchField label={fields.status ? 'Enable' : 'Disabled'} isChecked={fields.status} onChange={(e) => setField('status', e.target.checked)} labelPosition="end" />
        <ScheduleChip publishAt={fromLocalInput(fields.publishAt)} unpublishAt={fromLocalInput(fields.unpublishAt)} />
      </div>
    </div>
  );
}
