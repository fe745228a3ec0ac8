// Browser test of the Import from WordPress screen (issue 34): the demo admin opens it from the
// navigation, chooses a small WordPress export, Check file (upload with progress, then the dry
// run outside the request), reads what will be imported, Import (confirmed), waits for "Import
// finished", then finds the imported pages in Pages and an old address redirected on the website.
// A file that is not a WordPress export is refused with the message that says how to get one.
// Everything imported is named by the run, and put back afterwards (the menu to its version
// before, the pages, notices and redirects deleted), for the files that run after this one.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { axeViolations, confirmYes, loginAndWait, useAdminBrowser } from './helpers.mjs';
import { SITE } from './website-theme.mjs';

const RUN = Date.now().toString(36);
const HOST = 'https://riverside.invalid';
const ABOUT = `About us ${RUN}`;
const HISTORY = `History ${RUN}`;
const POST = `Sports day ${RUN}`;
const DRAFT = `Draft plans ${RUN}`;
const ABOUT_SLUG = `about-us-${RUN}`;
/** The export's WordPress ids are the run's own: the import keys its records by them. */
const BASE = (Date.now() % 1_000_000) * 100;
const ID = { about: BASE + 2, history: BASE + 3, draft: BASE + 4, post: BASE + 10, image: BASE + 20, menu: BASE + 30 };

const cdata = (s) => `<![CDATA[${s}]]>`;
const meta = (k, v) => `<wp:postmeta><wp:meta_key>${cdata(k)}</wp:meta_key><wp:meta_value>${cdata(v)}</wp:meta_value></wp:postmeta>`;

/** item is one WXR <item>. */
function item({ id, title, link, name, type, status = 'publish', parent = 0, order = 0, content = '', extra = '' }) {
  return `
  <item>
    <title>${cdata(title)}</title>
    <link>${link}</link>
    <pubDate>Fri, 14 Jun 2024 15:30:00 +0000</pubDate>
    <dc:creator>${cdata('head')}</dc:creator>
    <guid isPermaLink="false">${HOST}/?p=${id}</guid>
    <description></description>
    <content:encoded>${cdata(content)}</content:encoded>
    <excerpt:encoded>${cdata('')}</excerpt:encoded>
    <wp:post_id>${id}</wp:post_id>
    <wp:post_date>${cdata('2024-06-14 15:30:00')}</wp:post_date>
    <wp:post_date_gmt>${cdata('2024-06-14 14:30:00')}</wp:post_date_gmt>
    <wp:comment_status>${cdata('closed')}</wp:comment_status>
    <wp:ping_status>${cdata('closed')}</wp:ping_status>
    <wp:post_name>${cdata(name)}</wp:post_name>
    <wp:status>${cdata(status)}</wp:status>
    <wp:post_parent>${parent}</wp:post_parent>
    <wp:menu_order>${order}</wp:menu_order>
    <wp:post_type>${cdata(type)}</wp:post_type>
    <wp:post_password>${cdata('')}</wp:post_password>
    <wp:is_sticky>0</wp:is_sticky>${extra}
  </item>`;
}

/** menuItem is a nav_menu_item of the menu "Main": a page, a post or a custom link. */
function menuItem(id, order, { object, objectId, url = '', title = '' }) {
  const type = object === 'custom' ? 'custom' : 'post_type';
  return item({
    id,
    title,
    link: `${HOST}/?p=${id}`,
    name: String(id),
    type: 'nav_menu_item',
    order,
    extra: `
    <category domain="nav_menu" nicename="main"><![CDATA[Main]]></category>
    ${meta('_menu_item_type', type)}${meta('_menu_item_menu_item_parent', '0')}${meta('_menu_item_object_id', String(objectId))}${meta('_menu_item_object', object)}${meta('_menu_item_url', url)}`,
  });
}

/**
 * WXR is a small export: 2 published pages (History a child of About us), 1 post, 1 draft page,
 * 1 attachment whose file cannot be fetched (.invalid), a menu of 3 items, a [gallery] and an
 * unknown shortcode.
 */
