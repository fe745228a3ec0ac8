import { Button, Flex, Grid, TextField } from '@aws-amplify/ui-react';
import type { FormEvent } from 'react';
import { changesSignIn, type FieldErrors, type ProfileInput, type Reauth } from '../../lib/profileValidation';
import { ReauthFields } from './ReauthFields';

interface Props {
  form: ProfileInput;
  errors: FieldErrors;
  saving: boolean;
  setField: (field: keyof ProfileInput, value: string) => void;
  /** The current password (and code) a new password or passcode asks for. */
  reauth: Reauth;
  setReauth: (next: Reauth) => void;
  /** Two-factor sign-in is on: a code is asked with the current password. */
  twoFactor: boolean;
  onSave: (e: FormEvent) => void;
  onCancel: () => void;
}

const KEEP = 'Only Enter if you want to change';

export function ProfileForm({ form, errors, saving, setField, reauth, setReauth, twoFactor, onSave, onCancel }: Props) {
  const field = (name: keyof ProfileInput) => ({
    name,
    value: form[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setField(name, e.target.value),
    hasError: Boolean(errors[name]),
    errorMessage: errors[name],
  });
  return (
    <form onSubmit={onSave} noValidate aria-label="Edit profile">
      <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr' }} gap="medium">
        <TextField label="Username*" autoComplete="username" {...field('username')} />
        <TextField label="Email Address*" type="email" autoComplete="email" {...field('email')} />
        <TextField label="Phone Number*" type="tel" autoComplete="tel" {...field('phone')} />
        <TextField label="Password" type="password" autoComplete="new-password" placeholder={KEEP} {...field('password')} />
        <TextField
          label="Passcode"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={6}
          placeholder={KEEP}
          descriptiveText="6 digits, for signing in without the password"
          {...field('passcode')}
        />
        {changesSignIn(form) && (
          // Asked once a new password or passcode is typed (SPEC's form has no such field).
          <ReauthFields
            value={reauth}
            onChange={setReauth}
            twoFactor={twoFactor}
            errors={{ password: errors.currentPassword, code: errors.code ?? errors.recoveryCode }}
          />
        )}
      </Grid>
      <Flex gap="small" marginTop="large">
        <Button type="button" onClick={onCancel} isDisabled={saving}>
          Cancel
        </Button>
        <Button type="submit" variation="primary" isLoading={saving} loadingText="Please wait...">
          Save
        </Button>
      </Flex>
    </form>
  );
}
