/** swr hooks for the start-up data. Keys are API paths; a null key means "not yet". */
import useSWR from 'swr';
import { swrFetcher } from './client';
import { DASHBOARD_KEY } from './dataProvider';
import type { Envelope, Masters, TenantInfoResponse, User } from './types';

export const KEYS = {
  tenantInfo: '/auth/tenant-info',
  me: '/auth/me',
  masters: DASHBOARD_KEY,
} as const;

const once = { shouldRetryOnError: false, revalidateOnFocus: false, revalidateIfStale: false } as const;

export function useTenantInfo(enabled: boolean) {
  return useSWR<TenantInfoResponse>(enabled ? KEYS.tenantInfo : null, swrFetcher, once);
}

export function useMe(enabled: boolean) {
  return useSWR<Envelope<User>>(enabled ? KEYS.me : null, swrFetcher, once);
}

/** useMasters reads the master lists (the dashboard's counters among them). */
export function useMasters(enabled: boolean) {
  return useSWR<Envelope<Masters>>(enabled ? KEYS.masters : null, swrFetcher, { revalidateOnFocus: false });
}
