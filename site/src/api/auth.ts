/** Auth calls (SPEC §7 Authentication). */
import { api } from './client';
import type { Envelope, LoginResult, User } from './types';

const PASSCODE = /^\d{6}$/;

/** isPasscode: a secret of exactly 6 digits is a passcode, never a password. */
export function isPasscode(secret: string): boolean {
  return PASSCODE.test(secret);
}

/** signIn uses /auth/passcode for 6-digit secrets and /auth/login otherwise. */
export async function signIn(username: string, secret: string): Promise<LoginResult> {
  const res = isPasscode(secret)
    ? await api.post<Envelope<LoginResult>>('/auth/passcode', { username, passcode: secret })
    : await api.post<Envelope<LoginResult>>('/auth/login', { username, password: secret });
  return res.result;
}

export async function signOut(): Promise<void> {
  await api.post('/auth/logout');
}

export function updateMe(body: Record<string, string>): Promise<Envelope<User>> {
  return api.patch<Envelope<User>>('/auth/me', body);
}
