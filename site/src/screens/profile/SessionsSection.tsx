import { Button, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import useSWR from 'swr';
import { swrFetcher } from '../../api/client';
import { messageOf } from '../../api/http';
import type { Envelope, SessionInfo } from '../../api/types';
import { endSession, SESSIONS_KEY, signOutOthers } from '../../api/twoFactor';
import { LoadError } from '../../components/LoadError';
import { formatDateTime } from '../../lib/format';
import { describeClient } from '../../lib/twoFactor';

/** SessionsSection lists where the user is signed in, and signs out one or every other. */
export function SessionsSection() {
  const { data, error, isLoading, mutate } = useSWR<Envelope<SessionInfo[]>>(SESSIONS_KEY, swrFetcher);
  const [busy, setBusy] = useState<string | null>(null);
  const sessions = data?.result ?? [];
  const others = sessions.filter((s) => !s.current);

  const act = async (key: string, run: () => Promise<{ message?: string }>) => {
    setBusy(key);
    try {
      const res = await run();
      toast.success(res.message ?? 'Done.');
      await mutate();
    } catch (err) {
      toast.error(messageOf(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby="sessions-heading" className="profile-section">
      <Flex direction="column" gap="small">
        <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
          <Heading level={3} id="sessions-heading" fontSize="large">
            Sessions
          </Heading>
          {others.length > 0 && (
            <Button size="small" onClick={() => act('others', signOutOthers)} isLoading={busy === 'others'} loadingText="Please wait...">
              Sign out everywhere else
            </Button>
          )}
        </Flex>
        {error ? (
          <LoadError error={error} onRetry={() => void mutate()} />
        ) : isLoading ? (
          <Text>Loading...</Text>
        ) : (
          <ul className="session-list" aria-label="Signed-in sessions">
            {sessions.map((s) => (
              <li key={s.id} data-session={s.current ? 'current' : 'other'}>
                <div>
                  <Text fontWeight="bold">
                    {describeClient(s.client)}
                    {s.current && ' (this device)'}
                  </Text>
                  <Text fontSize="small" color="font.secondary">
                    {s.address || 'Unknown address'} · signed in {formatDateTime(s.createdAt)} · last used {formatDateTime(s.lastUsedAt)}
                  </Text>
                </div>
                {!s.current && (
                  <Button
                    size="small"
                    variation="warning"
                    onClick={() => act(s.id, () => endSession(s.id))}
                    isLoading={busy === s.id}
                    loadingText="Please wait..."
                    aria-label={`Sign out ${describeClient(s.client)}, ${s.address}`}
                  >
                    Sign out
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        {!error && !isLoading && others.length === 0 && <Text color="font.secondary">You are signed in on this device only.</Text>}
      </Flex>
    </section>
  );
}
