import { Button, Card, Flex, Heading, Loader } from '@aws-amplify/ui-react';
import { useApp } from '../../app/AppContext';
import { HistoryPanel } from '../../components/history/HistoryPanel';
import { LoadError } from '../../components/LoadError';
import { can, collectionFor } from '../../lib/collections';
import { ConflictAlert, RecordFields } from '../collections/RecordFields';
import { useSingleton } from './useSingleton';
import { FindingsCount, FindingsList } from '../../components/a11y/Findings';
import { placeFindings } from '../../lib/a11y';
import { TranslationArea } from '../translations/TranslationArea';

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
  const placed = placeFindings(form.findings, decl.fields.map((f) => f.name));
  return (
    <Card variation="outlined" className="panel">
      <Heading level={2} className="screen-heading" marginBottom="medium">
        {title}
      </Heading>
      {form.loading ? (
        <Loader />
      ) : form.failed ? (
        <LoadError error={form.error} onRetry={form.reload} />
      ) : (
        <form onSubmit={form.save} noValidate aria-label={title}>
          <ConflictAlert message={form.conflict} onReload={form.reload} />
          <TranslationArea fields={decl.fields} tr={form.translations} defaults={form.values} errors={form.errors}>
            <RecordFields decl={decl} editing values={form.values} errors={form.errors} setField={form.setField} findings={placed.byField} />
          </TranslationArea>
          {placed.other.length > 0 && (
            <div className="a11y-other">
              <FindingsList findings={placed.other} />
            </div>
          )}
          {editable && (
            <Flex justifyContent="flex-end" alignItems="center" gap="small" wrap="wrap" marginTop="large">
              <FindingsCount findings={form.findings} checking={form.checking} />
              <Button type="submit" variation="primary" isLoading={form.saving} loadingText="Please wait...">
                Save Changes
              </Button>
            </Flex>
          )}
          {form.record && <HistoryPanel decl={decl} id={form.record.id} current={form.record} canRestore={editable} onRestored={form.reload} />}
        </form>
      )}
    </Card>
  );
}
