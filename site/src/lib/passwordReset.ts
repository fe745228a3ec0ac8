import { MSG } from './messages';

/** The password rules (SPEC §5), as the server applies them. */
export const PASSWORD_RULES = 'At least 6 characters, and not just 6 digits (that is the shape of a passcode).';
const PASSCODE_SHAPED = /^\d{6}$/;
export const LINK_BAD = 'This password reset link has expired or has already been used. Ask for a new one.';

/** validateNewPassword applies the password rules and the confirmation, field by field. */
export function validateNewPassword(password: string, confirm: string): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!password) errors.password = 'Choose a new password.';
  else if (password.length < 6) errors.password = MSG.shortPassword;
  else if (password.length > 256) errors.password = 'Password is too long!';
  else if (PASSCODE_SHAPED.test(password)) errors.password = 'Password cannot be just 6 digits: that is the shape of a passcode!';
  if (!errors.password && confirm !== password) errors.confirm = 'The two passwords do not match.';
  return errors;
}

