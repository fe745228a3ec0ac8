import { Button, Flex, SelectField, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { MediaPicker } from '../../../components/media-picker/MediaPicker';
import { EMBED_TYPES, type ConfigItem, type SectionType } from '../../../lib/pageSections';

export interface FormOption {
  id: string;
  name: string;
}

interface Props {
  type: SectionType;
  item: ConfigItem;
  index: number;
  forms: FormOption[];
  /** errorOf returns the server's message for one of the item's fields. */
  errorOf: (field: string) => string | undefined;
  onChange: (item: ConfigItem) => void;
  onRemove: () => void;
}

/** ItemFields edits one config item with the fields of its section's type (SPEC §2). */
export function ItemFields({ type, item, index, forms, errorOf, onChange, onRemove }: Props) {
  const set = <K extends keyof ConfigItem>(name: K, value: ConfigItem[K]) => onChange({ ...item, [name]: value });
  const text = (name: 'title' | 'subTitle' | 'ctaText' | 'ctaUrl' | 'embedUrl', label: string) => (
    <TextField
      label={label}
      size="small"
      value={(item[name] as string | undefined) ?? ''}
      onChange={(e) => set(name, e.target.value)}
      hasError={Boolean(errorOf(name))}
      errorMessage={errorOf(name)}
    />
  );
  const withImage = ['slider', 'card-row', 'banner', 'text-image'].includes(type.slug);
  return (
    <fieldset className="section-item" aria-label={`Item ${index + 1}`}>
      <Flex justifyContent="space-between" alignItems="center">
        <legend className="section-item-legend">Item {index + 1}</legend>
        <Button size="small" variation="link" colorTheme="error" onClick={onRemove}>
          Remove item
        </Button>
      </Flex>
      <div className="section-item-grid">
        {withImage && (
          <div className="form-cell--wide">
            <MediaPicker label="Image" accept="image" value={item.image} onChange={(v) => set('image', v)} errorMessage={errorOf('image')} />
          </div>
        )}
        {text('title', 'Title')}
        {text('subTitle', 'Sub-title')}
        <div className="form-cell--wide">
          <TextAreaField label="Description" size="small" rows={2} value={item.description} onChange={(e) => set('description', e.target.value)} errorMessage={errorOf('description')} hasError={Boolean(errorOf('description'))} />
        </div>
        {withImage && text('ctaText', 'Button text')}
        {withImage && text('ctaUrl', 'Button link')}
        {type.slug === 'text-image' && (
          <SelectField label="Text position" size="small" value={item.textPosition ?? 'LEFT'} onChange={(e) => set('textPosition', e.target.value as 'LEFT' | 'RIGHT')}>
            <option value="LEFT">Text on the left</option>
            <option value="RIGHT">Text on the right</option>
          </SelectField>
        )}
        {type.slug === 'embed' && text('embedUrl', 'Embed URL (https)')}
        {type.slug === 'embed' && (
          <SelectField label="Embed type" size="small" value={item.embedType ?? 'OTHER'} onChange={(e) => set('embedType', e.target.value)}>
            {EMBED_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </SelectField>
        )}
        {type.slug === 'form' && (
          <SelectField
            label="Form"
            size="small"
            value={item.formId ?? ''}
            onChange={(e) => set('formId', e.target.value)}
            hasError={Boolean(errorOf('formId'))}
            errorMessage={errorOf('formId')}
          >
            <option value="">Select a form</option>
            {forms.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </SelectField>
        )}
      </div>
    </fieldset>
  );
}
