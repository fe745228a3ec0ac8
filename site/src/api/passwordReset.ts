/** Password reset calls (issue 33): ask for a link, then choose a new password with it. */
import { api } from './client';
import type { Envelope } from './types';

/** RESET_SENT is the one answer to every request, whether or not the account exists. */
export const RESET_SENT = 'If the account exists, we have sent an email';

export async function requestPasswordReset(username: string): Promise<string> {
  const res = await api.post<Envelope<boolean>>('/auth/password-reset', { username });
  return res.message || RESET_SENT;
}

export async function confirmPasswordReset(token: string, password: string): Promise<string> {
  const res = await api.post<Envelope<boolean>>('/auth/password-reset/confirm', { token, password });
  return res.message || 'Your password has been changed. Sign in with your new password.';
}
