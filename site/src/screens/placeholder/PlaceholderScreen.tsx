import { Card, Heading, Text } from '@aws-amplify/ui-react';
import { MSG } from '../../lib/messages';

/** PlaceholderScreen stands in for screens that later issues build. */
export function PlaceholderScreen({ title }: { title: string }) {
  return (
    <Card variation="outlined" className="panel">
      <Heading level={2} className="screen-heading">
        {title}
      </Heading>
      <Text marginTop="small" color="font.secondary">
        {MSG.comingLater}
      </Text>
    </Card>
  );
}
