import { defaultDarkModeOverride, type Theme } from '@aws-amplify/ui-react';

/**
 * The panel's Amplify UI theme: Amplify's default tokens plus its dark-mode override.
 * Brand colours stay Amplify's defaults: component tokens are resolved at :root by
 * Amplify's stylesheet, so a brand override here would not reach buttons consistently.
 */
export const adminTheme: Theme = {
  name: 'cms-admin',
  overrides: [defaultDarkModeOverride],
};
