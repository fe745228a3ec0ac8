import { Card, Heading, Text } from '@aws-amplify/ui-react';
import { Link } from 'react-router';

export function NotFoundScreen() {
  return (
    <Card variation="outlined" className="panel">
      <Heading level={2} className="screen-heading">
        Page not found
      </Heading>
      <Text marginTop="small">
        There is nothing at this address. <Link to="/dashboard">Back to the dashboard</Link>
      </Text>
    </Card>
  );
}
