import { Badge, Button, Flex, SwitchField, TextField } from '@aws-amplify/ui-react';
import { useId, useRef } from 'react';
import { FindingsList, useDescribedBy } from '../../../components/a11y/Findings';
import type { Finding } from '../../../lib/a11y';
import { canAddItem, isColour, moveByKey, newItem, pickerColour, type DraftSection, type SectionType } from '../../../lib/pageSections';
import { ItemFields, type FormOption } from './ItemFields';
import { SectionPreview } from './SectionPreview';
import { SortableList, SortableRow } from './Sortable';

interface Props {
  section: DraftSection;
  index: number;
  type: SectionType | undefined;
  forms: FormOption[];
  /** errors are the server's field errors of this section, keyed without its prefix. */
  errors: Record<string, string>;
  /** findings are the accessibility checker's findings inside this section. */
  findings?: Finding[];
  onChange: (s: DraftSection) => void;
  onDelete: () => void;
}

function ColourField({ label, value, fallback, onChange, error }: { label: string; value: string; fallback: string; onChange: (v: string) => void; error?: string }) {
  const bad = !isColour(value);
  return (
    <Flex direction="column" gap="xxs" className="colour-field">
      <Flex alignItems="flex-end" gap="xs">
        <TextField
          label={label}
          size="small"
          placeholder="#rrggbb"
          value={value}
          onChange={(e) => onChange(e.target.value.trim())}
          hasError={bad || Boolean(error)}
          errorMessage={error ?? 'Use #rgb or #rrggbb'}
        />
        <input type="color" aria-label={`${label} picker`} value={pickerColour(value, fallback)} onChange={(e) => onChange(e.target.value)} />
      </Flex>
    </Flex>
  );
}

/** SectionCard edits one section: its type, texts, colours, status, items, and a live preview. */
export function SectionCard({ section, index, type, forms, errors, findings = [], onChange, onDelete }: Props) {
  const ref = useRef<HTMLElement>(null);
  const findingsId = useId();
  useDescribedBy(ref, findingsId, findings.length > 0);
  const set = <K extends keyof DraftSection>(name: K, value: DraftSection[K]) => onChange({ ...section, [name]: value });
  const itemError = (i: number) => (field: string) => errors[`config[${i}].${field}`];
  return (
    <section ref={ref} className="section-card" aria-label={`Section ${index + 1}: ${section.title}`}>
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <Flex alignItems="center" gap="small">
          <Badge variation="info">{type?.name ?? 'Unknown type'}</Badge>
          <strong>
            {index + 1}. {section.title}
          </strong>
        </Flex>
        <Button size="small" colorTheme="error" onClick={onDelete}>
          Delete section
        </Button>
      </Flex>
      <FindingsList findings={findings} id={findingsId} inSection />
      <div className="section-grid">
        <TextField label="Section title" size="small" value={section.title} onChange={(e) => set('title', e.target.value)} errorMessage={errors.title} hasError={Boolean(errors.title)} />
        <TextField label="Section sub-title" size="small" value={section.subTitle} onChange={(e) => set('subTitle', e.target.value)} />
        <ColourField label="Background colour" value={section.backgroundColor} fallback="#ffffff" onChange={(v) => set('backgroundColor', v)} error={errors.backgroundColor} />
        <ColourField label="Font colour" value={section.fontColor} fallback="#000000" onChange={(v) => set('fontColor', v)} error={errors.fontColor} />
        <SwitchField label={section.status ? 'Enable' : 'Disabled'} isChecked={section.status} onChange={(e) => set('status', e.target.checked)} labelPosition="end" />
      </div>
      {errors.config && <p className="field-error">{errors.config}</p>}
      {type && (
        <SortableList ids={section.items.map((it) => it.id)} onMove={(a, o) => set('items', moveByKey(section.items, (it) => it.id, a, o))}>
          {section.items.map((item, i) => (
            <SortableRow key={item.id} id={item.id} handleLabel={`Drag item ${i + 1} of ${section.title}`}>
              <ItemFields
                type={type}
                item={item}
                index={i}
                forms={forms}
                errorOf={itemError(i)}
                onChange={(next) => set('items', section.items.map((it) => (it.id === item.id ? next : it)))}
                onRemove={() => set('items', section.items.filter((it) => it.id !== item.id))}
              />
            </SortableRow>
          ))}
        </SortableList>
      )}
      {canAddItem(type, section.items.length) && (
        <Button size="small" onClick={() => set('items', [...section.items, newItem(type)])}>
          Add item
        </Button>
      )}
      <details className="section-preview-wrap" open>
        <summary>Preview</summary>
        <SectionPreview section={section} type={type} forms={forms} />
      </details>
    </section>
  );
}
