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
