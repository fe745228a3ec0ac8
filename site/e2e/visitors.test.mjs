// Browser test of issue 38's page views: a visitor with JavaScript on reads three pages of the
// demo website (one arriving from another site), and the dashboard's Visitors card shows them: the
// chart's bar for today, the numbers under it, the top pages and the referring site. A visitor
// whose browser sends Do Not Track, and the headless browser's own user agent (a bot's), are not
// counted. axe on the dashboard.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { adminToken, apiCall, axeViolations, loginAndWait, useBrowser } from './helpers.mjs';
import { SITE } from './website-theme.mjs';

/** BROWSER_UA is an ordinary desktop Chrome's user agent: the headless shell's says HeadlessChrome, which is not counted. */
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const PAGES = ['/about', '/events', '/staff'];
const REFERRER = 'https://news.example.org/school-open-day';

let token;
const withPage = useBrowser({
  timeout: 20_000,
  beforeAll: async () => {
    token = await adminToken();
  },
});


/** report is GET /visits?days=N as the admin. */
async function report(days) {
  return (await apiCall('GET', `/visits?days=${days}`, undefined, token)).result;
}

const viewsOf = (list, key, value) => list.find((r) => r[key] === value)?.views ?? 0;

/** beaconSent waits until the page has sent its page-view beacon (site.js sends it a second after
 * the page has loaded, when the browser is idle), as the browser's resource timing lists it. */
async function beaconSent(page) {
  await page.waitForFunction(() => performance.getEntriesByName(`${location.origin}/_v`).length > 0, undefined, { timeout: 10_000 });
}

/** waitForViews polls the report until today has want views (the local server counts after answering). */
async function waitForViews(want) {
  const deadline = Date.now() + 15_000;
  let got;
  while (Date.now() < deadline) {
    got = (await report(1)).days[0].views;
    if (got >= want) return got;
    await new Promise((r) => setTimeout(r, 250));
  }
  return got;
}

describe('visitors', () => {
  test('pages read with JavaScript on show on the dashboard chart; DNT and bots are not counted', async () => {
    const before = await report(7);
    const beforeToday = before.days[before.days.length - 1].views;
    const beforeMonth = await report(30);

    // Three pages by an ordinary browser, the first arriving from another site.
    await withPage(
      async (page) => {
        for (const [i, path] of [...PAGES, '/faqs'].entries()) {
          await page.goto(SITE + path, i === 0 ? { referer: REFERRER } : {});
          await page.locator('main h1').first().waitFor();
          await beaconSent(page);
        }
      },
      { userAgent: BROWSER_UA },
    );
    // Not counted: Do Not Track (the header on the beacon), and the headless browser (a bot).
    await withPage(
      async (page) => {
        await page.goto(SITE + '/about');
        await beaconSent(page);
      },
      { userAgent: BROWSER_UA, extraHTTPHeaders: { DNT: '1' } },
    );
    await withPage(async (page) => {
      await page.goto(SITE + '/about');
      await beaconSent(page);
    });

    const want = beforeToday + PAGES.length + 1; // the three pages and /faqs
    assert.equal(await waitForViews(want), want, 'today counts the ordinary browser\'s four page views');
    await new Promise((r) => setTimeout(r, 1000));
    const after = await report(7);
    assert.equal(after.days[after.days.length - 1].views, want, 'nothing more: DNT and the headless browser are not counted');
    // Today in the institution's time zone (Site Settings), as the report counts days.
    const today = after.days[after.days.length - 1].date;
    for (const path of PAGES) {
      assert.equal(viewsOf(after.topPages, 'path', path), viewsOf(before.topPages, 'path', path) + 1, `${path} counted once`);
    }
    const month = await report(30);
    assert.equal(
      viewsOf(month.topReferrers, 'host', 'news.example.org'),
      viewsOf(beforeMonth.topReferrers, 'host', 'news.example.org') + 1,
      'the referring site counted by its host',
    );

    await withPage(async (page) => {
      await loginAndWait(page);
      const card = page.getByRole('region', { name: 'Visitors' });
      await card.waitFor();
      const chart = card.getByRole('img', { name: /Page views per day, last 30 days/ });
      await chart.waitFor();
      // The chart's bar for today, its text alternative and the table under it.
      const bar = card.locator(`rect[data-date="${today}"]`);
      assert.equal(await bar.getAttribute('data-views'), String(want));
      assert.ok(Number(await bar.getAttribute('height')) > 0, "today's bar is drawn");
      const desc = await chart.locator('desc').textContent();
      assert.match(desc, new RegExp(`Today: ${want.toLocaleString('en-US')} views?\\.`));
      await card.getByText('Show the numbers').click();
      const row = card.getByRole('row').filter({ has: page.locator(`time[datetime="${today}"]`) });
      assert.equal((await row.getByRole('cell').textContent()).trim(), want.toLocaleString('en-US'));
      // The top pages of the week list the three pages; the referring site is there by its host.
      const pages = card.getByRole('list', { name: 'Top pages, last 7 days' });
      for (const path of PAGES) await pages.getByRole('link', { name: path, exact: true }).waitFor();
      const sites = card.getByRole('list', { name: 'Top referring sites, last 30 days' });
      await sites.getByText('news.example.org').waitFor();
      // The six counters are still there.
      assert.equal(await page.getByRole('list', { name: 'Statistics' }).getByRole('listitem').count(), 6);
      assert.deepEqual(await axeViolations(page, 'main'), []);
      // A phone: the chart fits and stays accessible.
      await page.setViewportSize({ width: 390, height: 844 });
      const box = await chart.boundingBox();
      assert.ok(box.width <= 390, `the chart fits a phone (${box.width}px)`);
      assert.deepEqual(await axeViolations(page, 'main'), []);
    });
  });
});
