import { Button, Card, Flex, Heading, Loader, Tabs, Text, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { Link, useParams, useSearchParams } from 'react-router';
import { MediaPicker } from '../../components/media-picker/MediaPicker';
import { FieldList } from './FieldList';
import { FormPreview } from './FormPreview';
import { MailSettings } from './MailSettings';
import { useFormBuilder } from './useFormBuilder';
import './forms.css';

type Tab = 'edit' | 'preview';

function Builder({ id }: { id?: string }) {
  const b = useFormBuilder(id);
  const [params, setParams] = useSearchParams();
  // SPEC §2: the tab may be chosen by a query parameter (?tab=preview).
  const tab: Tab = params.get('tab') === 'preview' ? 'preview' : 'edit';
  const setTab = (t: string) => setParams(t === 'preview' ? { tab: 'preview' } : {}, { replace: true });

  if (b.loading) {
    return (
      <Flex justifyContent="center" padding="large" role="status" aria-label="Loading">
        <Loader size="large" />
      </Flex>
    );
  }

  const edit = (
    <Flex direction="column" gap="medium" paddingTop="medium">
      <TextField label="Name*" value={b.details.name} onChange={(e) => b.setDetail('name', e.target.value)} hasError={Boolean(b.errors.name)} errorMessage={b.errors.name} />
      <TextAreaField label="Description" value={b.details.description} onChange={(e) => b.setDetail('description', e.target.value)} rows={3} />
      <MediaPicker label="Cover Image*" accept="image" value={b.details.image} onChange={(v) => b.setDetail('image', v)} errorMessage={b.errors.image} />
      <Heading level={4}>Fields</Heading>
      {b.errors.fields && <Text color="font.error">{b.errors.fields}</Text>}
      <FieldList fields={b.fields} setFields={b.setFields} errors={b.errors} />
      <MailSettings details={b.details} setDetail={b.setDetail} errors={b.errors} fields={b.fields} />
    </Flex>
  );
  const preview = (
    <div className="preview-pane">
      {b.dirty && <Text color="font.warning" marginBottom="small">You have unsaved changes; the form is submitted as last saved.</Text>}
      <FormPreview formId={id} name={b.details.name} description={b.details.description} fields={b.dirty ? b.savedFields : b.fields} />
    </div>
  );

  return (
    <Card variation="outlined" className="panel form-builder">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="medium">
        <Heading level={2} className="screen-heading">
          {id ? 'Edit Form' : 'Create Form'}
        </Heading>
        <Flex gap="small" alignItems="center">
          {id && (
            <Link className="amplify-button amplify-button--link" to={`/custom-forms/${encodeURIComponent(id)}/submissions`}>
              View Form Submissions
            </Link>
          )}
          <Link className="amplify-button" to="/custom-forms">
            Back to Forms
          </Link>
          <Button variation="primary" onClick={() => void b.save()} isLoading={b.saving} loadingText="Please wait...">
            Save
          </Button>
        </Flex>
      </Flex>
      <Tabs
        marginTop="medium"
        value={tab}
        onValueChange={setTab}
        items={[
          { label: 'Edit', value: 'edit', content: edit },
          { label: 'Preview/Test', value: 'preview', content: preview },
        ]}
      />
    </Card>
  );
}

/** FormBuilderScreen is /custom-forms/create and /custom-forms/{id} (SPEC §2 form builder). */
export function FormBuilderScreen() {
  const { id } = useParams();
  // Keyed by id: the first save loads the new form's address, which starts a fresh editor.
  return <Builder key={id ?? 'new'} id={id} />;
}
