/** Two-factor sign-in and sessions (README "Two-factor sign-in and sessions"). */
import { api } from './client';
import type { Envelope, SessionInfo, SignedIn, User } from './types';

export interface SetupKey {
  /** The key as text (base32), for typing into an app. */
  secret: string;
  /** otpauth:// address, drawn as a QR code. */
  uri: string;
}

export interface Enabled {
  recoveryCodes: string[];
  /** Present when enrolment finished a sign-in (an enrol challenge). */
  user?: User;
  token?: string;
}

/** verifyCode spends a sign-in challenge with a code from the app, or a recovery code. */
export async function verifyCode(challenge: string, code: string, recovery: boolean): Promise<SignedIn> {
  const body = recovery ? { challenge, recoveryCode: code } : { challenge, code };
  return (await api.post<Envelope<SignedIn>>('/auth/two-factor', body)).result;
}

/** startSetup makes a new key waiting for its first code (signed in, or with an enrol challenge). */
export async function startSetup(challenge?: string): Promise<SetupKey> {
  return (await api.post<Envelope<SetupKey>>('/auth/two-factor/setup', challenge ? { challenge } : {})).result;
}

/** enable confirms the new key with its first code: with an enrol challenge (sign-in), or signed
 * in with the current password. */
export async function enable(code: string, challenge?: string, password?: string): Promise<Envelope<Enabled>> {
  return api.post<Envelope<Enabled>>('/auth/two-factor/enable', challenge ? { challenge, code } : { code, password: password ?? '' });
}

/** The body of the two-factor changes below: the password, and a code or a recovery code
 * (lib/profileValidation reauthPayload). */
export type ReauthBody = Record<string, string>;

export function newRecoveryCodes(body: ReauthBody): Promise<Envelope<{ recoveryCodes: string[] }>> {
  return api.post('/auth/two-factor/recovery-codes', body);
}

export function disable(body: ReauthBody): Promise<Envelope<boolean>> {
  return api.post('/auth/two-factor/disable', body);
}

export const SESSIONS_KEY = '/auth/sessions';

export function endSession(id: string): Promise<Envelope<boolean>> {
  return api.del(`/auth/sessions/${encodeURIComponent(id)}`);
}

export function signOutOthers(): Promise<Envelope<{ ended: number }>> {
  return api.post('/auth/sessions/sign-out-others', {});
}

export function signOutUser(id: string): Promise<Envelope<boolean>> {
  return api.post(`/auth/users/${encodeURIComponent(id)}/sign-out`, {});
}

export type { SessionInfo };
