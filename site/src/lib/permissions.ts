import type { User } from '../api/types';

/** Permission is a code such as CMS_VIEW_FAQ, or true for "open to every signed-in user". */
export type Permission = string | true;

/** hasPermission: admins pass every check; others need the code in their list (SPEC §6). */
export function hasPermission(user: User | null | undefined, permission: Permission): boolean {
  if (permission === true) return true;
  if (!user) return false;
  if (user.isAdmin) return true;
  return (user.permissions ?? []).includes(permission);
}

/** viewPermission builds CMS_VIEW_{CATEGORY}. */
export function viewPermission(category: string): string {
  return `CMS_VIEW_${category}`;
}
