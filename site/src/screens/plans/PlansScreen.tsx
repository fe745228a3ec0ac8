import { Badge, Card, Flex, Heading, Loader, Text } from '@aws-amplify/ui-react';
import useSWR from 'swr';
import { swrFetcher } from '../../api/client';
import { useApp } from '../../app/AppContext';
import { LoadError } from '../../components/LoadError';
import '../themes/themes.css';

interface Plan {
  id: string;
  name: string;
  price: number;
  period: string;
  features: string[];
}

/** PlansScreen is the plan grid (SPEC §2): the tenant's plan marked; a click does nothing. */
export function PlansScreen() {
  const { tenant } = useApp();
  const { data, error, isLoading, mutate } = useSWR<{ result: Plan[] }>('/plans', swrFetcher, { revalidateOnFocus: false });
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
      )}
    </Card>
  );
}
