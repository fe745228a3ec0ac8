export const TENANT_STORAGE_KEY = 'tenantId';

/** KeyValueStore is the slice of Storage the tenant logic needs (localStorage in the app). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const TENANT_PATTERN = /^[a-z0-9-]{2,40}$/;

/**
 * resolveTenant picks the tenant id: `?tenant=` in the URL wins and is remembered,
 * then the remembered one, then the configured default.
 */
export function resolveTenant(search: string, store: KeyValueStore, defaultTenant: string): string {
  const fromUrl = new URLSearchParams(search).get('tenant')?.trim().toLowerCase();
  if (fromUrl) {
    store.setItem(TENANT_STORAGE_KEY, fromUrl);
    return fromUrl;
  }
  const remembered = store.getItem(TENANT_STORAGE_KEY)?.trim();
  if (remembered) return remembered;
  return defaultTenant;
}

/** isPlausibleTenantId says whether an id could exist at all (server has the final word). */
export function isPlausibleTenantId(id: string): boolean {
  return TENANT_PATTERN.test(id);
}
