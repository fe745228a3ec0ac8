// Browser test of issue 35 on the public website: the demo site in English with French and
// Arabic (set through the API), a page translated through the API; in every theme its French and
// Arabic addresses (and each language's home) pass axe with no serious finding, the Arabic ones
// right to left; then, with JavaScript off, the header's language switch leads from the English
// page to its French address (its French slug) and on to the Arabic one, and back.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { axeViolations, useAdminBrowser } from './helpers.mjs';
import { SITE } from './website-theme.mjs';

const RUN = Date.now().toString(36);
const SLUG = `e2e-site-languages-${RUN}`;
const FR_SLUG = `a-propos-${RUN}`;
const { withPage, call } = useAdminBrowser({ timeout: 20_000 });

let pageId;
let settingsBefore;
let themeBefore;

after(async () => {
  // The page's translations go first (a language records are translated into cannot be removed
  // from the site), then the page, the languages and the theme.
  if (pageId) {
    await call('PATCH', `/pages/${pageId}`, { translations: { fr: null, ar: null } }).catch(() => {});
    await call('DELETE', `/pages/${pageId}`).catch(() => {});
  }
  if (settingsBefore) {
    await call('PATCH', '/site-settings', { defaultLanguage: settingsBefore.defaultLanguage ?? 'en', languages: settingsBefore.languages ?? [] }).catch(() => {});
  }
  await call('PATCH', '/theme-settings', { themeId: themeBefore ?? 'classic' }).catch(() => {});
});

describe('languages on the website', () => {
  test('French and Arabic pages in every theme pass axe; the switch works without JavaScript', async () => {
    settingsBefore = (await call('GET', '/site-settings')).result;
    themeBefore = (await call('GET', '/theme-settings')).result.themeId;
    await call('PATCH', '/site-settings', { languages: ['fr', 'ar'] });
    pageId = (await call('POST', '/pages', { title: `About the school ${RUN}`, slug: SLUG, description: 'Who we are.',
      content: '<p>Welcome to our school.</p>', isPublished: true, status: true })).result.id;
    await call('PATCH', `/pages/${pageId}`, { translations: {
      fr: { title: `À propos de l’école ${RUN}`, slug: FR_SLUG, content: '<p>Bienvenue dans notre école.</p>' },
      ar: { title: `عن المدرسة ${RUN}`, content: '<p>مرحبا بكم في مدرستنا.</p>' },
    } });

    const themes = ['classic', 'modern', 'campus', 'minimal', 'vibrant'];
    await withPage(async (page) => {
      for (const theme of themes) {
        await call('PATCH', '/theme-settings', { themeId: theme });
        for (const [path, lang, dir] of [[`/fr/${FR_SLUG}`, 'fr', 'ltr'], [`/ar/${SLUG}`, 'ar', 'rtl'], ['/fr/', 'fr', 'ltr'], ['/ar/', 'ar', 'rtl']]) {
          const res = await page.goto(`${SITE}${path}`);
          assert.equal(res.status(), 200, `${theme} ${path}`);
          assert.equal(await page.locator('html').getAttribute('lang'), lang);
          assert.equal(await page.locator('html').getAttribute('dir'), dir);
          const found = await axeViolations(page, 'html');
          assert.deepEqual(found, [], `${theme} ${path}: ${found.join('; ')}`);
        }
        // Right to left, the page's heading starts at the right.
        await page.goto(`${SITE}/ar/${SLUG}`);
        const h1 = await page.getByRole('heading', { level: 1 }).boundingBox();
        const width = page.viewportSize().width;
        assert.ok(h1.x + h1.width > width / 2, `${theme}: the Arabic heading ends at x=${h1.x + h1.width} of ${width}`);
      }
    });

    // The switch with JavaScript off: plain links, each in its own language.
    await withPage(async (page) => {
      await page.goto(`${SITE}/${SLUG}`);
      const languages = page.getByRole('navigation', { name: 'Language' });
      await languages.getByRole('link', { name: 'English' }).waitFor();
      assert.equal(await languages.getByRole('link', { name: 'English' }).getAttribute('aria-current'), 'true');
      await languages.getByRole('link', { name: 'Français' }).click();
      await page.waitForURL(`${SITE}/fr/${FR_SLUG}`);
      assert.match(await page.getByRole('heading', { level: 1 }).textContent(), /À propos de l’école/);
      const langue = page.getByRole('navigation', { name: 'Langue' });
      assert.equal(await langue.getByRole('link', { name: 'العربية' }).getAttribute('lang'), 'ar');
      await langue.getByRole('link', { name: 'العربية' }).click();
      await page.waitForURL(`${SITE}/ar/${SLUG}`);
      assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
      assert.match(await page.getByRole('heading', { level: 1 }).textContent(), /عن المدرسة/);
      await page.getByRole('navigation', { name: 'اللغة' }).getByRole('link', { name: 'English' }).click();
      await page.waitForURL(`${SITE}/${SLUG}`);
      assert.equal(await page.locator('html').getAttribute('lang'), 'en');
    }, { javaScriptEnabled: false });
  });
});
