import { signOut } from '../api/auth';
import { clearSession } from '../api/session';

/** logout ends the server session (best effort), clears token and user, and reloads at /login. */
export async function logout(): Promise<void> {
  try {
    await signOut();
  } catch {
    // The local session is cleared regardless; a stale server session expires on its own.
  }
  clearSession();
  window.location.assign('/login');
}
