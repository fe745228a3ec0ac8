import { Alert, Button } from '@aws-amplify/ui-react';
import { useState } from 'react';
import { isForbidden, messageOf } from '../api/http';
import { MSG } from '../lib/messages';

interface Props {
  error: unknown;
  /** onRetry loads again; it is not offered after a 403, which asking again does not change. */
  onRetry?: () => unknown;
}

/**
 * LoadError stands in for what failed to load: the server's message (a 403's 'You do not have
 * permission to do this.', else 'Some error occured!' when it sent none) and a Retry button.
 */
export function LoadError({ error, onRetry }: Props) {
  const [retrying, setRetrying] = useState(false);
  const forbidden = isForbidden(error);
  const retry = async () => {
    setRetrying(true);
    try {
      await onRetry?.();
    } finally {
      setRetrying(false);
    }
  };
  return (
    <Alert variation={forbidden ? 'warning' : 'error'} role="alert" marginBlock="medium">
      {messageOf(error, forbidden ? MSG.forbidden : MSG.generic)}{' '}
      {onRetry && !forbidden && (
        <Button size="small" onClick={() => void retry()} isLoading={retrying} loadingText="Please wait...">
          Retry
        </Button>
      )}
    </Alert>
  );
}
