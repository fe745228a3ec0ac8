// Browser test of the website's search (shared/website/search.go) at http://demo.localhost:PORT/:
// on a phone with JavaScript off, a visitor searches from a theme's header for a word of the
// demo's names, sees the results grouped by kind with the word marked, and follows one; axe on
// the results page on a desktop and a phone; printed, the page leaves out the header's menu and
// search box and the footer. The demo's theme is put back on classic at the end.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { adminToken, apiCall, axeViolations, useBrowser } from './helpers.mjs';
import { SITE } from './website-theme.mjs';

/** THEME is the theme the test searches in (not the demo's own classic). */
const THEME = 'vibrant';

let token;
const call = (method, path, body) => apiCall(method, path, body, token);
const withPage = useBrowser({
  beforeAll: async () => {
    token = await adminToken();
  },
});
after(async () => {
  await call('PATCH', '/theme-settings', { themeId: 'classic' });
});

/** seriousViolations are axe's serious and critical findings on the whole page. */
const seriousViolations = (page) => axeViolations(page, 'html');

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true };

describe('website search', () => {
  test('JavaScript off, on a phone: search from the header, grouped results, follow one', async () => {
    await call('PATCH', '/theme-settings', { themeId: THEME });
    await withPage(
      async (page) => {
        await page.goto(`${SITE}/`);
        assert.equal(await page.evaluate(() => document.documentElement.classList.contains('js')), false, 'JavaScript really off');
        const box = page.getByRole('search', { name: 'Site search' });
        const input = box.getByRole('searchbox', { name: 'Search this site' });
        await input.waitFor({ state: 'visible' });
        // The box fits the phone's width, and so does the page.
        const rect = await input.boundingBox();
        assert.ok(rect.x >= 0 && rect.x + rect.width <= 390, `search box at ${JSON.stringify(rect)}`);
        assert.ok(rect.height >= 44, `search box ${rect.height}px high: a thumb's target`);
        await input.fill('campus');
        await box.getByRole('button', { name: 'Search' }).click();
        await page.waitForURL(/\/search\?q=campus$/);
        assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scroll');

        await page.getByRole('heading', { level: 1, name: 'Results for “campus”' }).waitFor();
        assert.equal(await page.locator('meta[name=robots]').getAttribute('content'), 'noindex');
        // Grouped by kind, in the search's order: the demo's notice and FAQ with "campus" in their names.
        const groups = await page.locator('main h2').allTextContents();
        assert.deepEqual(groups, ['Notices', 'FAQs']);
        const notices = page.getByRole('region', { name: 'Notices' });
        const faqs = page.getByRole('region', { name: 'FAQs' });
        await faqs.getByRole('link', { name: 'Is there parking on campus?' }).waitFor();
        const marks = await page.locator('main mark').allTextContents();
        assert.ok(marks.length >= 2 && marks.every((m) => m.toLowerCase() === 'campus'), `marked: ${marks}`);
        // The search form on the page holds the query.
        assert.equal(await page.getByRole('search', { name: 'Search the site' }).getByRole('searchbox').inputValue(), 'campus');

        await notices.getByRole('link', { name: 'New campus Wi-Fi' }).click();
        await page.waitForURL(/\/notices\/[0-9A-Z]{26}$/);
        await page.getByRole('heading', { level: 1, name: 'New campus Wi-Fi' }).waitFor();

        // Nothing found says so.
        await page.goto(`${SITE}/search?q=${encodeURIComponent('zebra crossing')}`);
        await page.getByRole('status').filter({ hasText: 'No results for “zebra crossing”.' }).waitFor();
      },
      { javaScriptEnabled: false, ...PHONE },
    );
  });

  test('axe finds nothing serious on the results page, desktop and phone; printed, only the content', async () => {
    await call('PATCH', '/theme-settings', { themeId: THEME });
    const found = [];
    for (const [name, options] of [['desktop', {}], ['phone', PHONE]]) {
      await withPage(async (page) => {
        for (const path of ['/search?q=campus', '/search?q=campus&kind=faqs', '/search?q=zebra', '/search']) {
          assert.equal((await page.goto(`${SITE}${path}`)).status(), 200, path);
          for (const v of await seriousViolations(page)) found.push(`${name} ${path}: ${v}`);
        }
      }, options);
    }
    assert.deepEqual(found, []);

    await withPage(async (page) => {
      await page.goto(`${SITE}/search?q=campus`);
      await page.emulateMedia({ media: 'print' });
      for (const sel of ['#site-nav', '.site-search', '.site-footer', '.search-form']) {
        assert.equal(await page.locator(sel).first().isVisible(), false, `${sel} printed`);
      }
      assert.ok(await page.getByRole('link', { name: 'New campus Wi-Fi' }).isVisible(), 'the results are printed');
    });
  });
});
