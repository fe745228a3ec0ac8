import { Button, Flex, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { useNewPage } from './useNewPage';

/** NewPageForm asks for a new page's title and description (the 'Add Page' modal and /pages/create). */
export function NewPageForm({ onCancel }: { onCancel?: () => void }) {
  const form = useNewPage();
  return (
    <form onSubmit={form.submit} noValidate aria-label="Add Page">
      <Flex direction="column" gap="medium">
        <TextField
          label="Title*"
          name="title"
          value={form.title}
          onChange={(e) => form.setTitle(e.target.value)}
          hasError={Boolean(form.error)}
          errorMessage={form.error}
          autoComplete="off"
        />
        <TextAreaField label="Description" name="description" rows={3} value={form.description} onChange={(e) => form.setDescription(e.target.value)} />
        <Flex justifyContent="flex-end" gap="small">
          {onCancel && (
            <Button type="button" onClick={onCancel} isDisabled={form.saving}>
              Cancel
            </Button>
          )}
          <Button type="submit" variation="primary" isDisabled={form.saving}>
            {form.saving ? 'Please wait...' : 'Create Page'}
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}
