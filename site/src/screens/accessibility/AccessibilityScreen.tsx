import { Badge, Button, Card, Flex, Heading, Loader, SelectField, Text } from '@aws-amplify/ui-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { useDownload } from '../../api/download';
import { LoadError } from '../../components/LoadError';
import { collectionFor } from '../../lib/collections';
import { asFindings, editPath, fieldLabel, groupByRule, RULES, type ReportItem } from '../../lib/a11y';
import '../../components/a11y/a11y.css';
import './accessibility.css';

/** REPORT_PAGE_SIZE is how many records one page of the report asks for. */
const REPORT_PAGE_SIZE = 100;
const REPORT_PATH = '/accessibility-report';

interface ReportPage {
  result?: Array<Partial<ReportItem>>;
  totalCount?: number;
  findingsCount?: number;
  cursor?: string;
  nextCursor?: string;
}

function readItems(page: ReportPage): ReportItem[] {
  return (page.result ?? []).map((r) => ({
    kind: String(r.kind ?? ''),
    id: String(r.id ?? ''),
    title: String(r.title ?? '') || 'Untitled',
    findings: asFindings(r.findings),
  }));
}

/** kindTitle names a record's collection for people ("Page", "Event"). */
function kindTitle(kind: string): string {
  return collectionFor(kind)?.title ?? kind;
}

/**
 * AccessibilityScreen is the site's accessibility report (issue 37): every published record with
 * findings, grouped by rule, each linking to where it is fixed, the total that should reach
 * zero, and the CSV export for the institution's compliance records.
 */
export function AccessibilityScreen() {
  const [items, setItems] = useState<ReportItem[] | null>(null);
  const [totals, setTotals] = useState({ records: 0, findings: 0 });
  const [cursor, setCursor] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(false);
  const csv = useDownload();
  // rule narrows the report (and its export) to one rule; "" is every rule.
  const [rule, setRule] = useState('');

  const load = useCallback(async (after = '') => {
    setLoading(true);
    setError(null);
    try {
      const q = new URLSearchParams({ limit: String(REPORT_PAGE_SIZE) });
      if (rule) q.set('rule', rule);
      if (after) q.set('cursor', after);
      const page = await api.get<ReportPage>(`${REPORT_PATH}?${q}`);
      const next = readItems(page);
      setItems((prev) => (after && prev ? [...prev, ...next] : next));
      setTotals({ records: page.totalCount ?? next.length, findings: page.findingsCount ?? next.reduce((n, r) => n + r.findings.length, 0) });
      setCursor(page.cursor ?? page.nextCursor ?? '');
    } catch (err) {
      setError(err);
    } finally {
      setLoading(false);
    }
  }, [rule]);

  useEffect(() => {
    void load();
  }, [load]);

  const groups = useMemo(() => groupByRule(items ?? []), [items]);

  const exportCsv = () => csv.start(`${REPORT_PATH}?${new URLSearchParams(rule ? { format: 'csv', rule } : { format: 'csv' })}`);

  return (
    <Card variation="outlined" className="panel accessibility-screen">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <Heading level={2} className="screen-heading">
          Accessibility report
        </Heading>
        <Flex gap="small" wrap="wrap">
          <Button onClick={() => void load()} isLoading={loading && items !== null} loadingText="Please wait...">
            Refresh
          </Button>
          <Button onClick={() => void exportCsv()} isLoading={csv.downloading} loadingText="Please wait..." isDisabled={Boolean(error)}>
            Export CSV
          </Button>
        </Flex>
      </Flex>
      <Text marginTop="xs" color="font.secondary">
        Every published page and record whose content has accessibility problems (WCAG 2.1 AA). Fix each one in its editor; the report
        updates as records are saved.
      </Text>
      <SelectField label="Rule" marginTop="small" maxWidth="28rem" value={rule} onChange={(e) => setRule(e.target.value)}>
        <option value="">Every rule</option>
        {Object.entries(RULES).map(([id, r]) => (
          <option key={id} value={id}>
            {r.title}
          </option>
        ))}
      </SelectField>
      {Boolean(error) && <LoadError error={error} onRetry={() => load()} />}
      {!error && items === null && <Loader />}
      {items !== null && !error && (
        <p className="a11y-total" role="status">
          <strong data-testid="a11y-total">{totals.findings}</strong> {totals.findings === 1 ? 'problem' : 'problems'} on{' '}
          <strong>{totals.records}</strong> published {totals.records === 1 ? 'record' : 'records'}
          {rule && ' (every rule)'}
        </p>
      )}
      {items !== null && !error && groups.length === 0 && (
        <Text className="a11y-empty" marginTop="medium">
          {rule ? 'No problems of this rule found.' : 'No accessibility problems found.'}
        </Text>
      )}
      {groups.map((g) => (
        <section key={g.rule} className="a11y-group" aria-labelledby={`a11y-rule-${g.rule}`}>
          <Heading level={3} id={`a11y-rule-${g.rule}`} className="a11y-group__title">
            {g.title} ({g.entries.length})
          </Heading>
          <Text fontSize="small" color="font.secondary">
            {g.wcag && <>WCAG 2.1: {g.wcag} · </>}
            {g.errors} {g.errors === 1 ? 'error' : 'errors'}, {g.warnings} {g.warnings === 1 ? 'warning' : 'warnings'}
          </Text>
          <ul className="a11y-entries">
            {g.entries.map((e, i) => (
              <li key={`${e.kind}/${e.id}/${i}`} className={`a11y-finding a11y-finding--${e.finding.severity}`}>
                <span className="a11y-finding__badge" aria-hidden="true">
                  {e.finding.severity === 'error' ? '!' : 'i'}
                </span>
                <span className="a11y-finding__body">
                  <Badge size="small" variation={e.finding.severity === 'error' ? 'error' : 'warning'}>
                    {e.finding.severity === 'error' ? 'Error' : 'Warning'}
                  </Badge>{' '}
                  <Link to={editPath(e.kind, e.id)}>
                    Fix {kindTitle(e.kind)}: {e.title}
                  </Link>
                  {e.finding.field && <span className="a11y-finding__where"> ({fieldLabel(e.finding.field)})</span>}
                  {' — '}
                  <span className="a11y-finding__message">{e.finding.message}</span>
                  {e.finding.context && <q className="a11y-finding__context">{e.finding.context}</q>}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
      {cursor && (
        <Flex justifyContent="center" marginTop="medium">
          <Button onClick={() => void load(cursor)} isLoading={loading} loadingText="Please wait...">
            Load more
          </Button>
        </Flex>
      )}
    </Card>
  );
}
