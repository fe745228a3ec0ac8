import { Alert, Button, Card, Flex, Grid, Heading, Loader, Text } from '@aws-amplify/ui-react';
import { useApp } from '../../app/AppContext';
import { can, collectionFor } from '../../lib/collections';
import { MSG } from '../../lib/messages';
import { FieldInput, WIDE_TYPES } from '../collections/fields/FieldInput';
import { useSingleton } from './useSingleton';

interface Props {
  collection: string;
  title: string;
}

/** SingletonScreen is the customisation form of a one-per-tenant record (Header, Footer, Default SEO Settings). */
export function SingletonScreen({ collection, title }: Props) {
  const decl = collectionFor(collection);
  if (!decl) throw new Error(`SingletonScreen: unknown collection ${collection}`);
  const { user } = useApp();
  const form = useSingleton(decl);
  const editable = can(user, decl, 'EDIT');
  return (
    <Card variation="outlined" className="panel">
      <Heading level={2} className="screen-heading" marginBottom="medium">
        {title}
      </Heading>
      {form.loading ? (
        <Loader />
      ) : form.failed ? (
        <Text>{MSG.generic}</Text>
      ) : (
        <form onSubmit={form.save} noValidate aria-label={title}>
          {form.conflict && (
            <Alert variation="warning" marginBottom="medium" role="alert">
              <Flex alignItems="center" gap="small" wrap="wrap">
                <span>{form.conflict}</span>
                <Button size="small" onClick={form.reload}>
                  Reload
                </Button>
              </Flex>
            </Alert>
          )}
          <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr' }} gap="medium">
            {decl.fields.map((f) => (
              <div key={f.name} className={WIDE_TYPES.has(f.type) ? 'form-cell form-cell--wide' : 'form-cell'}>
                <FieldInput field={f} value={form.values[f.name]} error={form.errors[f.name]} editing onChange={(v) => form.setField(f.name, v)} />
              </div>
            ))}
          </Grid>
          {editable && (
            <Flex justifyContent="flex-end" marginTop="large">
              <Button type="submit" variation="primary" isLoading={form.saving} loadingText="Please wait...">
                Save Changes
              </Button>
            </Flex>
          )}
        </form>
      )}
    </Card>
  );
}
