import { Button, Flex, PasswordField, TextField } from '@aws-amplify/ui-react';
import type { Reauth } from '../../lib/profileValidation';
import { normalizeCode } from '../../lib/twoFactor';

interface Props {
  value: Reauth;
  onChange: (next: Reauth) => void;
  /** Two-factor sign-in is on: a code (or a recovery code) is asked too. */
  twoFactor: boolean;
  errors: { password?: string; code?: string };
  passwordLabel?: string;
}

/**
 * ReauthFields ask the current password, and where two-factor sign-in is on a code from the app or
 * a recovery code, before a change of how the account signs in (a deliberate addition to SPEC's
 * profile form: a session alone must not be able to lock the owner out).
 */
export function ReauthFields({ value, onChange, twoFactor, errors, passwordLabel = 'Current password' }: Props) {
  return (
    <>
      <PasswordField
        label={passwordLabel}
        name="currentPassword"
        autoComplete="current-password"
        value={value.password}
        onChange={(e) => onChange({ ...value, password: e.target.value })}
        hasError={Boolean(errors.password)}
        errorMessage={errors.password}
      />
      {twoFactor && (
        <Flex direction="column" gap="xxs">
          <TextField
            key={value.recovery ? 'recovery' : 'code'}
            label={value.recovery ? 'Recovery code' : 'Code from your authenticator app'}
            name={value.recovery ? 'recoveryCode' : 'code'}
            inputMode={value.recovery ? 'text' : 'numeric'}
            autoComplete={value.recovery ? 'off' : 'one-time-code'}
            placeholder={value.recovery ? 'xxxx-xxxx-xxxx' : '123456'}
            value={value.code}
            onChange={(e) => onChange({ ...value, code: value.recovery ? e.target.value : normalizeCode(e.target.value) })}
            hasError={Boolean(errors.code)}
            errorMessage={errors.code}
          />
          <Flex>
            <Button variation="link" size="small" onClick={() => onChange({ ...value, recovery: !value.recovery, code: '' })}>
              {value.recovery ? 'Use a code from your app' : 'Use a recovery code'}
            </Button>
          </Flex>
        </Flex>
      )}
    </>
  );
}
