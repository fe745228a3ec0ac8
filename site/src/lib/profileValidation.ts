import { MSG } from './messages';

/** ProfileInput is the edit form's state; empty password/passcode means "keep". */
export interface ProfileInput {
  username: string;
  email: string;
  phone: string;
  password: string;
  passcode: string;
}

export type ProfileField = keyof ProfileInput;
export type FieldErrors = Partial<Record<string, string>>;

export interface ValidationResult {
  /** The first problem, shown as a toast; null when valid. */
  message: string | null;
  /** One message per offending field, shown inline. */
  errors: FieldErrors;
}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PHONE_PATTERN = /^[0-9\s\-()+]{10}$/;
export const PASSCODE_PATTERN = /^\d{6}$/;

export function isValidEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email.trim());
}

export function isValidPhone(phone: string): boolean {
  return PHONE_PATTERN.test(phone);
}

/** validateProfile applies SPEC §5 profile rules in order and reports every failing field. */
export function validateProfile(input: ProfileInput): ValidationResult {
  const errors: FieldErrors = {};
  const mandatory: ProfileField[] = ['username', 'email', 'phone'];
  for (const field of mandatory) {
    if (!input[field].trim()) errors[field] = MSG.mandatory;
  }
  if (!errors.email && !isValidEmail(input.email)) errors.email = MSG.invalidEmail;
  if (!errors.phone && !isValidPhone(input.phone)) errors.phone = MSG.invalidPhone;
  if (input.password && input.password.length < 6) errors.password = MSG.shortPassword;
  if (input.passcode && !PASSCODE_PATTERN.test(input.passcode)) errors.passcode = MSG.invalidPasscode;

  const order: ProfileField[] = ['username', 'email', 'phone', 'password', 'passcode'];
  const first = order.find((f) => errors[f]);
  return { message: first ? errors[first]! : null, errors };
}

/** changesSignIn reports whether the form gives the account a new password or passcode: then the
 * current password (and a code where two-factor sign-in is on) is asked as well. */
export function changesSignIn(input: ProfileInput): boolean {
  return Boolean(input.password || input.passcode);
}

/** toProfilePayload trims the form and leaves out secrets the user did not type. */
export function toProfilePayload(input: ProfileInput): Record<string, string> {
  const body: Record<string, string> = {
    username: input.username.trim(),
    email: input.email.trim(),
    phone: input.phone,
  };
  if (input.password) body.password = input.password;
  if (input.passcode) body.passcode = input.passcode;
  return body;
}

/**
 * Reauth is what a change of how the account signs in asks again: the current password, and where
 * two-factor sign-in is on a code from the app or (recovery) one of the recovery codes. The API
 * refuses such a change without it, so a session alone cannot lock the owner out.
 */
export interface Reauth {
  password: string;
  code: string;
  recovery: boolean;
}

export const NO_REAUTH: Reauth = { password: '', code: '', recovery: false };

export const REAUTH_MSG = {
  password: 'Enter your current password.',
  code: 'Enter the code from your authenticator app.',
  recoveryCode: 'Enter one of your recovery codes.',
};

/** checkReauth reports what is missing, under the keys "password" and "code". */
export function checkReauth(r: Reauth, twoFactor: boolean): FieldErrors {
  const errors: FieldErrors = {};
  if (!r.password) errors.password = REAUTH_MSG.password;
  if (twoFactor && !r.code.trim()) errors.code = r.recovery ? REAUTH_MSG.recoveryCode : REAUTH_MSG.code;
  return errors;
}

/** reauthPayload is the request's part of a reauth; passwordField names the current password
 * ("currentPassword" in the profile, where "password" is the new one). */
export function reauthPayload(r: Reauth, twoFactor: boolean, passwordField = 'password'): Record<string, string> {
  const body: Record<string, string> = { [passwordField]: r.password };
  if (twoFactor) body[r.recovery ? 'recoveryCode' : 'code'] = r.code.trim();
  return body;
}
