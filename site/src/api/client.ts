/** The tenant API client: adds base path, tenant header and bearer token to requestJson. */
import { requestFile, requestJson, type DownloadedFile } from './http';
import { getToken } from './session';
import type { AppConfig } from './types';

interface ClientSettings {
  apiBase: string;
  tenantId: string;
}

let settings: ClientSettings = { apiBase: '/api/v1/tenant', tenantId: '' };

/** configureClient is called once at start-up, after config.json and tenant resolution. */
export function configureClient(next: ClientSettings): void {
  settings = next;
}

export function currentTenantId(): string {
  return settings.tenantId;
}

function headers(): Record<string, string> {
  const h: Record<string, string> = { 'X-Tenant-Id': settings.tenantId };
  const token = getToken();
  if (token) h.Authorization = `Bearer ${token}`;
  return h;
}

function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  return requestJson<T>(settings.apiBase + path, { method, body, headers: headers() });
}

export const api = {
  get: <T>(path: string) => call<T>('GET', path),
  post: <T>(path: string, body?: unknown) => call<T>('POST', path, body ?? {}),
  patch: <T>(path: string, body?: unknown) => call<T>('PATCH', path, body ?? {}),
  put: <T>(path: string, body?: unknown) => call<T>('PUT', path, body ?? {}),
  del: <T>(path: string) => call<T>('DELETE', path),
  /** file GETs a file the API makes (a CSV export) with the same headers. */
  file: (path: string): Promise<DownloadedFile> => requestFile(settings.apiBase + path, { headers: headers() }),
};

/** loadConfig fetches /config.json (same origin, no tenant headers). */
export function loadConfig(): Promise<AppConfig> {
  return requestJson<AppConfig>('/config.json');
}

/** swrFetcher lets swr keys be API paths. */
export function swrFetcher<T>(path: string): Promise<T> {
  return api.get<T>(path);
}
