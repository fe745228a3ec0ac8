import { Button, Card, Flex, Heading, SelectField } from '@aws-amplify/ui-react';
import { Link, useParams } from 'react-router';
import { useApp } from '../../app/AppContext';
import { ListBody, SearchBox } from '../../components/ListBody';
import { useConfirm } from '../../components/useConfirm';
import { can } from '../../lib/collections';
import { MSG } from '../../lib/messages';
import { Paginator } from '../collections/Paginator';
import '../collections/collections.css';
import { SubmissionsTable } from './SubmissionsTable';
import { useSelection } from './useSelection';
import { useSubmissions } from './useSubmissions';
import './forms.css';

const SUBMISSION_CATEGORY = { category: 'FORM_SUBMISSION' };

function Submissions({ formId }: { formId: string }) {
  const s = useSubmissions(formId);
  const { list } = s;
  const { user } = useApp();
  const selection = useSelection(list.items.map((row) => row.id));
  const [confirm, confirmDialog] = useConfirm();
  const canDelete = can(user, SUBMISSION_CATEGORY, 'DELETE');
  const onDelete = async () => {
    const ids = selection.selected;
    if (ids.length > 0 && (await confirm(MSG.confirmDelete))) await s.remove(ids);
  };
  return (
    <Card variation="outlined" className="panel submissions-screen">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="medium" marginBottom="medium">
        <Heading level={2} className="screen-heading">
          {s.formName ? `${s.formName}: ` : ''}
          {list.loading ? 'Submissions' : `${list.total} Submissions`}
        </Heading>
        <Flex gap="small">
          <Link className="amplify-button" to={`/custom-forms/${encodeURIComponent(formId)}`}>
            Edit Form
          </Link>
          {canDelete && (
            <Button
              variation="destructive"
              onClick={() => void onDelete()}
              isDisabled={selection.selected.length === 0}
              isLoading={s.deleting}
              loadingText="Please wait..."
            >
              {`Delete selected (${selection.selected.length})`}
            </Button>
          )}
          <Button variation="primary" onClick={() => void s.exportCsv()} isLoading={s.exporting} loadingText="Please wait..." isDisabled={list.total === 0}>
            Export CSV
          </Button>
        </Flex>
      </Flex>
      <Flex gap="medium" wrap="wrap" alignItems="flex-start">
        <SearchBox value={list.searchInput} onChange={list.setSearchInput} label="Search submissions" placeholder="Search submissions" />
        <SelectField
          label="Order"
          labelHidden
          value={s.order}
          onChange={(e) => s.setOrder(e.target.value === 'asc' ? 'asc' : 'desc')}
          maxWidth="12rem"
        >
          <option value="desc">Newest first</option>
          <option value="asc">Oldest first</option>
        </SelectField>
      </Flex>
      <ListBody loading={list.loading} empty={list.items.length === 0}>
        <SubmissionsTable
          rows={list.items}
          columns={s.columns}
          selection={canDelete ? selection : undefined}
          busy={s.busy}
          onChecked={(row, checked) => void s.setChecked(row, checked)}
        />
      </ListBody>
      {list.total > 0 && <Paginator page={list.page} last={list.last} limit={list.limit} total={list.total} onPage={list.setPage} onLimit={list.setLimit} />}
      {confirmDialog}
    </Card>
  );
}

/** SubmissionsScreen is /custom-forms/{id}/submissions (SPEC §2 submissions screen). */
export function SubmissionsScreen() {
  const { id = '' } = useParams();
  return <Submissions key={id} formId={id} />;
}
