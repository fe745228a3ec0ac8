import { Alert, Button, Card, Flex, Heading, Loader, Text, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { useCallback, useMemo } from 'react';
import { FindingsCount, FindingsList, WithFindings } from '../../components/a11y/Findings';
import { placeFindings } from '../../lib/a11y';
import { useNavigate, useParams } from 'react-router';
import { DraftBar } from '../drafts/DraftBar';
import { useApp } from '../../app/AppContext';
import { MediaPicker } from '../../components/media-picker/MediaPicker';
import { useConfirm } from '../../components/useConfirm';
import { useLeaveGuard } from '../../components/useLeaveGuard';
import { HistoryPanel } from '../../components/history/HistoryPanel';
import { can, collectionFor } from '../../lib/collections';
import { MSG } from '../../lib/messages';
import { ContentEditor } from './ContentEditor';
import { PAGE_MSG } from './messages';
import { NewPageForm } from './NewPageForm';
import { SectionsEditor } from './sections/SectionsEditor';
import { SeoFields } from './SeoFields';
import { SiteLinks } from './SiteLinks';
import { usePageEditor } from './usePageEditor';
import { TranslationArea } from '../translations/TranslationArea';
import { PAGE_SECTIONS_NOTE, PAGE_SEO_NOTE, PAGE_TRANSLATION_NOTE } from '../translations/pageNotes';
import './pages.css';

const PAGE_CATEGORY = { category: 'PAGE' };
const pagesDecl = collectionFor('pages');
/** The page's fields shown beside their accessibility findings; the others' findings list by the Save bar. */
const CHECKED_FIELDS = ['title', 'slug', 'description', 'image', 'content'];

function Editor({ id }: { id: string }) {
  const { user } = useApp();
  const ed = usePageEditor(id);
  const navigate = useNavigate();
  const [confirm, confirmDialog] = useConfirm();
  const askLeave = useCallback(() => confirm(PAGE_MSG.leave), [confirm]);
  useLeaveGuard(ed.dirty, askLeave);
  const canEdit = can(user, PAGE_CATEGORY, 'EDIT');
  const placed = useMemo(() => placeFindings(ed.findings, CHECKED_FIELDS), [ed.findings]);

  if (ed.loadError) {
    return (
      <Card variation="outlined" className="panel">
        <Heading level={2} className="screen-heading">
          Edit Page
        </Heading>
        <Text marginTop="small">{ed.loadError}</Text>
      </Card>
    );
  }
  if (!ed.fields) {
    return (
      <Flex justifyContent="center" padding="large" role="status" aria-label="Loading">
        <Loader size="large" />
      </Flex>
    );
  }
  const f = ed.fields;
  const deleteSection = async (key: string) => {
    if (await confirm(MSG.confirmDelete)) ed.removeSection(key);
  };
  const saveBar = (quiet: boolean) => (
    <Flex gap="small" alignItems="center" wrap="wrap">
      <SiteLinks pageId={id} slug={f.slug} published={f.isPublished && f.status} dirty={ed.dirty} />
      <FindingsCount findings={ed.findings} checking={ed.checking} quiet={quiet} />
      {ed.dirty && <Text color="font.secondary">Unsaved changes</Text>}
      {/* Issue 36: a holder of the publish right may keep an edit of the live page as a draft. */}
      {ed.wf && !ed.editsDraft && (
        <Button onClick={() => void ed.saveDraft()} isDisabled={ed.saving || !canEdit}>
          Save draft
        </Button>
      )}
      <Button variation="primary" onClick={() => void ed.save()} isDisabled={ed.saving || !canEdit}>
        {ed.saving ? 'Please wait...' : ed.editsDraft ? 'Save draft' : 'Save'}
      </Button>
    </Flex>
  );

  return (
    <form
      className="page-editor"
      aria-label="Edit Page"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void ed.save();
      }}
    >
      <Card variation="outlined" className="panel">
        <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
          {/* The header bar already says 'Edit Page'; this names the page being edited. */}
          <Heading level={2} className="screen-heading">
            {ed.savedTitle || 'Untitled page'}
          </Heading>
          {saveBar(false)}
        </Flex>
        {placed.other.length > 0 && (
          <div className="a11y-other">
            <FindingsList findings={placed.other} />
          </div>
        )}
        {ed.wf && pagesDecl && (
          <DraftBar
            decl={pagesDecl}
            id={id}
            answer={ed.wf}
            editsDraft={ed.editsDraft}
            status={ed.saving ? 'saving' : ed.dirty ? 'unsaved' : 'saved'}
            flush={ed.flush}
            onDraft={ed.setWfDraft}
            onDone={(_, gone) => (gone ? navigate('/pages') : void ed.reload())}
            preview
            conflict={ed.draftConflict}
            onReload={() => void ed.reload()}
          />
        )}
        {ed.conflict && (
          <Alert variation="warning" heading="This page changed while you were editing" marginTop="small" role="alert">
            <Text>{PAGE_MSG.conflict}</Text>
            <Button size="small" marginTop="xs" onClick={() => void ed.reload()}>
              Reload the latest version
            </Button>
          </Alert>
        )}
        {/* Issue 35: a language switch when the site has other languages; another language edits the page's translation. */}
        <TranslationArea fields={pagesDecl?.fields ?? []} tr={ed.translations} defaults={{ ...f }} errors={ed.errors} note={PAGE_TRANSLATION_NOTE}>
          <div className="page-form-grid">
            <WithFindings findings={placed.byField.title}>
              <TextField label="Title*" name="title" value={f.title} onChange={(e) => ed.setField('title', e.target.value)} hasError={Boolean(ed.errors.title)} errorMessage={ed.errors.title} />
            </WithFindings>
            <WithFindings findings={placed.byField.slug}>
            <TextField
              label="Slug"
              name="slug"
              descriptiveText="The page's address on the website: lowercase letters, digits and hyphens."
              value={f.slug}
              onChange={(e) => ed.setField('slug', e.target.value)}
              hasError={Boolean(ed.errors.slug)}
              errorMessage={ed.errors.slug}
            />
            </WithFindings>
            <WithFindings className="form-cell--wide" findings={placed.byField.description}>
              <TextAreaField label="Description" name="description" rows={3} value={f.description} onChange={(e) => ed.setField('description', e.target.value)} />
            </WithFindings>
            <WithFindings className="form-cell--wide" findings={placed.byField.image}>
              <MediaPicker label="Image" accept="image" value={f.image} onChange={(v) => ed.setField('image', v)} errorMessage={ed.errors.image} />
            </WithFindings>
          </div>
          <WithFindings findings={placed.byField.content}>
            <ContentEditor value={f.content} onChange={(html) => ed.setField('content', html)} errorMessage={ed.errors.content} />
          </WithFindings>
        </TranslationArea>
      </Card>
      <Card variation="outlined" className="panel">
        {ed.translations.lang ? (
          <Text>{PAGE_SECTIONS_NOTE}</Text>
        ) : (
          <SectionsEditor sections={ed.sections} types={ed.types} errors={ed.errors} findings={placed.bySection} onChange={ed.setSections} onDelete={(key) => void deleteSection(key)} />
        )}
      </Card>
      <Card variation="outlined" className="panel">
        <Heading level={3}>SEO</Heading>
        {ed.translations.lang ? <Text>{PAGE_SEO_NOTE}</Text> : <SeoFields fields={f} errors={ed.errors} setField={ed.setField} />}
        <Flex justifyContent="flex-end" marginTop="medium">
          {saveBar(true)}
        </Flex>
        {ed.record && pagesDecl && (
          <HistoryPanel decl={pagesDecl} id={id} current={ed.record} canRestore={canEdit} onRestored={() => void ed.reload()} />
        )}
      </Card>
      {confirmDialog}
    </form>
  );
}

/** PageEditorScreen is /pages/{id} (the page editor) and /pages/create (a new page's title first). */
export function PageEditorScreen() {
  const { id } = useParams();
  if (!id || id === 'create') {
    return (
      <Card variation="outlined" className="panel page-create">
        <Heading level={2} className="screen-heading">
          Add Page
        </Heading>
        <NewPageForm />
      </Card>
    );
  }
  // Keyed: moving from one page to another starts a fresh editor.
  return <Editor key={id} id={id} />;
}
