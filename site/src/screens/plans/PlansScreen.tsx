import { Badge, Card, Flex, Heading, Loader, Text } from '@aws-amplify/ui-react';
import useSWR from 'swr';
import { swrFetcher } from '../../api/client';
import { useApp } from '../../app/AppContext';
import { LoadError } from '../../components/LoadError';
import '../themes/themes.css';
import './plans.css';
import { type PlanUsage, usageBars } from './usage';

interface Plan {
  id: string;
  name: string;
  price: number;
  period: string;
  features: string[];
}

/** UsagePanel shows what the tenant uses of its plan: pages of the limit, storage of the quota, as bars with text. */
function UsagePanel({ usage }: { usage: PlanUsage }) {
  return (
    <section className="plan-usage" aria-label="Usage of your plan">
      {usageBars(usage).map((b) => (
        <div key={b.label} className="plan-usage-row">
          <Flex justifyContent="space-between">
            <Text fontWeight="bold">{b.label}</Text>
            <Text>{b.text}</Text>
          </Flex>
          {b.max !== null && (
            <progress aria-label={`${b.label}: ${b.text}`} max={b.max} value={Math.min(b.used, b.max)} />
          )}
          {b.full && (
            <Text fontSize="small" role="note">
              {b.fullText}
            </Text>
          )}
        </div>
      ))}
    </section>
  );
}

/** PlansScreen is the plan grid (SPEC §2): the tenant's usage of its plan, then the plans with its own marked; a click does nothing. */
export function PlansScreen() {
  const { tenant } = useApp();
  const { data, error, isLoading, mutate } = useSWR<{ result: Plan[]; usage?: PlanUsage }>('/plans', swrFetcher, { revalidateOnFocus: false });
  return (
    <Card variation="outlined" className="panel">
      <Heading level={2} className="screen-heading" marginBottom="medium">
        Plans
      </Heading>
      {error ? (
        <LoadError error={error} onRetry={() => mutate()} />
      ) : isLoading ? (
        <Loader />
      ) : (
        <>
        {data?.usage && <UsagePanel usage={data.usage} />}
        <div className="card-grid" role="list" aria-label="Plans">
          {(data?.result ?? []).map((p) => {
            const current = p.id === tenant?.planId;
            return (
              <div
                key={p.id}
                role="listitem"
                aria-label={`Plan ${p.name}${current ? ' (current)' : ''}`}
                className={`choice-card choice-card--static${current ? ' choice-card--active' : ''}`}
              >
                <Flex direction="column" gap="xs" padding="medium">
                  <Flex justifyContent="space-between" alignItems="center">
                    <Text fontWeight="bold" fontSize="large">
                      {p.name}
                    </Text>
                    {current && <Badge variation="success">Current plan</Badge>}
                  </Flex>
                  <Text>{p.price === 0 ? 'Free' : `$${p.price} / ${p.period}`}</Text>
                  <ul className="plan-features">
                    {p.features.map((f) => (
                      <li key={f}>{f}</li>
                    ))}
                  </ul>
                </Flex>
              </div>
            );
          })}
        </div>
        </>
      )}
    </Card>
  );
}
