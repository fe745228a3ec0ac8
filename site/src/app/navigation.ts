/**
 * The one declaration of screens: the sidebar and the route table are both built from it.
 * `screen` names a built screen; links without one render the "coming later" placeholder.
 */
import { ADMINS_ONLY, type Permission } from '../lib/permissions';
import { COLLECTIONS } from '../lib/collections';

export type ScreenKey =
  | 'dashboard'
  | 'profile'
  | 'media'
  | 'pageEditor'
  | 'formBuilder'
  | 'formSubmissions'
  | 'menu'
  | 'themes'
  | 'themeSettings'
  | 'plans'
  | 'auditLog'
  | 'trash'
  | 'wordpressImport'
  | 'accessibility';

export interface ScreenDecl {
  /** Sidebar label (links only). */
  label: string;
  /** Route path (react-router pattern). */
  path: string;
  /** Page title shown in the header bar and document title. */
  title: string;
  /** Permission category for CMS_{ACTION}_{CATEGORY} codes. */
  category: string;
  /** What gates viewing; SPEC §2: every current link is open to all users. */
  permission: Permission;
  screen?: ScreenKey;
  /** A declared collection (shared/collections/collections.json) shown by the generic list screen. */
  collection?: string;
  /** A declared singleton collection (header, footer, SEO defaults) shown by the generic settings form. */
  singleton?: string;
}

export interface SectionDecl {
  section: string;
  links: ScreenDecl[];
}

/** link declares a route; a path naming a declared collection takes the collection's category. */
function link(label: string, path: string, category?: string, extra: Partial<ScreenDecl> = {}): ScreenDecl {
  const decl = COLLECTIONS[path.slice(1)];
  const cat = category ?? decl?.category;
  if (!cat) throw new Error(`navigation: ${path} needs a permission category`);
  return {
    label,
    path,
    title: label,
    category: cat,
    permission: true,
    // A path that names a declared collection gets the generic list/CRUD screen, or the
    // generic settings form when the collection is a singleton.
    collection: decl && !decl.singleton ? decl.key : undefined,
    singleton: decl?.singleton ? decl.key : undefined,
    ...extra,
  };
}

export const SECTIONS: SectionDecl[] = [
  { section: 'Dashboard', links: [link('Home', '/dashboard', 'DASHBOARD', { title: 'Dashboard', screen: 'dashboard' })] },
  {
    section: 'Website Content',
    links: [
      link('Header', '/header', 'HEADER'),
      link('Footer', '/footer', 'FOOTER'),
      link('Sliders', '/sliders'),
      link('Pages', '/pages', 'PAGE'),
      link('Albums', '/albums'),
      link('Photos', '/photos'),
      link('Events', '/events'),
      link('Resources', '/resources'),
      link('Testimonials', '/testimonials'),
      // Old addresses (a WordPress site's, say) the website sends on: a generic collection screen.
      link('Redirects', '/redirects'),
      // Issue 37: what published content fails accessibility checks; for those who may fix pages.
      link('Accessibility', '/accessibility', 'PAGE', { title: 'Accessibility', screen: 'accessibility', permission: 'CMS_EDIT_PAGE' }),
    ],
  },
  {
    section: 'Marketing Tools',
    links: [
      link('Popups', '/popups'),
      link('FAQs', '/faqs'),
      link('Newsletter Signups', '/newsletter-signups'),
      link('Newsletters', '/newsletters'),
    ],
  },
  {
    section: 'Media & Design',
    links: [
      link('Media Library', '/media', 'MEDIA', { screen: 'media' }),
      link('Themes', '/themes', 'THEME', { screen: 'themes' }),
      link('Theme Settings', '/theme-settings', 'THEME_SETTING', { screen: 'themeSettings' }),
    ],
  },
  {
    section: 'Navigation & SEO',
    links: [
      link('Menu Items', '/menu-items', 'MENU_ITEM', { screen: 'menu' }),
      link('SEO Setting', '/seo-setting', 'SEO_SETTING', { title: 'Default SEO Settings', singleton: 'seo-settings' }),
      link('Sitemap Entries', '/sitemap-entries'),
    ],
  },
  { section: 'Form Management', links: [link('Custom Forms', '/custom-forms')] },
  {
    section: 'Team & Departments',
    links: [link('Staff Members', '/staff-members'), link('Departments', '/departments')],
  },
  {
    section: 'Access Control',
    links: [
      link('Users', '/users'),
      link('Roles', '/roles'),
      link('Security', '/security-settings', undefined, { title: 'Security Settings' }),
      link('Audit Log', '/audit-log', 'AUDIT_LOG', { screen: 'auditLog' }),
      link('Trash', '/trash', 'TRASH', { screen: 'trash', permission: 'CMS_VIEW_TRASH' }),
    ],
  },
  { section: 'Billing', links: [link('Invoices', '/invoices'), link('Plans', '/plans', 'PLAN', { screen: 'plans' })] },
  {
    section: 'Settings',
    links: [
      // Tenant-wide settings several features share (the time zone of the website's calendar).
      link('Site Settings', '/site-settings'),
      link('Notices', '/notices'),
      link('Notifications', '/notifications'),
      // Administrators only: an import writes pages, notices, media, the menu and redirects at once.
      link('Import from WordPress', '/import', 'WORDPRESS_IMPORT', { screen: 'wordpressImport', permission: ADMINS_ONLY }),
    ],
  },
];

/** Routes reached from inside screens rather than the sidebar. */
export const EXTRA_ROUTES: ScreenDecl[] = [
  link('My Profile', '/my-profile', 'PROFILE', { screen: 'profile' }),
  link('Create Page', '/pages/create', 'PAGE', { screen: 'pageEditor' }),
  link('Edit Page', '/pages/:id', 'PAGE', { screen: 'pageEditor' }),
  link('Create Custom Form', '/custom-forms/create', 'CUSTOM_FORM', { screen: 'formBuilder' }),
  link('Edit Custom Form', '/custom-forms/:id', 'CUSTOM_FORM', { screen: 'formBuilder' }),
  link('Form Submissions', '/custom-forms/:id/submissions', 'FORM_SUBMISSION', { screen: 'formSubmissions' }),
];

export const ALL_ROUTES: ScreenDecl[] = [...SECTIONS.flatMap((s) => s.links), ...EXTRA_ROUTES];
