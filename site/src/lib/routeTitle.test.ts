import { describe, expect, it } from 'vitest';
import { titleForPath } from './routeTitle';
import { ALL_ROUTES, SECTIONS } from '../app/navigation';

describe('titleForPath', () => {
  it.each([
    ['/dashboard', 'Dashboard'],
    ['/faqs', 'FAQs'],
    ['/pages/create', 'Create Page'],
    ['/pages/01HXYZ', 'Edit Page'],
    ['/custom-forms/abc/submissions', 'Form Submissions'],
    ['/seo-setting', 'Default SEO Settings'],
    ['/nowhere', ''],
  ])('%s → %s', (path, want) => {
    expect(titleForPath(ALL_ROUTES, path)).toBe(want);
  });
});

describe('navigation declarations', () => {
  it('has the SPEC §2 sidebar sections in order', () => {
    expect(SECTIONS.map((s) => s.section)).toEqual([
      'Dashboard',
      'Website Content',
      'Marketing Tools',
      'Media & Design',
      'Navigation & SEO',
      'Form Management',
      'Team & Departments',
      'Access Control',
      'Billing',
      'Settings',
    ]);
  });
  it('lists Testimonials in the sidebar under Website Content', () => {
    const content = SECTIONS.find((s) => s.section === 'Website Content');
    expect(content?.links.map((l) => l.label)).toContain('Testimonials');
  });
  it('lists Redirects under Website Content, as the generic screen of its collection', () => {
    const content = SECTIONS.find((s) => s.section === 'Website Content');
    const redirects = content?.links.find((l) => l.label === 'Redirects');
    expect(redirects).toMatchObject({ path: '/redirects', collection: 'redirects', category: 'REDIRECT' });
    expect(titleForPath(ALL_ROUTES, '/redirects')).toBe('Redirects');
  });
  it('lists Site Settings under Settings, as the generic settings form of its singleton', () => {
    const settings = SECTIONS.find((s) => s.section === 'Settings');
    const link = settings?.links.find((l) => l.label === 'Site Settings');
    expect(link).toMatchObject({ path: '/site-settings', singleton: 'site-settings', category: 'SITE_SETTING' });
    expect(titleForPath(ALL_ROUTES, '/site-settings')).toBe('Site Settings');
  });
  it('declares every SPEC §2 route once', () => {
    const paths = ALL_ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const p of [
      '/dashboard', '/my-profile', '/pages', '/pages/create', '/pages/:id', '/events', '/albums', '/photos',
      '/resources', '/popups', '/header', '/footer', '/faqs', '/newsletter-signups', '/testimonials', '/sliders',
      '/media', '/themes', '/plans', '/theme-settings', '/sitemap-entries', '/menu-items', '/seo-setting',
      '/departments', '/staff-members', '/users', '/invoices', '/custom-forms', '/custom-forms/create',
      '/custom-forms/:id', '/custom-forms/:id/submissions', '/notices', '/notifications',
    ]) {
      expect(paths).toContain(p);
    }
  });
});
