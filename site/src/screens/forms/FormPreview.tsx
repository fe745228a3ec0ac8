import { Button, CheckboxField, Flex, Radio, RadioGroupField, SelectField, Text, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { dataProvider } from '../../api/dataProvider';
import { messageOf } from '../../api/http';
import { MediaPicker } from '../../components/media-picker/MediaPicker';
import { missingRequired, submissionBody, type Answer, type FormField } from './builder';

const MSG_SUBMITTED = 'Form Submitted!';
const MSG_SUBMIT_FAILED = 'Failed to Submit!';

interface Props {
  /** formId is the saved form to submit to; without one (create mode) the preview cannot submit. */
  formId?: string;
  name: string;
  description: string;
  fields: FormField[];
}

function Input({ field, value, onChange }: { field: FormField; value: Answer | undefined; onChange: (v: Answer) => void }) {
  const label = `${field.label}${field.required ? '*' : ''}`;
  const text = typeof value === 'string' ? value : '';
  const common = { label, descriptiveText: field.hint || undefined, name: field.label };
  switch (field.fieldType) {
    case 'textarea':
      return <TextAreaField {...common} value={text} onChange={(e) => onChange(e.target.value)} rows={4} />;
    case 'date':
      return <TextField {...common} type="date" value={text} onChange={(e) => onChange(e.target.value)} />;
    case 'email':
      return <TextField {...common} type="email" autoComplete="email" value={text} onChange={(e) => onChange(e.target.value)} />;
    case 'file':
      return <MediaPicker label={label} accept="file" value={text} onChange={onChange} />;
    case 'select':
      return (
        <SelectField {...common} placeholder="Select an option" value={text} onChange={(e) => onChange(e.target.value)}>
          {field.options.map((o) => (
            <option key={o.id} value={o.name}>
              {o.name}
            </option>
          ))}
        </SelectField>
      );
    case 'radio':
      return (
        <RadioGroupField legend={label} descriptiveText={common.descriptiveText} name={field.label} value={text} onChange={(e) => onChange(e.target.value)}>
          {field.options.map((o) => (
            <Radio key={o.id} value={o.name}>
              {o.name}
            </Radio>
          ))}
        </RadioGroupField>
      );
    case 'checkbox': {
      const chosen = Array.isArray(value) ? value : [];
      return (
        <fieldset className="preview-checks">
          <legend className="amplify-label">{label}</legend>
          {field.hint && <Text fontSize="small">{field.hint}</Text>}
          {field.options.map((o) => (
            <CheckboxField
              key={o.id}
              label={o.name}
              name={`${field.label}-${o.id}`}
              checked={chosen.includes(o.name)}
              onChange={(e) => onChange(e.target.checked ? [...chosen, o.name] : chosen.filter((n) => n !== o.name))}
            />
          ))}
        </fieldset>
      );
    }
    default:
      return <TextField {...common} value={text} onChange={(e) => onChange(e.target.value)} />;
  }
}

/**
 * FormPreview renders the form as a visitor sees it and submits it for real: an empty required
 * field blocks with '{label} is required!' (SPEC §5); a submit in flight blocks another (§4).
 */
export function FormPreview({ formId, name, description, fields }: Props) {
  const [values, setValues] = useState<Record<string, Answer>>({});
  const [sending, setSending] = useState(false);
  const sendingRef = useRef(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (sendingRef.current || !formId) return;
    const missing = missingRequired(fields, values);
    if (missing) {
      toast.error(missing);
      return;
    }
    sendingRef.current = true;
    setSending(true);
    try {
      await dataProvider.create('custom-form-submissions', submissionBody(formId, fields, values));
      toast.success(MSG_SUBMITTED);
      setValues({});
    } catch (err) {
      toast.error(messageOf(err, MSG_SUBMIT_FAILED));
    } finally {
      sendingRef.current = false;
      setSending(false);
    }
  };

  return (
    <form className="form-preview" onSubmit={onSubmit} noValidate aria-label={`Preview of ${name || 'the form'}`}>
      <h3 className="preview-title">{name || 'Untitled form'}</h3>
      {description && <Text marginBottom="medium">{description}</Text>}
      <Flex direction="column" gap="medium">
        {fields.map((f) => (
          <Input key={f.id} field={f} value={values[f.label]} onChange={(v) => setValues((cur) => ({ ...cur, [f.label]: v }))} />
        ))}
      </Flex>
      {!formId && <Text color="font.secondary" marginTop="medium">Save the form to test it here.</Text>}
      <Button type="submit" variation="primary" marginTop="large" isDisabled={!formId || sending} isLoading={sending} loadingText="Please wait...">
        Submit
      </Button>
    </form>
  );
}
