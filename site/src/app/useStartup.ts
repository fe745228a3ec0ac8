/**
 * Start-up order (SPEC §1): 1 tenant details, 2 theme, 3 auth check, 4 signed-in data.
 * Each step's swr key is null until the previous step has settled, which enforces the order.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { useMasters, useMe, useTenantInfo } from '../api/hooks';
import { HttpError, messageOf } from '../api/http';
import { clearSession, getToken, storeUser, subscribeSession } from '../api/session';
import type { TenantInfo, User } from '../api/types';
import { MSG } from '../lib/messages';
import { useBoot } from './useBoot';
import { useNotificationsPoll } from './useNotificationsPoll';
import { useTenantTheme } from './useTenantTheme';

export interface StartupState {
  bootError: string | null;
  tenantId: string | null;
  tenant: TenantInfo | null;
  objectUrlPrefix: string;
  tenantError: string | null;
  tenantLoaded: boolean;
  authInitialised: boolean;
  user: User | null;
}

function tenantErrorText(err: unknown): string {
  if (err instanceof HttpError && err.status === 404) return err.message || MSG.tenantNotFound;
  return messageOf(err);
}

export function useStartup(): StartupState {
  const boot = useBoot();

  // 1. Tenant details.
  const tenantQuery = useTenantInfo(boot.tenantId !== null);
  const tenantSettled = tenantQuery.data !== undefined || tenantQuery.error !== undefined;
  const tenant = tenantQuery.data?.result ?? null;

  // 2. Theme: colour mode is already read from storage; tenant theme settings hook in here.
  useTenantTheme(tenant);

  // 3. Auth check: a stored token is confirmed with GET /auth/me.
  const token = useSyncExternalStore(subscribeSession, getToken);
  const meQuery = useMe(tenantSettled && tenant !== null && token !== null);
  useEffect(() => {
    if (meQuery.error && getToken()) clearSession();
  }, [meQuery.error]);
  useEffect(() => {
    if (meQuery.data?.result) storeUser(meQuery.data.result);
  }, [meQuery.data]);
  const user = token && meQuery.data?.result ? meQuery.data.result : null;
  const authInitialised =
    boot.error !== null ||
    (tenantSettled && (tenant === null || token === null || meQuery.data !== undefined || meQuery.error !== undefined));

  // 4. Signed in: master lists and notifications.
  const signedIn = authInitialised && user !== null;
  useMasters(signedIn);
  useNotificationsPoll(signedIn);

  return {
    bootError: boot.error,
    tenantId: boot.tenantId,
    tenant,
    objectUrlPrefix: tenantQuery.data?.objectUrlPrefix ?? '',
    tenantError: tenantQuery.error ? tenantErrorText(tenantQuery.error) : null,
    tenantLoaded: tenant !== null,
    authInitialised,
    user: signedIn ? user : null,
  };
}
