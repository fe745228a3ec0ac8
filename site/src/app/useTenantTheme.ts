import type { TenantInfo } from '../api/types';

/**
 * Hook point for start-up step 2's tenant theme (themeSetting: colours, font, custom CSS).
 * The light/dark colour mode is applied by ColorModeProvider from localStorage.
 */
export function useTenantTheme(_tenant: TenantInfo | null): void {
  // Intentionally empty until the theme-settings issue.
}
