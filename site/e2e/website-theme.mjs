// The public website's per-theme browser tests (shared/website), one test file per theme
// (website-theme-{id}.test.mjs) so that the browser suite's shards share them out: the home page
// and every section type, axe on every kind of page on a desktop and a phone, and every kind of
// page without JavaScript, and the W3C Nu HTML checker (nu-checker.mjs) over the HTML of every
// kind of page as served. Each file sets its theme and puts the demo back on
// classic at the end.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE_URL, adminToken, apiCall, axeViolations, useBrowser } from './helpers.mjs';
import { nuErrors } from './nu-checker.mjs';

export const PORT = new URL(BASE_URL).port || '80';
/** SITE is the demo tenant's website: Chromium resolves every *.localhost name to loopback. */
export const SITE = `http://demo.localhost:${PORT}`;
const SECTION_TYPES = ['slider', 'card-row', 'banner', 'text-image', 'embed', 'form'];

/** themeTests declares the tests of theme id. */
export function themeTests(id) {
  let token;
  /** pageTypes are one address of every kind of page the website serves (filled in before the tests). */
  let pageTypes = [];
  const call = (method, path, body, as = token) => apiCall(method, path, body, as);
  const activate = (themeId) => call('PATCH', '/theme-settings', { themeId });
  const withPage = useBrowser({
    beforeAll: async () => {
      token = await adminToken();
      const first = async (collection) => (await call('GET', `/${collection}?limit=5`)).result[0].id;
      pageTypes = ['/', '/about', '/events', `/events/${await first('events')}`, '/notices', `/notices/${await first('notices')}`,
        '/albums', `/albums/${await first('albums')}`, '/staff', '/departments', '/faqs', '/resources', '/testimonials',
        `/forms/${await first('custom-forms')}`, '/search?q=campus', '/no-such-page'];
    },
  });
  /** served holds the HTML of every kind of page as served (saved by the no-JavaScript test). */
  const served = mkdtempSync(join(tmpdir(), `website-${id}-`));
  const saved = new Map();
  after(async () => {
    await call('PATCH', '/theme-settings', { themeId: 'classic' });
    rmSync(served, { recursive: true, force: true });
  });

  describe(`public website, theme ${id}`, () => {
    test(`theme ${id}: home page and every section type`, async () => {
      await activate(id);
      await withPage(async (page) => {
        const res = await page.goto(`${SITE}/`);
        assert.equal(res.status(), 200);
        // The class as served (site.js adds "js" once it runs).
        assert.match(await res.text(), new RegExp(`<html lang="en" dir="ltr" class="theme-${id}">`));
        assert.ok(await page.locator(`html.theme-${id}`).count());
        // The theme's stylesheet is written into the <head> (no stylesheet to wait for).
        assert.equal(await page.locator('link[rel=stylesheet]').count(), 0);
        assert.ok(await page.evaluate(() => [...document.styleSheets].some((s) => !s.href && s.cssRules.length > 100)), 'the theme stylesheet is inline');
        const h1 = page.getByRole('heading', { level: 1 });
        assert.equal(await h1.count(), 1);
        assert.match(await h1.textContent(), /Demo Institution/);
        if (id === 'campus') {
          const quick = page.getByRole('navigation', { name: 'Quick links' });
          for (const name of ['Events', 'Notices', 'Gallery', 'Staff', 'Resources', 'FAQs']) await quick.getByRole('link', { name, exact: true }).waitFor();
          // Two columns on a wide screen: the quick links sit beside <main>, not under it.
          const main = await page.locator('main').boundingBox();
          const aside = await page.locator('aside.quick-links').boundingBox();
          assert.ok(aside.x >= main.x + main.width - 1, `aside at x=${aside.x} beside main ending at ${main.x + main.width}`);
        } else {
          assert.equal(await page.locator('aside').count(), 0);
        }

        // The demo spreads its six section types over the home page and /about (which has the
        // form and embed ones); together they must all render in every theme.
        const seen = new Set();
        for (const path of ['/', '/about']) {
          if (path !== '/') assert.equal((await page.goto(`${SITE}${path}`)).status(), 200);
          for (const t of SECTION_TYPES) if ((await page.locator(`section.section-${t}`).count()) > 0) seen.add(t);
        }
        assert.deepEqual([...seen].sort(), [...SECTION_TYPES].sort());
        await page.getByRole('heading', { level: 1, name: 'About' }).first().waitFor();
      });
    });

    test(`theme ${id}: axe finds nothing serious or critical on any kind of page`, async () => {
      await activate(id);
      const found = [];
      for (const mobile of [false, true]) {
        await withPage(
          async (page) => {
            for (const path of pageTypes) {
              await page.goto(`${SITE}${path}`);
              for (const v of await axeViolations(page, 'html')) found.push(`${mobile ? 'phone' : 'desktop'} ${path}: ${v}`);
            }
          },
          mobile ? { viewport: { width: 412, height: 823 }, isMobile: true } : {},
        );
      }
      assert.deepEqual(found, []);
    });

    test(`theme ${id}: every kind of page works without JavaScript, on a phone`, async () => {
      await activate(id);
      await withPage(
        async (page) => {
          for (const path of pageTypes) {
            const res = await page.goto(`${SITE}${path}`);
            assert.equal(res.status(), path === '/no-such-page' ? 404 : 200, path);
            const file = join(served, `page-${saved.size}.html`);
            writeFileSync(file, await res.text());
            saved.set(file, path);
            assert.equal(await page.evaluate(() => document.documentElement.classList.contains('js')), false, 'JavaScript really off');
            assert.equal(await page.getByRole('heading', { level: 1 }).count(), 1, `${path}: one h1`);
            assert.ok((await page.locator('main').innerText()).trim().length > 0, `${path}: main has content`);
            // The theme's stylesheet (inline in the <head>) applies (its custom properties are set on :root).
            const sheet = await page.evaluate(() => [...document.styleSheets].some((s) => !s.href && s.cssRules.length > 100));
            assert.ok(sheet, `${path}: theme stylesheet loaded`);
            // The menu is there without its toggle, which only script shows.
            assert.equal(await page.locator('.menu-toggle').isVisible(), false, `${path}: no dead menu button`);
            const nav = page.locator('#site-nav');
            if (await nav.count()) {
              const first = nav.getByRole('link').first();
              await first.waitFor({ state: 'visible', timeout: 5000 });
            }
          }
        },
        { javaScriptEnabled: false, viewport: { width: 412, height: 823 }, isMobile: true },
      );
    });

    // Last: the pages the test above saved, through the Nu checker (nu-checker.mjs).
    test(`theme ${id}: the Nu HTML checker finds no error on any kind of page`, async () => {
      assert.equal(saved.size, pageTypes.length, 'every kind of page was saved by the test above');
      assert.deepEqual(await nuErrors([...saved.keys()], saved), []);
    });
  });
}
