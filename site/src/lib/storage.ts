/** Local-storage keys used by the SPA. */
export const STORAGE_KEYS = {
  token: 'token',
  user: 'user',
  colorMode: 'colorMode',
  sidebarCollapsed: 'sidebarCollapsed',
} as const;

export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode); the app still works for this visit.
  }
}
