import { Badge, Button, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { mutate } from 'swr';
import { KEYS } from '../../api/hooks';
import { HttpError, messageOf } from '../../api/http';
import type { User } from '../../api/types';
import { disable, newRecoveryCodes } from '../../api/twoFactor';
import { Modal } from '../../components/Modal';
import { checkReauth, NO_REAUTH, reauthPayload, type Reauth } from '../../lib/profileValidation';
import { RecoveryCodes } from '../twofactor/RecoveryCodes';
import { TwoFactorSetup } from '../twofactor/TwoFactorSetup';
import { ReauthFields } from './ReauthFields';

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
        <ReauthDialog
          title={mode === 'codes' ? 'New recovery codes' : 'Turn off two-factor sign-in'}
          action={mode === 'codes' ? 'Make new codes' : 'Turn off'}
          explain={
            mode === 'codes'
              ? 'Your old recovery codes stop working. Enter your password and a code from your app to go on.'
              : 'Signing in will ask for your password only. Enter your password and a code from your app to go on.'
          }
          twoFactor={tf.enabled}
          onClose={() => setMode('idle')}
          run={async (body) => {
            if (mode === 'codes') {
              const res = await newRecoveryCodes(body);
              setCodes(res.result.recoveryCodes);
              setMode('shown');
              toast.success(res.message ?? 'Done.');
            } else {
              const res = await disable(body);
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
  /** Two-factor sign-in is on: a code (or a recovery code) is asked with the password. */
  twoFactor: boolean;
  onClose: () => void;
  run: (body: Record<string, string>) => Promise<void>;
}

/** ReauthDialog asks for the password, and a code, before a change of two-factor settings. */
function ReauthDialog({ title, action, explain, twoFactor, onClose, run }: DialogProps) {
  const [reauth, setReauth] = useState<Reauth>(NO_REAUTH);
  const [errors, setErrors] = useState<{ password?: string; code?: string }>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const missing = checkReauth(reauth, twoFactor);
    if (missing.password || missing.code) {
      setErrors({ password: missing.password, code: missing.code });
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      await run(reauthPayload(reauth, twoFactor));
    } catch (err) {
      const fields: Partial<Record<string, string>> = err instanceof HttpError ? err.errors : {};
      const code = fields.code ?? fields.recoveryCode;
      // A message of no field (too many attempts, say) is shown on the password.
      const password = fields.password ?? (code ? undefined : messageOf(err));
      setErrors({ password, code });
      toast.error(password ?? code ?? messageOf(err));
      setBusy(false);
    }
  };
  return (
    <Modal title={title} onClose={onClose} maxWidth={440}>
      <form onSubmit={submit} noValidate>
        <Flex direction="column" gap="medium">
          <Text>{explain}</Text>
          <ReauthFields
            value={reauth}
            onChange={(next) => {
              setReauth(next);
              setErrors({});
            }}
            twoFactor={twoFactor}
            errors={errors}
            passwordLabel="Password"
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
