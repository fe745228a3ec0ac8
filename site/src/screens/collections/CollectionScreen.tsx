import { Button, Card, Flex, Heading, Text } from '@aws-amplify/ui-react';
import './collections.css';
import { Suspense, useMemo, useState } from 'react';
import { NewDrafts, draftNameCell, useCollectionDrafts } from '../drafts/NewDrafts';
import { useNavigate } from 'react-router';
import { ListBody, SearchBox } from '../../components/ListBody';
import { Modal } from '../../components/Modal';
import { useConfirm } from '../../components/useConfirm';
import { useTakeUrlParam } from '../../components/palette/useUrlParam';
import { useApp } from '../../app/AppContext';
import { isForbidden } from '../../api/http';
import { can, collectionFor, listHeading, type ApiRecord, type CollectionDecl } from '../../lib/collections';
import toast from 'react-hot-toast';
import { messageOf } from '../../api/http';
import { CollectionTable, type RowAction, type RowDialog } from './CollectionTable';
import { Paginator } from './Paginator';
import { RecordForm } from './RecordForm';
import { SCREEN_OPTIONS } from './screenOptions';
import { useCollectionList } from './useCollectionList';
import { useRecordForm } from './useRecordForm';

const CONFIRM_CANCEL = 'Are you sure to cancel?';
const CONFIRM_DELETE = 'Do you really want to delete?';

function CollectionList({ decl }: { decl: CollectionDecl }) {
  const { user } = useApp();
  const navigate = useNavigate();
  const options = SCREEN_OPTIONS[decl.key] ?? {};
  const list = useCollectionList(decl, options.refreshInterval);
  const form = useRecordForm(decl, () => {});
  const [confirm, confirmDialog] = useConfirm();
  const [creating, setCreating] = useState(false);
  // Issue 36: a workflow collection's drafts: its new records (in no list yet) and its rows' badges.
  const drafts = useCollectionDrafts(decl);
  const draftsById = useMemo(() => new Map(drafts.filter((d) => !d.isNew).map((d) => [d.id, d])), [drafts]);
  const cells = useMemo(() => (decl.workflow ? { [decl.nameField]: draftNameCell(decl, draftsById), ...options.cells } : options.cells), [decl, draftsById, options.cells]);

  const failed = Boolean(list.error);
  // A 403 says the rights the panel signed in with are gone: offer nothing more.
  const canCreate = can(user, decl, 'CREATE') && !isForbidden(list.error);
  const canEdit = can(user, decl, 'EDIT');
  const canDelete = can(user, decl, 'DELETE');

  const onAdd = () => {
    if (options.CreateModal) setCreating(true);
    else if (options.createPath) navigate(options.createPath);
    else form.openCreate();
  };
  const onEdit = (row: ApiRecord) => (options.editPath ? navigate(options.editPath(row.id)) : form.openEdit(row));
  // The command palette opens a record here with ?edit={id} (its form, when the user may edit).
  useTakeUrlParam('edit', (id) => canEdit && onEdit({ id }));
  const onDelete = async (row: ApiRecord) => {
    const message = options.deleteMessage ? await options.deleteMessage(row.id) : CONFIRM_DELETE;
    if (await confirm(message)) await list.remove(row);
  };
  const [acting, setActing] = useState<string | null>(null);
  const onAction = async (action: RowAction, row: ApiRecord) => {
    if (!(await confirm(action.confirm(row)))) return;
    setActing(`${action.label}:${row.id}`);
    try {
      toast.success((await action.run(row)).message ?? "Done.");
      // What the action changed shows (a newsletter being sent: its progress).
      void list.reload();
    } catch (err) {
      toast.error(messageOf(err));
    } finally {
      setActing(null);
    }
  };
  const [dialog, setDialog] = useState<{ d: RowDialog; row: ApiRecord } | null>(null);
  const onCancel = async () => {
    if (form.saving) return;
    if (await confirm(CONFIRM_CANCEL)) form.close();
  };

  return (
    <Card variation="outlined" className="panel collection-screen">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="medium" marginBottom="medium">
        <Heading level={2} className="screen-heading">
          {list.loading || failed ? decl.titlePlural : listHeading(decl, list.total)}
        </Heading>
        {canCreate && (
          <Button variation="primary" onClick={onAdd}>
            Add {decl.title}
          </Button>
        )}
      </Flex>
      <SearchBox value={list.searchInput} onChange={list.setSearchInput} />
      {decl.workflow && <NewDrafts decl={decl} drafts={drafts} onOpen={canEdit ? (id) => onEdit({ id }) : undefined} />}
      <ListBody loading={list.loading} empty={list.items.length === 0} error={list.error} onRetry={list.reload}>
        <CollectionTable
          decl={decl}
          rows={list.items}
          sort={list.sort}
          onSort={list.toggleSort}
          sortable={list.sortable}
          canEdit={canEdit}
          canDelete={canDelete}
          onEdit={onEdit}
          onDelete={onDelete}
          deleting={list.deleting}
          rowLinks={options.rowLinks}
          rowActions={options.rowActions}
          onAction={onAction}
          acting={acting}
          rowDialogs={options.rowDialogs}
          onDialog={(d, row) => setDialog({ d, row })}
          cells={cells}
        />
      </ListBody>
      {!failed && list.total > 0 && (
        <Paginator page={list.page} last={list.last} limit={list.limit} total={list.total} onPage={list.setPage} onLimit={list.setLimit} />
      )}
      {form.mode && (
        <Modal title={`${form.mode.kind === 'create' ? 'Add' : 'Edit'} ${decl.title}`} onClose={onCancel}>
          <RecordForm
            decl={decl}
            editing={form.mode.kind === 'edit'}
            values={form.values}
            errors={form.errors}
            loading={form.loading}
            saving={form.saving}
            conflict={form.conflict}
            setField={form.setField}
            onSave={form.save}
            onCancel={onCancel}
            onReload={form.reloadRecord}
            record={form.record}
            canRestore={canEdit}
            formDialogs={options.formDialogs}
            findings={form.findings}
            checking={form.checking}
            translations={form.translations}
            drafts={form.drafts}
            onGone={() => {
              form.close();
              void list.reload();
            }}
          />
        </Modal>
      )}
      {creating && options.CreateModal && <options.CreateModal onClose={() => setCreating(false)} />}
      {dialog && (
        <Suspense fallback={null}>
          <dialog.d.Dialog row={dialog.row} onClose={() => setDialog(null)} />
        </Suspense>
      )}
      {confirmDialog}
    </Card>
  );
}

/** CollectionScreen is the generic list/CRUD screen of one declared collection (SPEC §2). */
export function CollectionScreen({ collection }: { collection: string }) {
  const { user } = useApp();
  const decl = collectionFor(collection);
  if (!decl) return null;
  if (!can(user, decl, 'VIEW')) {
    return (
      <Card variation="outlined" className="panel">
        <Heading level={2} className="screen-heading">
          {decl.titlePlural}
        </Heading>
        <Text marginTop="small">You do not have permission to view {decl.titlePlural}.</Text>
      </Card>
    );
  }
  // Keyed so that moving between collections starts with fresh paging, search and sort.
  return <CollectionList key={decl.key} decl={decl} />;
}
