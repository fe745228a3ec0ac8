import { Card, Grid, Loader, Text } from '@aws-amplify/ui-react';
import { lazy, Suspense } from 'react';
import { useDashboard } from './useDashboard';
import { useApp } from '../../app/AppContext';
import { holdsPublishRight } from '../drafts/workflow';
import { WaitingForReviewCard } from './WaitingForReviewCard';

/** The Visitors card is its own chunk: its chart is not in the bundle every screen loads. */
const VisitorsCard = lazy(() => import('./visitors/VisitorsCard').then((m) => ({ default: m.VisitorsCard })));

export function DashboardScreen() {
  const counters = useDashboard();
  const { user } = useApp();
  return (
    <>
      <Grid className="counter-grid" as="ul" aria-label="Statistics">
        {counters.map((c) => (
          <Card as="li" key={c.key} variation="outlined" className="counter-card">
            <Text className="counter-label">{c.label}</Text>
            <Text className="counter-value" title={c.exact || undefined} aria-live="polite">
              {c.value}
            </Text>
          </Card>
        ))}
      </Grid>
      {holdsPublishRight(user) && <WaitingForReviewCard />}
      <Suspense fallback={<Loader size="large" ariaLabel="Loading visitors" />}>
        <VisitorsCard />
      </Suspense>
    </>
  );
}