const WXR = `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0"
  xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/"
  xmlns:content="http://purl.org/rss/1.0/modules/content/"
  xmlns:wfw="http://wellformedweb.org/CommentAPI/"
  xmlns:dc="http://purl.org/dc/elements/1.1/"
  xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
  <title>Riverside ${RUN}</title>
  <link>${HOST}</link>
  <description>Learning together by the river</description>
  <language>en-GB</language>
  <wp:wxr_version>1.2</wp:wxr_version>
  <wp:base_site_url>${HOST}</wp:base_site_url>
  <wp:base_blog_url>${HOST}</wp:base_blog_url>
  <wp:author><wp:author_id>1</wp:author_id><wp:author_login>${cdata('head')}</wp:author_login><wp:author_email>${cdata('head@riverside.invalid')}</wp:author_email><wp:author_display_name>${cdata('The Head')}</wp:author_display_name><wp:author_first_name>${cdata('')}</wp:author_first_name><wp:author_last_name>${cdata('')}</wp:author_last_name></wp:author>
  <wp:term><wp:term_id>6</wp:term_id><wp:term_taxonomy>${cdata('nav_menu')}</wp:term_taxonomy><wp:term_slug>${cdata('main')}</wp:term_slug><wp:term_name>${cdata('Main')}</wp:term_name></wp:term>
  <generator>https://wordpress.org/?v=6.5.3</generator>
${item({
  id: ID.about,
  title: ABOUT,
  link: `${HOST}/${ABOUT_SLUG}/`,
  name: ABOUT_SLUG,
  type: 'page',
  order: 1,
  content: `Riverside Primary is a community school ${RUN}.\n\nWe have <strong>320 pupils</strong>.\n\n[contact-form-7 id="5" title="Contact"]`,
})}
${item({
  id: ID.history,
  title: HISTORY,
  link: `${HOST}/${ABOUT_SLUG}/history/`,
  name: 'history',
  type: 'page',
  parent: ID.about,
  order: 2,
  content: `The school opened in 1898.\n\n[gallery ids="${ID.image}"]\n\nBack to <a href="/?page_id=${ID.about}">About us</a>.`,
})}
${item({ id: ID.draft, title: DRAFT, link: `${HOST}/?page_id=${ID.draft}`, name: `draft-plans-${RUN}`, type: 'page', status: 'draft', content: 'Not yet.' })}
${item({
  id: ID.post,
  title: POST,
  link: `${HOST}/2024/06/14/sports-day-${RUN}/`,
  name: `sports-day-${RUN}`,
  type: 'post',
  content: `The relay was won by Year 6.\n\n<img src="${HOST}/wp-content/uploads/2020/01/a.jpg" alt="The relay" />`,
  extra: `\n    <category domain="category" nicename="news"><![CDATA[News]]></category>`,
})}
${item({
  id: ID.image,
  title: 'Relay',
  link: `${HOST}/relay/`,
  name: 'relay',
  type: 'attachment',
  status: 'inherit',
  extra: `
    <wp:attachment_url>${cdata(`${HOST}/wp-content/uploads/2020/01/a.jpg`)}</wp:attachment_url>
    ${meta('_wp_attached_file', '2020/01/a.jpg')}${meta('_wp_attachment_image_alt', 'Children running the relay')}`,
})}
${menuItem(ID.menu, 1, { object: 'page', objectId: ID.about })}
${menuItem(ID.menu + 1, 2, { object: 'post', objectId: ID.post })}
${menuItem(ID.menu + 2, 3, { object: 'custom', objectId: ID.menu + 2, url: 'https://example.org/', title: `Partner ${RUN}` })}
</channel>
</rss>
`;

const NOT_WXR_MESSAGE = 'This file is not a WordPress export. In WordPress, use Tools → Export → All content, and upload the .xml file it downloads.';

const { withPage, call } = useAdminBrowser({ timeout: 20_000 });

/** cleanup puts the demo back, in order: the menu as it was (first: it links the imported pages), then what the import made deleted. */
const cleanup = [];
after(async () => {
  for (const undo of cleanup) await undo().catch((err) => console.error('cleanup:', err.message));
});

/** records lists a collection's records whose text field holds needle. */
async function records(collection, field, needle) {
  const { result } = await call('GET', `/${collection}?limit=50&search=${encodeURIComponent(needle)}`);
  return (result ?? []).filter((r) => String(r[field] ?? '').includes(needle));
}

/**
 * watchRun records, from inside the page, every progress bar shown (label, value, maximum) and
 * every text the screen's live region took, in order.
 */
