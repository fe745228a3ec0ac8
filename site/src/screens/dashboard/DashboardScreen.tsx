import { Card, Grid, Text } from '@aws-amplify/ui-react';
import { useDashboard } from './useDashboard';

export function DashboardScreen() {
  const counters = useDashboard();
  return (
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
  );
}
