import { Button, Flex, Text } from '@aws-amplify/ui-react';
import { useCallback, useRef, useState } from 'react';
import { Modal } from './Modal';

interface Pending {
  message: string;
  resolve: (ok: boolean) => void;
}

/**
 * useConfirm returns confirm(message) → Promise<boolean> and the dialog element to render.
 * An in-page dialog rather than window.confirm, so it follows the theme and is testable.
 */
export function useConfirm(): [(message: string) => Promise<boolean>, React.JSX.Element | null] {
  const [pending, setPending] = useState<Pending | null>(null);
  const pendingRef = useRef<Pending | null>(null);

  const confirm = useCallback((message: string) => {
    pendingRef.current?.resolve(false);
    return new Promise<boolean>((resolve) => {
      const next = { message, resolve };
      pendingRef.current = next;
      setPending(next);
    });
  }, []);

  const answer = (ok: boolean) => {
    pendingRef.current?.resolve(ok);
    pendingRef.current = null;
    setPending(null);
  };

  const element = pending ? (
    <Modal title="Please confirm" onClose={() => answer(false)} maxWidth={420} className="confirm-dialog">
      <Text>{pending.message}</Text>
      <Flex gap="small" justifyContent="flex-end" marginTop="large">
        <Button onClick={() => answer(false)}>No</Button>
        <Button variation="primary" onClick={() => answer(true)}>
          Yes
        </Button>
      </Flex>
    </Modal>
  ) : null;

  return [confirm, element];
}
