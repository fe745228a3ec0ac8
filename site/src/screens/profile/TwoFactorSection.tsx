import { Badge, Button, Flex, Heading, PasswordField, Text } from '@aws-amplify/ui-react';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { mutate } from 'swr';
import { KEYS } from '../../api/hooks';
import { HttpError, messageOf } from '../../api/http';
import type { User } from '../../api/types';
import { disable, newRecoveryCodes } from '../../api/twoFactor';
import { Modal } from '../../components/Modal';
import { RecoveryCodes } from '../twofactor/RecoveryCodes';
import { TwoFactorSetup } from '../twofactor/TwoFactorSetup';

type Mode = 'idle' | 'setup' | 'codes' | 'off' | 'shown';

/** TwoFactorSection is My Profile's two-factor sign-in: set up, new recovery codes, turn off. */
export function TwoFactorSection({ user }: { user: User }) {
  const tf = user.twoFactor ?? { enabled: false, required: false, recoveryCodesLeft: 0 };
  const [mode, setMode] = useState<Mode>('idle');
  const [codes, setCodes] = useState<string[]>([]);
  const refresh = () => mutate(KEYS.me);

  return (
    <section aria-labelledby="two-factor-heading" className="profile-section">
      <Flex direction="column" gap="small">
        <Flex alignItems="center" gap="small" wrap="wrap">
          <Heading level={3} id="two-factor-heading" fontSize="large">
            Two-factor sign-in
          </Heading>
          <Badge variation={tf.enabled ? 'success' : tf.required ? 'warning' : undefined}>{tf.enabled ? 'On' : 'Off'}</Badge>
        </Flex>
        {mode === 'setup' ? (
          <TwoFactorSetup
            doneLabel="Done"
            onCancel={() => setMode('idle')}
            onDone={() => {
              setMode('idle');
              toast.success('Two-factor sign-in is on.');
              void refresh();
            }}
          />
        ) : mode === 'shown' ? (
          <RecoveryCodes codes={codes} doneLabel="Done" onDone={() => setMode('idle')} />
        ) : tf.enabled ? (
          <>
            <Text>
              Signing in asks for a code from your authenticator app after your password. Recovery codes left: {tf.recoveryCodesLeft}.
            </Text>
            {tf.required && <Text color="font.secondary">Your institution requires two-factor sign-in, so it cannot be turned off.</Text>}
            <Flex gap="small" wrap="wrap">
              <Button onClick={() => setMode('codes')}>New recovery codes</Button>
              {!tf.required && (
                <Button variation="warning" onClick={() => setMode('off')}>
                  Turn off
                </Button>
              )}
            </Flex>
          </>
        ) : (
          <>
            <Text>Protect your account with a code from an authenticator app on your phone, asked after your password.</Text>
            {tf.required && <Text color="font.warning">Your institution requires two-factor sign-in.</Text>}
            <Flex>
              <Button variation="primary" onClick={() => setMode('setup')}>
                Set up
              </Button>
            </Flex>
          </>
        )}
      </Flex>
      {(mode === 'codes' || mode === 'off') && (
        <PasswordDialog
          title={mode === 'codes' ? 'New recovery codes' : 'Turn off two-factor sign-in'}
          action={mode === 'codes' ? 'Make new codes' : 'Turn off'}
          explain={
            mode === 'codes'
              ? 'Your old recovery codes stop working. Enter your password to go on.'
              : 'Signing in will ask for your password only. Enter your password to go on.'
          }
          onClose={() => setMode('idle')}
          run={async (password) => {
            if (mode === 'codes') {
              const res = await newRecoveryCodes(password);
              setCodes(res.result.recoveryCodes);
              setMode('shown');
              toast.success(res.message ?? 'Done.');
            } else {
              const res = await disable(password);
              setMode('idle');
              toast.success(res.message ?? 'Done.');
            }
            void refresh();
          }}
        />
      )}
    </section>
  );
}

interface DialogProps {
  title: string;
  action: string;
  explain: string;
  onClose: () => void;
  run: (password: string) => Promise<void>;
}

/** PasswordDialog asks for the password before a change of two-factor settings. */
function PasswordDialog({ title, action, explain, onClose, run }: DialogProps) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await run(password);
    } catch (err) {
      const msg = err instanceof HttpError ? (err.errors.password ?? messageOf(err)) : messageOf(err);
      setError(msg);
      toast.error(msg);
      setBusy(false);
    }
  };
  return (
    <Modal title={title} onClose={onClose} maxWidth={440}>
      <form onSubmit={submit} noValidate>
        <Flex direction="column" gap="medium">
          <Text>{explain}</Text>
          <PasswordField
            label="Password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            hasError={Boolean(error)}
            errorMessage={error ?? undefined}
          />
          <Flex gap="small" justifyContent="flex-end">
            <Button onClick={onClose}>Cancel</Button>
            <Button type="submit" variation="primary" isLoading={busy} loadingText="Please wait...">
              {action}
            </Button>
          </Flex>
        </Flex>
      </form>
    </Modal>
  );
}
