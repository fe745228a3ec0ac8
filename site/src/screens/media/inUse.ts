import { HttpError } from '../../api/http';

/** IN_USE_PREFIX starts the server's answer to a delete of a file still shown somewhere (shared/media MsgInUse). */
export const IN_USE_PREFIX = 'This file is still used by';

/** FORCE_QUERY is the query that deletes a file in use anyway. */
export const FORCE_QUERY = 'force=1';

/**
 * inUseMessage is the question to ask before deleting a file anyway: the server's 409 message
 * ("This file is still used by Open Day (pages). Delete it anyway?"), or null for any other error.
 */
export function inUseMessage(err: unknown): string | null {
  if (err instanceof HttpError && err.status === 409 && err.message.startsWith(IN_USE_PREFIX)) return err.message;
  return null;
}

/** removePath is the DELETE path of a media file, forced or not. */
export function removePath(id: string, force: boolean): string {
  return `/media/${encodeURIComponent(id)}${force ? `?${FORCE_QUERY}` : ''}`;
}
