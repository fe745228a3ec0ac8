import { Card, Heading, Text } from '@aws-amplify/ui-react';
import { Link } from 'react-router';
import useSWR from 'swr';
import { swrFetcher } from '../../api/client';
import type { Envelope } from '../../api/types';
import { draftsPath } from '../../api/drafts';
import { draftLink, type Draft } from '../drafts/workflow';

/** WaitingForReviewCard lists the drafts in review (GET /drafts?state=in_review) for a user who may publish. */
export function WaitingForReviewCard() {
  const { data, error } = useSWR<Envelope<Draft[]>>(draftsPath({ state: 'in_review' }), swrFetcher);
  const drafts = data?.result ?? [];
  return (
    <Card variation="outlined" className="review-card" as="section" aria-labelledby="waiting-for-review">
      <Heading level={2} id="waiting-for-review">
        Waiting for review
      </Heading>
      {error ? (
        <Text>Could not load the drafts waiting for review.</Text>
      ) : !data ? (
        <Text>Loading…</Text>
      ) : drafts.length === 0 ? (
        <Text>Nothing is waiting for review.</Text>
      ) : (
        <ul>
          {drafts.map((d) => (
            <li key={`${d.collection}/${d.id}`}>
              <Link to={draftLink(d)}>{d.title || d.id}</Link>{' '}
              <Text as="span">
                ({d.collection}, by {d.authorName || d.authorId || 'unknown'})
              </Text>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