async function watchRun(page) {
  await page.evaluate(() => {
    window.__bars = [];
    window.__said = [];
    const status = document.querySelector('.wp-import > [role="status"]');
    const check = () => {
      for (const el of document.querySelectorAll('.wp-import [role="progressbar"]')) {
        const seen = [el.getAttribute('aria-label'), el.getAttribute('aria-valuenow'), el.getAttribute('aria-valuemax')].join(' ');
        if (window.__bars.at(-1) !== seen) window.__bars.push(seen);
      }
      const text = status?.textContent ?? '';
      if (text && window.__said.at(-1) !== text) window.__said.push(text);
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}

/** chooseExport puts a file in the screen's file input. */
async function chooseExport(page, name, text, mimeType = 'text/xml') {
  await page.getByLabel('WordPress export file (.xml)').setInputFiles({ name, mimeType, buffer: Buffer.from(text) });
}

describe('import from WordPress', () => {
  test('check a WordPress export, read the report, import it, find its pages and its old addresses redirected', { timeout: 180_000 }, async () => {
    const menuBefore = await call('GET', '/menu-items');
    cleanup.push(async () => {
      const now = await call('GET', '/menu-items');
      if (now.version !== menuBefore.version) await call('POST', `/menu-items/versions/${menuBefore.version}/restore`, { version: now.version });
    });
    cleanup.push(async () => {
      // The import's redirects: from the old permalinks (which hold the run's name) and from
      // /?p= and /?page_id= of the run's WordPress ids.
      const ours = new Set(Object.values(ID).flatMap((id) => [`/?p=${id}`, `/?page_id=${id}`]));
      for (let n = 1; n <= 10; n++) {
        const { result = [] } = await call('GET', `/redirects?limit=100&page=${n}`);
        for (const r of result) if (String(r.fromPath).includes(RUN) || ours.has(r.fromPath)) await call('DELETE', `/redirects/${r.id}`);
        if (result.length < 100) break;
      }
      for (const collection of ['pages', 'notices']) {
        for (const r of await records(collection, 'title', RUN)) await call('DELETE', `/${collection}/${r.id}`);
      }
    });

    await withPage(async (page) => {
      await loginAndWait(page);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import from WordPress' }).click();
      await page.waitForURL('**/import');
      await page.getByRole('heading', { level: 1, name: 'Import from WordPress' }).waitFor();
      await page.getByText('In WordPress, go to Tools → Export, choose All content, and download the export file.').waitFor();

      await chooseExport(page, `riverside-${RUN}.xml`, WXR);
      await watchRun(page);
      const uploaded = page.waitForResponse((r) => r.request().method() === 'POST' && /\/wordpress-imports\/[^/]+\/check$/.test(r.url()));
      await page.getByRole('button', { name: 'Check file' }).click();
      const checkRes = await uploaded;
      assert.equal(checkRes.status(), 202, await checkRes.text());

      const job = page.getByRole('region', { name: `riverside-${RUN}.xml` });
      const report = job.getByRole('region', { name: 'What will be imported' });
      await report.waitFor({ timeout: 60_000 });
      const text = await report.innerText();
      for (const want of ['pages: 2 new', 'notices: 1 new', 'menu items: 3 new', '1 draft page', '[contact-form-7] in the page', 'gallery', `${HOST}/wp-content/uploads/2020/01/a.jpg`]) {
        assert.ok(text.includes(want), `the check's report says ${JSON.stringify(want)}:\n${text}`);
      }
      assert.ok(await report.getByRole('heading', { level: 5 }).count() >= 2, 'each section of the report has its heading');
      // Nothing is written by the check.
      assert.equal((await records('pages', 'title', RUN)).length, 0, 'the check wrote no page');

      await job.getByRole('button', { name: 'Import' }).click();
      await confirmYes(page, 'Import this site? Existing pages with the same addresses keep theirs; the menu is replaced (the old one stays in its history).');
      await job.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 120_000 });
      const done = await job.getByRole('region', { name: 'Import finished' }).innerText();
      assert.ok(done.includes('pages: 2 new') && done.includes('redirects:'), `the import's report:\n${done}`);
      assert.equal(await page.getByRole('status').filter({ hasText: 'Import finished.' }).count(), 1, 'the end is announced once');

      // The upload and both runs showed a progress bar (this export is too small for a run's bar to
      // be caught between none and done); the live region said each step once.
      const bars = await page.evaluate(() => window.__bars);
      for (const label of ['Upload progress', 'Check progress', 'Import progress']) {
        assert.ok(bars.some((b) => b.startsWith(label)), `a bar "${label}" was shown: ${JSON.stringify(bars)}`);
      }
      assert.ok(bars.includes('Upload progress 100 100'), `the upload reached 100%: ${JSON.stringify(bars)}`);
      const said = await page.evaluate(() => window.__said);
      assert.equal(said[0], 'Uploading the file.', JSON.stringify(said));
      assert.ok(said.some((t) => t.startsWith('Checking the file: ')), JSON.stringify(said));
      assert.ok(said.includes('Check finished. See what will be imported below.'), JSON.stringify(said));
      assert.ok(said.some((t) => t.startsWith('Importing: ')), JSON.stringify(said));
      assert.equal(said.at(-1), 'Import finished.', JSON.stringify(said));
      assert.deepEqual(await axeViolations(page, '.wp-import'), [], 'axe finds nothing serious on the screen with its report');

      // The recent imports list it as imported.
      const row = page.getByRole('row', { name: new RegExp(`riverside-${RUN}\\.xml`) });
      await row.getByText('Imported', { exact: true }).waitFor();

      // Pages lists the imported titles.
      await job.getByRole('link', { name: 'Pages' }).click();
      await page.waitForURL('**/pages');
      await page.getByRole('heading', { level: 1, name: 'Pages' }).waitFor();
      await page.getByText(ABOUT, { exact: true }).first().waitFor();
      await page.getByText(HISTORY, { exact: true }).first().waitFor();
    });

    // The old address of the child page is redirected (301) to where it now lives.
    const [history] = await records('pages', 'title', HISTORY);
    assert.ok(history, 'the child page was imported');
    assert.ok(String(history.slug).includes('history'), `the child page's slug keeps its name: ${history.slug}`);
    await withPage(async (page) => {
      const res = await page.goto(`${SITE}/${ABOUT_SLUG}/history/`);
      const first = res.request().redirectedFrom();
      assert.ok(first, `the old address was redirected (landed on ${page.url()} with ${res.status()})`);
      assert.equal((await first.response()).status(), 301);
      assert.equal(new URL(page.url()).pathname.replace(/\/$/, ''), `/${history.slug}`);
      assert.equal(res.status(), 200);
      await page.getByRole('heading', { name: HISTORY }).first().waitFor();
    });
  });

  test('the imported pages and notice pass axe in every theme', { timeout: 120_000 }, async () => {
    const [history] = await records('pages', 'title', HISTORY);
    const [post] = await records('notices', 'title', POST);
    assert.ok(history && post, 'the import of the first test is there');
    const before = (await call('GET', '/theme-settings')).result?.themeId ?? 'classic';
    try {
      await withPage(async (page) => {
        for (const themeId of ['classic', 'modern', 'minimal', 'vibrant', 'campus']) {
          await call('PATCH', '/theme-settings', { themeId });
          for (const path of [`/${history.slug}`, `/notices/${post.id}`]) {
            // A theme switch reaches the site once its cached page expires: ask past the cache.
            const res = await page.goto(`${SITE}${path}?theme=${themeId}`);
            assert.equal(res.status(), 200, `${path} in ${themeId}`);
            await page.locator(`html.theme-${themeId}`).waitFor({ state: 'attached' });
            assert.deepEqual(await axeViolations(page, 'body'), [], `axe on ${path} in theme ${themeId}`);
          }
        }
      });
    } finally {
      await call('PATCH', '/theme-settings', { themeId: before });
    }
  });

  test('a file that is not a WordPress export is refused with how to export one', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/import');
      await page.getByRole('heading', { level: 1, name: 'Import from WordPress' }).waitFor();
      await chooseExport(page, `notes-${RUN}.xml`, 'Dear parents, the school is closed on Monday.\n', 'text/plain');
      // By keyboard: the file input, then Tab to Check file and Enter.
      await page.getByLabel('WordPress export file (.xml)').focus();
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Check file');
      await page.keyboard.press('Enter');
      await page.getByRole('alert').filter({ hasText: NOT_WXR_MESSAGE }).waitFor();
      assert.ok(await page.getByLabel('WordPress export file (.xml)').isEnabled(), 'another file can be chosen');

      // XML that is no export gets past the first look, and its check stops saying why.
      await chooseExport(page, `page-${RUN}.xml`, '<?xml version="1.0"?>\n<html><body><p>Welcome</p></body></html>\n');
      await page.getByRole('button', { name: 'Check file' }).click();
      const job = page.getByRole('region', { name: `page-${RUN}.xml` });
      await job.getByRole('alert').filter({ hasText: 'The check stopped' }).filter({ hasText: 'not a WordPress export' }).waitFor({ timeout: 30_000 });
      await job.getByRole('button', { name: 'Check file again' }).waitFor();
      await page.getByRole('row', { name: new RegExp(`page-${RUN}\\.xml`) }).getByText('Check failed', { exact: true }).waitFor();
    });
  });
});
