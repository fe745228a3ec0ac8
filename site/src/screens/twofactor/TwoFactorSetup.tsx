import { Alert, Button, Flex, Loader, PasswordField, Text, TextField } from '@aws-amplify/ui-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { enable, startSetup, type Enabled, type SetupKey } from '../../api/twoFactor';
import { HttpError, messageOf } from '../../api/http';
import { groupKey, normalizeCode } from '../../lib/twoFactor';
import { QrCode } from './QrCode';
import { RecoveryCodes } from './RecoveryCodes';
import './twoFactor.css';

interface Props {
  /** An enrol challenge (sign-in); none in My Profile. */
  challenge?: string;
  /** Called after the recovery codes were shown and acknowledged. */
  onDone: (result: Enabled) => void;
  onCancel?: () => void;
  doneLabel: string;
}

/**
 * TwoFactorSetup enrols an authenticator app: a new key as a QR code drawn here and as text,
 * confirmed by its first code (and, signed in, the current password: a session alone cannot put
 * the account behind a key its owner does not have); then the recovery codes, once.
 */
export function TwoFactorSetup({ challenge, onDone, onCancel, doneLabel }: Props) {
  const [key, setKey] = useState<SetupKey | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Signed in (My Profile), not finishing a sign-in that has just checked the password.
  const asksPassword = !challenge;
  const [enabled, setEnabled] = useState<Enabled | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    startSetup(challenge).then(setKey, (err) => setLoadError(messageOf(err)));
  }, [challenge]);

  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (code.length !== 6) {
      setError('Enter the 6-digit code your app shows.');
      codeRef.current?.focus();
      return;
    }
    if (asksPassword && !password) {
      setPasswordError('Enter your current password.');
      return;
    }
    setBusy(true);
    setError(null);
    setPasswordError(null);
    try {
      const res = await enable(code, challenge, asksPassword ? password : undefined);
      setEnabled(res.result);
    } catch (err) {
      const fields: Partial<Record<string, string>> = err instanceof HttpError ? err.errors : {};
      if (fields.password) {
        setPasswordError(fields.password);
      } else {
        setError(fields.code ?? messageOf(err));
        codeRef.current?.focus();
      }
    } finally {
      setBusy(false);
    }
  };

  if (enabled) return <RecoveryCodes codes={enabled.recoveryCodes} doneLabel={doneLabel} onDone={() => onDone(enabled)} />;
  if (loadError)
    return (
      <Alert variation="error" role="alert">
        {loadError}
      </Alert>
    );
  if (!key) return <Loader aria-label="Making a key" />;
  return (
    <form onSubmit={confirm} noValidate>
      <Flex direction="column" gap="small">
        <Text>1. Scan this code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…).</Text>
        <QrCode text={key.uri} label="QR code of your two-factor key" />
        <Text>Or type this key into the app:</Text>
        <code className="totp-key" data-testid="totp-key" aria-label="Two-factor key">
          {groupKey(key.secret)}
        </code>
        <TextField
          ref={codeRef}
          label="2. Enter the 6-digit code the app shows"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          value={code}
          onChange={(e) => setCode(normalizeCode(e.target.value))}
          hasError={Boolean(error)}
          errorMessage={error ?? undefined}
        />
        {asksPassword && (
          <PasswordField
            label="3. Your current password"
            name="currentPassword"
            autoComplete="current-password"
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              setPasswordError(null);
            }}
            hasError={Boolean(passwordError)}
            errorMessage={passwordError ?? undefined}
          />
        )}
        <Flex gap="small">
          <Button type="submit" variation="primary" isLoading={busy} loadingText="Checking...">
            Turn on
          </Button>
          {onCancel && <Button onClick={onCancel}>Cancel</Button>}
        </Flex>
      </Flex>
    </form>
  );
}
