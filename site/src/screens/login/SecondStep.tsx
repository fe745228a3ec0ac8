import { Button, Flex, Heading, Text, TextField } from '@aws-amplify/ui-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { messageOf } from '../../api/http';
import type { SecondStep as Step, SignedIn } from '../../api/types';
import { verifyCode } from '../../api/twoFactor';
import { normalizeCode } from '../../lib/twoFactor';
import { TwoFactorSetup } from '../twofactor/TwoFactorSetup';

interface Props {
  step: Step;
  finish: (s: SignedIn) => Promise<void>;
  back: () => void;
}

/** SecondStep is a sign-in's second step: a code from the app (or a recovery code), or set-up. */
export function SecondStep({ step, finish, back }: Props) {
  if (step.twoFactor === 'enrol') {
    return (
      <Flex direction="column" gap="small">
        <Heading level={2} fontSize="large">
          Set up two-factor sign-in
        </Heading>
        <Text>Your institution requires two-factor sign-in. Set it up to continue.</Text>
        <TwoFactorSetup
          challenge={step.challenge}
          doneLabel="Continue to the panel"
          onCancel={back}
          onDone={(r) => (r.user && r.token ? finish({ user: r.user, token: r.token }) : back())}
        />
      </Flex>
    );
  }
  return <CodeStep challenge={step.challenge} finish={finish} back={back} />;
}

function CodeStep({ challenge, finish, back }: { challenge: string; finish: Props['finish']; back: () => void }) {
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => input.current?.focus(), [recovery]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!code.trim()) {
      setError(recovery ? 'Enter one of your recovery codes.' : 'Enter the 6-digit code from your app.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await finish(await verifyCode(challenge, code.trim(), recovery));
    } catch (err) {
      const msg = messageOf(err);
      setError(msg);
      toast.error(msg);
      setCode('');
      setBusy(false);
      input.current?.focus();
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Flex direction="column" gap="medium">
        <Heading level={2} fontSize="large">
          Two-factor sign-in
        </Heading>
        <TextField
          key={recovery ? 'recovery' : 'code'}
          ref={input}
          label={recovery ? 'Recovery code' : 'Code from your authenticator app'}
          name={recovery ? 'recoveryCode' : 'code'}
          inputMode={recovery ? 'text' : 'numeric'}
          autoComplete={recovery ? 'off' : 'one-time-code'}
          placeholder={recovery ? 'xxxx-xxxx-xxxx' : '123456'}
          value={code}
          onChange={(e) => setCode(recovery ? e.target.value : normalizeCode(e.target.value))}
          hasError={Boolean(error)}
          errorMessage={error ?? undefined}
        />
        <Button type="submit" variation="primary" isFullWidth isLoading={busy} loadingText="Please wait...">
          Verify
        </Button>
        <Flex justifyContent="space-between" wrap="wrap" gap="small">
          <Button
            variation="link"
            size="small"
            onClick={() => {
              setRecovery(!recovery);
              setCode('');
              setError(null);
            }}
          >
            {recovery ? 'Use a code from your app' : 'Use a recovery code'}
          </Button>
          <Button variation="link" size="small" onClick={back}>
            Back
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}
