import { describe, expect, it } from 'vitest';
import type { User } from '../api/types';
import { ALL_ROUTES, SECTIONS } from '../app/navigation';
import { ADMINS_ONLY, hasPermission } from './permissions';

const staff = (permissions: string[]): User => ({ isAdmin: false, permissions }) as unknown as User;
const admin = { isAdmin: true, permissions: [] } as unknown as User;

describe('hasPermission', () => {
  it('lets admins through every check and others by their codes', () => {
    expect(hasPermission(admin, 'CMS_VIEW_FAQ')).toBe(true);
    expect(hasPermission(staff(['CMS_VIEW_FAQ']), 'CMS_VIEW_FAQ')).toBe(true);
    expect(hasPermission(staff([]), 'CMS_VIEW_FAQ')).toBe(false);
    expect(hasPermission(staff([]), true)).toBe(true);
    expect(hasPermission(null, true)).toBe(true);
    expect(hasPermission(null, 'CMS_VIEW_FAQ')).toBe(false);
  });
  it('keeps ADMINS_ONLY for administrators, whatever a user’s list holds', () => {
    expect(hasPermission(admin, ADMINS_ONLY)).toBe(true);
    expect(hasPermission(staff([]), ADMINS_ONLY)).toBe(false);
    expect(hasPermission(staff([ADMINS_ONLY]), ADMINS_ONLY)).toBe(false);
    expect(hasPermission(null, ADMINS_ONLY)).toBe(false);
  });
});

describe('the Import from WordPress link', () => {
  const settings = SECTIONS.find((s) => s.section === 'Settings');
  const link = settings?.links.find((l) => l.label === 'Import from WordPress');
  it('is under Settings at /import, titled as the screen, with its own screen', () => {
    expect(link).toMatchObject({ path: '/import', title: 'Import from WordPress', screen: 'wordpressImport' });
    expect(ALL_ROUTES.filter((r) => r.path === '/import')).toHaveLength(1);
  });
  it('is shown (and routed) to administrators only', () => {
    expect(hasPermission(admin, link!.permission)).toBe(true);
    expect(hasPermission(staff(['CMS_VIEW_NOTICE', 'CMS_VIEW_WORDPRESS_IMPORT']), link!.permission)).toBe(false);
  });
});
