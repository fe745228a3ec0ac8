import type { TenantInfo } from '../api/types';

/**
 * Start-up step 2 (SPEC §1). The panel's own appearance is the light/dark colour mode, applied by
 * ColorModeProvider from localStorage. The tenant's themeSetting (theme, palette, font, custom
 * CSS) styles the institution's public website, not this panel: applying it here would let any
 * editor restyle (or, through custom CSS, spoof) the admin screens, so it is deliberately not
 * applied. The hook stays as the one place a future panel branding would go.
 */
export function useTenantTheme(_tenant: TenantInfo | null): void {}
