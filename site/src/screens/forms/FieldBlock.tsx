import { Button, CheckboxField, Flex, SelectField, TextField } from '@aws-amplify/ui-react';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useId } from 'react';
import { FIELD_TYPES, hasOptions, newOption, optionSuggestions, type FieldType, type FormField } from './builder';

interface Props {
  field: FormField;
  index: number;
  count: number;
  allFields: FormField[];
  errors: Record<string, string>;
  onChange: (patch: Partial<Omit<FormField, 'id'>>) => void;
  onRemove: () => void;
  onMove: (to: number) => void;
}

/** FieldBlock edits one field of the form: label, type, required, hint and options; draggable by its handle. */
export function FieldBlock({ field, index, count, allFields, errors, onChange, onRemove, onMove }: Props) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: field.id });
  const listId = useId();
  const name = field.label.trim() || `Field ${index + 1}`;
  const err = (prop: string) => errors[`fields.${index}.${prop}`];
  const setOption = (i: number, value: string) => onChange({ options: field.options.map((o, j) => (j === i ? { ...o, name: value } : o)) });

  return (
    <section
      ref={setNodeRef}
      className={`field-block${isDragging ? ' field-block--dragging' : ''}`}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      aria-label={`Field ${index + 1}: ${name}`}
    >
      <Flex justifyContent="space-between" alignItems="center" marginBottom="small">
        <button type="button" className="drag-handle" ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={`Drag to reorder ${name}`}>
          ⠿
        </button>
        <Flex gap="xs">
          <Button size="small" onClick={() => onMove(index - 1)} isDisabled={index === 0} aria-label={`Move ${name} up`}>
            ↑
          </Button>
          <Button size="small" onClick={() => onMove(index + 1)} isDisabled={index === count - 1} aria-label={`Move ${name} down`}>
            ↓
          </Button>
          <Button size="small" variation="destructive" onClick={onRemove} aria-label={`Remove ${name}`}>
            Remove
          </Button>
        </Flex>
      </Flex>
      <div className="field-block-grid">
        <TextField label="Label*" value={field.label} onChange={(e) => onChange({ label: e.target.value })} hasError={Boolean(err('label'))} errorMessage={err('label')} />
        <SelectField label="Type" value={field.fieldType} onChange={(e) => onChange({ fieldType: e.target.value as FieldType })} errorMessage={err('fieldType')} hasError={Boolean(err('fieldType'))}>
          {FIELD_TYPES.map((t) => (
            <option key={t.type} value={t.type}>
              {t.label}
            </option>
          ))}
        </SelectField>
        <TextField label="Hint" value={field.hint} onChange={(e) => onChange({ hint: e.target.value })} />
        <CheckboxField label="Required" name={`required-${field.id}`} checked={field.required} onChange={(e) => onChange({ required: e.target.checked })} />
      </div>
      {hasOptions(field.fieldType) && (
        <fieldset className="field-options">
          <legend>Options</legend>
          {field.options.map((o, i) => (
            <Flex key={o.id} alignItems="flex-end" gap="xs" marginBottom="xs">
              <TextField
                flex="1"
                label={`Option ${i + 1}`}
                value={o.name}
                list={`${listId}-${i}`}
                autoComplete="off"
                onChange={(e) => setOption(i, e.target.value)}
              />
              <datalist id={`${listId}-${i}`}>
                {optionSuggestions(o.name, allFields, { ...field, options: field.options.filter((_, j) => j !== i) }).map((s) => (
                  <option key={s} value={s} />
                ))}
              </datalist>
              <Button size="small" onClick={() => onChange({ options: field.options.filter((_, j) => j !== i) })} aria-label={`Remove option ${i + 1} of ${name}`}>
                ✕
              </Button>
            </Flex>
          ))}
          {err('options') && <p className="amplify-field__error-message field-error">{err('options')}</p>}
          <Button size="small" onClick={() => onChange({ options: [...field.options, newOption()] })}>
            + Add Option
          </Button>
        </fieldset>
      )}
    </section>
  );
}
