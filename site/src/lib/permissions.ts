import type { User } from '../api/types';

/**
 * ADMINS_ONLY gates what only administrators may do, whatever a role grants (the server refuses
 * everyone else: the WordPress import). No role holds it: it is not a CMS_ code.
 */
export const ADMINS_ONLY = 'ADMINISTRATORS_ONLY';

/** Permission is a code such as CMS_VIEW_FAQ, ADMINS_ONLY, or true for "open to every signed-in user". */
export type Permission = string | true;

/** hasPermission: admins pass every check; others need the code in their list (SPEC §6), and never pass ADMINS_ONLY. */
export function hasPermission(user: User | null | undefined, permission: Permission): boolean {
  if (permission === true) return true;
  if (!user) return false;
  if (user.isAdmin) return true;
  if (permission === ADMINS_ONLY) return false;
  return (user.permissions ?? []).includes(permission);
}

/** viewPermission builds CMS_VIEW_{CATEGORY}. */
export function viewPermission(category: string): string {
  return `CMS_VIEW_${category}`;
}
