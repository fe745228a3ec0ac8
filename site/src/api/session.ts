/**
 * Session state (token + user) kept in localStorage, observable by React through
 * useSyncExternalStore so a login or logout re-keys every swr hook.
 */
import { readStorage, STORAGE_KEYS, writeStorage } from '../lib/storage';
import type { User } from './types';

type Listener = () => void;
const listeners = new Set<Listener>();

export function getToken(): string | null {
  return readStorage(STORAGE_KEYS.token);
}

export function setSession(token: string, user: User): void {
  writeStorage(STORAGE_KEYS.token, token);
  writeStorage(STORAGE_KEYS.user, JSON.stringify(user));
  listeners.forEach((l) => l());
}

export function clearSession(): void {
  writeStorage(STORAGE_KEYS.token, null);
  writeStorage(STORAGE_KEYS.user, null);
  listeners.forEach((l) => l());
}

export function storeUser(user: User): void {
  writeStorage(STORAGE_KEYS.user, JSON.stringify(user));
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
