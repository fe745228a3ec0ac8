import { Button, Card, CheckboxField, Flex, Heading, SelectField, Text } from '@aws-amplify/ui-react';
import { Link, useParams } from 'react-router';
import { ListBody, SearchBox } from '../../components/ListBody';
import { formatDateTime } from '../../lib/format';
import { Paginator } from '../collections/Paginator';
import '../collections/collections.css';
import { useSubmissions, type SubmissionRow } from './useSubmissions';
import './forms.css';

function cellText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return v.join(', ');
  return String(v);
}

function Submissions({ formId }: { formId: string }) {
  const s = useSubmissions(formId);
  const { list } = s;
  const label = (row: SubmissionRow) => `submission of ${row.createdAt ? formatDateTime(String(row.createdAt)) : row.id}`;
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
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Checked</th>
                {s.columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
                <th scope="col">Submitted At</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((row) => (
                <tr key={row.id} className={row.checked ? 'submission--checked' : undefined}>
                  <td>
                    <CheckboxField
                      label={`Checked: ${label(row)}`}
                      labelHidden
                      name={`checked-${row.id}`}
                      checked={row.checked === true}
                      isDisabled={s.busy === row.id}
                      onChange={(e) => void s.setChecked(row, e.target.checked)}
                    />
                  </td>
                  {s.columns.map((c) => (
                    <td key={c}>
                      <Text as="span">{cellText(row[c])}</Text>
                    </td>
                  ))}
                  <td>{row.createdAt ? formatDateTime(String(row.createdAt)) : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </ListBody>
      {list.total > 0 && <Paginator page={list.page} last={list.last} limit={list.limit} total={list.total} onPage={list.setPage} onLimit={list.setLimit} />}
    </Card>
  );
}

/** SubmissionsScreen is /custom-forms/{id}/submissions (SPEC §2 submissions screen). */
export function SubmissionsScreen() {
  const { id = '' } = useParams();
  return <Submissions key={id} formId={id} />;
}
