/**
 * Every built screen, loaded lazily: each is its own chunk, fetched the first time its route
 * renders, so the initial bundle holds only the shell, login and dashboard. A new screen is one
 * line here plus its ScreenKey in navigation.ts.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ScreenKey } from './navigation';

type Screen = LazyExoticComponent<ComponentType<Record<string, never>>>;

/** named turns a module's named export into what React.lazy expects. */
function named<K extends string>(load: () => Promise<Record<K, ComponentType<Record<string, never>>>>, name: K): Screen {
  return lazy(() => load().then((m) => ({ default: m[name] })));
}

export const SCREENS: Record<Exclude<ScreenKey, 'dashboard'>, Screen> = {
  profile: named(() => import('../screens/profile/ProfileScreen'), 'ProfileScreen'),
  media: named(() => import('../screens/media/MediaScreen'), 'MediaScreen'),
  pageEditor: named(() => import('../screens/pages/PageEditorScreen'), 'PageEditorScreen'),
  formBuilder: named(() => import('../screens/forms/FormBuilderScreen'), 'FormBuilderScreen'),
  formSubmissions: named(() => import('../screens/forms/SubmissionsScreen'), 'SubmissionsScreen'),
  menu: named(() => import('../screens/menu/MenuScreen'), 'MenuScreen'),
  themes: named(() => import('../screens/themes/ThemesScreen'), 'ThemesScreen'),
  themeSettings: named(() => import('../screens/themes/ThemeSettingsScreen'), 'ThemeSettingsScreen'),
  plans: named(() => import('../screens/plans/PlansScreen'), 'PlansScreen'),
  auditLog: named(() => import('../screens/audit/AuditLogScreen'), 'AuditLogScreen'),
  trash: named(() => import('../screens/trash/TrashScreen'), 'TrashScreen'),
  wordpressImport: named(() => import('../screens/import/WordPressImportScreen'), 'WordPressImportScreen'),
  accessibility: named(() => import('../screens/accessibility/AccessibilityScreen'), 'AccessibilityScreen'),
};

/** The generic settings form of singleton collections (header, footer, SEO defaults). */
export const SingletonScreen = lazy(() =>
  import('../screens/singleton/SingletonScreen').then((m) => ({ default: m.SingletonScreen })),
);

/** The generic list/CRUD screen of declared collections. */
export const CollectionScreen = lazy(() =>
  import('../screens/collections/CollectionScreen').then((m) => ({ default: m.CollectionScreen })),
);
