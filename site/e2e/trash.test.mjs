// Browser tests of the trash against a running server (E2E_BASE_URL): a page with a section is
// deleted in the panel and leaves the Pages list, the public API and the website; the Trash screen
// lists it and restores it whole (section, live again). A media file deleted in the library stops
// being served and is served again once restored. Delete forever removes an entry for good. The
// demo tenant is shared with other tests, so every record here is named by this run.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BASE_URL, TENANT, adminToken, apiCall, axeViolations, confirmYes, loginAndWait, png, useBrowser, describeImage } from './helpers.mjs';

const RUN = Date.now().toString(36);
const PORT = new URL(BASE_URL).port || '80';
/** SITE is the demo tenant's website: Chromium resolves every *.localhost name to loopback. */
const SITE = `http://${TENANT}.localhost:${PORT}`;
const PUBLIC = `${BASE_URL}/api/v1/public`;

let token;
const call = (method, path, body, as = token) => apiCall(method, path, body, as);

const withPage = useBrowser({
  timeout: 20_000,
  beforeAll: async () => {
    token = await adminToken();
  },
});

/** status is the HTTP status of a GET (no cache in between, like the origin). */
async function status(url, headers = {}) {
  const res = await fetch(`${url}${url.includes('?') ? '&' : '?'}t=${Date.now()}`, { headers });
  await res.arrayBuffer();
  return res.status;
}
const publicPage = (slug) => status(`${PUBLIC}/pages/${slug}`, { 'X-Tenant-Id': TENANT });

/** apiStatus is the status of an authenticated tenant API GET. */
async function apiStatus(path) {
  const res = await fetch(`${BASE_URL}/api/v1/tenant${path}`, { headers: { 'X-Tenant-Id': TENANT, Authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return res.status;
}

/** inTrash lists the trash entries of kind with id (through the API). */
async function inTrash(kind, id) {
  const res = await call('GET', `/trash?kind=${kind}&limit=100`);
  return res.result.filter((e) => e.id === id);
}

/**
 * discard deletes a record of kind (a collection key or media) and then its trash entry, so this
 * file leaves nothing behind in the shared tenant's trash; a record already gone is skipped.
 */
async function discard(kind, id) {
  await call('DELETE', `/${kind}/${id}`).catch(() => {});
  for (const e of await inTrash(kind, id)) await call('DELETE', `/trash/${kind}/${id}/${e.version}`);
}

/** openTrash goes to the Trash screen through the sidebar and narrows it to kind. */
async function openTrash(page, kindLabel) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trash' }).click();
  await page.waitForURL('**/trash');
  await page.getByRole('heading', { level: 1, name: 'Trash' }).waitFor();
  if (kindLabel) await page.getByLabel('Kind', { exact: true }).selectOption({ label: kindLabel });
  return page.getByRole('table', { name: 'Trash' });
}

describe('trash', () => {
  test('a page with a section: delete it in the panel, gone everywhere; restore it from the Trash, back whole and live', async () => {
    const title = `Trash page ${RUN}`;
    const slug = `trash-page-${RUN}`;
    const types = (await call('GET', '/page-section-types')).result;
    const banner = types.find((t) => t.slug === 'banner');
    assert.ok(banner, 'the banner section type exists');
    const created = await call('POST', '/pages', {
      title,
      slug,
      description: 'Deleted and restored by the browser test',
      isPublished: true,
      status: true,
      pageSections: [{ title: 'Welcome back', pageSectionTypeId: banner.id, config: [{ title: 'Hello again' }] }],
    });
    const id = created.result.id;
    assert.equal(created.result.slug, slug);
    assert.equal(await publicPage(slug), 200);

    await withPage(async (page) => {
      await loginAndWait(page);
      const live = await page.goto(`${SITE}/${slug}?t=${Date.now()}`);
      assert.equal(live.status(), 200);

      // Delete it in the Pages list.
      await page.goto('/pages');
      await page.getByPlaceholder('Search by name').fill(title);
      const row = page.locator('tbody tr', { hasText: title });
      await row.getByRole('button', { name: 'Delete' }).click();
      await confirmYes(page, 'Do you really want to delete?');
      await row.waitFor({ state: 'detached' });

      // Gone from the panel's API, the public API and the website.
      assert.equal(await apiStatus(`/pages/${id}`), 404);
      assert.equal(await publicPage(slug), 404);
      const gone = await page.goto(`${SITE}/${slug}?t=${Date.now()}`);
      assert.equal(gone.status(), 404);

      // The Trash lists it: what, kind, by whom, when and until when.
      await page.goto('/dashboard');
      const table = await openTrash(page, 'Pages');
      const entry = table.getByRole('row').filter({ hasText: title });
      await entry.waitFor();
      const cells = await entry.getByRole('cell').allInnerTexts();
      assert.equal(cells[0], title);
      assert.equal(cells[1], 'Page');
      assert.equal(cells[2], 'admin');
      assert.match(cells[3], /^[A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M$/);
      assert.match(cells[4], /^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
      const purgedOn = new Date(cells[4]);
      const days = (purgedOn.getTime() - Date.now()) / 86_400_000;
      assert.ok(days > 28 && days < 31, `deleted forever in ${days} days`);

      // Nothing serious for axe on the Trash screen, with rows and with the dialog open.
      assert.deepEqual(await axeViolations(page, '#main'), []);
      await entry.getByRole('button', { name: /^Delete forever/ }).click();
      const dialog = page.getByRole('dialog').filter({ hasText: `Delete Page "${title}" forever? This cannot be undone.` });
      await dialog.waitFor();
      assert.deepEqual(await axeViolations(page, '.modal'), []);
      // No keeps it: the dialog closes on Escape and the entry stays.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await entry.waitFor();

      // Restore, by keyboard: the server's message as the toast, the row leaves the list.
      const restore = entry.getByRole('button', { name: /^Restore/ });
      await restore.focus();
      await page.keyboard.press('Enter');
      await page.getByText('Page restored from the trash!').first().waitFor();
      await entry.waitFor({ state: 'detached' });
      assert.deepEqual(await inTrash('pages', id), []);

      // Back in the Pages list (the SPA's cached list was refreshed) and in the editor with its section.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pages', exact: true }).click();
      await page.getByPlaceholder('Search by name').fill(title);
      await page.locator('tbody tr', { hasText: title }).waitFor();
      await page.goto(`/pages/${id}`);
      await page.getByRole('form', { name: 'Edit Page' }).waitFor();
      const section = page.locator('section.section-card');
      await section.first().waitFor();
      assert.equal(await section.count(), 1);
      assert.equal(await section.first().getByLabel('Section title').inputValue(), 'Welcome back');

      // Live again on the public API and the website, under its own slug.
      assert.equal(await publicPage(slug), 200);
      const again = await page.goto(`${SITE}/${slug}?t=${Date.now()}`);
      assert.equal(again.status(), 200);
      await page.getByRole('heading', { name: title }).first().waitFor();
    });
    const back = (await call('GET', `/pages/${id}`)).result;
    assert.equal(back.slug, slug);
    assert.deepEqual(
      back.pageSections.map((s) => s.title),
      ['Welcome back'],
    );
    await discard('pages', id);
  });

  test('a media file: deleted in the library it is no longer served; restored from the Trash it is served again', async () => {
    const name = `e2e-trash-${RUN}.png`;
    const image = png(30_000);
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/media');
      await page.getByRole('heading', { level: 1, name: 'Media Library' }).waitFor();
      await page.getByLabel('Choose a file').setInputFiles({ name, mimeType: 'image/png', buffer: image });
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.getByText('File Uploaded successfully!').waitFor();
      await describeImage(page, 'A photo for the trash');

      const found = (await call('GET', `/media?search=${encodeURIComponent(`e2e-trash-${RUN}`)}&limit=5`)).result;
      assert.equal(found.length, 1);
      const media = found[0];
      const link = `${BASE_URL}/media/${TENANT}/${media.fileUrl}`;
      assert.equal(await status(link), 200);

      await page.getByPlaceholder('Search by name').fill(`e2e-trash-${RUN}`);
      const card = page.locator('.media-card', { has: page.locator(`[title="${name}"]`) });
      await card.getByRole('button', { name: /^Delete/ }).click();
      await confirmYes(page, 'Are you sure to delete?');
      await page.getByText('Media Deleted').first().waitFor();
      await card.waitFor({ state: 'detached' });
      assert.equal(await status(link), 404);

      const table = await openTrash(page, 'Media');
      const entry = table.getByRole('row').filter({ hasText: name });
      assert.equal((await entry.getByRole('cell').nth(1).innerText()).trim(), 'Media');
      await entry.getByRole('button', { name: /^Restore/ }).click();
      await page.getByText('Media restored from the trash!').first().waitFor();
      await entry.waitFor({ state: 'detached' });
      assert.equal(await status(link), 200);
      const served = await fetch(link);
      assert.equal(served.headers.get('content-type'), 'image/png');
      assert.equal((await served.arrayBuffer()).byteLength, image.length);

      // Back in the library.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Media Library' }).click();
      await page.getByPlaceholder('Search by name').fill(`e2e-trash-${RUN}`);
      await card.waitFor();
    });
    await discard('media', found0(await call('GET', `/media?search=${encodeURIComponent(`e2e-trash-${RUN}`)}&limit=5`)));
  });

  test('Delete forever: asks, naming the item, then the entry is gone for good', async () => {
    const question = `Trash forever ${RUN}?`;
    const faq = (await call('POST', '/faqs', { question, answer: 'Soon gone', status: true })).result;
    await call('DELETE', `/faqs/${faq.id}`);
    const [kept] = await inTrash('faqs', faq.id);
    assert.ok(kept, 'the deleted FAQ is in the trash');

    await withPage(async (page) => {
      await loginAndWait(page);
      const table = await openTrash(page, 'FAQs');
      const entry = table.getByRole('row').filter({ hasText: question });
      await entry.getByRole('button', { name: /^Delete forever/ }).click();
      await confirmYes(page, `Delete FAQ "${question}" forever? This cannot be undone.`);
      await page.getByText('Deleted forever.').first().waitFor();
      await entry.waitFor({ state: 'detached' });

      // Still gone after a reload, and not restorable.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Trash' }).waitFor();
      await page.getByLabel('Kind', { exact: true }).selectOption({ label: 'FAQs' });
      await page.waitForFunction(() => !document.querySelector('[role="status"][aria-label="Loading the trash"]'));
      assert.equal(await page.getByText(question).count(), 0);
    });
    assert.deepEqual(await inTrash('faqs', faq.id), []);
    const res = await fetch(`${BASE_URL}/api/v1/tenant/trash/faqs/${faq.id}/${kept.version}/restore`, {
      method: 'POST',
      headers: { 'X-Tenant-Id': TENANT, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(res.status, 404);
    assert.equal((await res.json()).message, 'This item is no longer in the trash.');
    assert.equal(await apiStatus(`/faqs/${faq.id}`), 404);
  });

  test('rights: the Trash lists only kinds one may view; Restore needs the kind\'s VIEW and CREATE rights, Delete forever its DELETE right; no CMS_VIEW_TRASH, no Trash', async () => {
    const password = 'Trash-pass-42';
    const restorerRole = await call('POST', '/roles', { name: `Trash restorer ${RUN}`, permissionIds: ['CMS_VIEW_TRASH', 'CMS_VIEW_FAQ', 'CMS_CREATE_FAQ'], status: true });
    const restorer = `trash-restorer-${RUN}`;
    await call('POST', '/users', { firstName: 'Trash', lastName: 'Restorer', username: restorer, password, roleId: restorerRole.result.id, status: true });
    const viewerRole = await call('POST', '/roles', { name: `Trash outsider ${RUN}`, permissionIds: ['CMS_VIEW_FAQ'], status: true });
    const outsider = `trash-outsider-${RUN}`;
    await call('POST', '/users', { firstName: 'Trash', lastName: 'Outsider', username: outsider, password, roleId: viewerRole.result.id, status: true });
    const question = `Trash rights ${RUN}?`;
    const faq = (await call('POST', '/faqs', { question, answer: 'x', status: true })).result;
    await call('DELETE', `/faqs/${faq.id}`);
    const pageTitle = `Trash rights page ${RUN}`;
    const pg = (await call('POST', '/pages', { title: pageTitle })).result;
    await call('DELETE', `/pages/${pg.id}`);

    await withPage(async (page) => {
      await loginAndWait(page, { username: restorer, password });
      // The login answer carries the user's own permissions only (not the role's; /auth/me has
      // both), so the signed-in shell learns the role's rights on the next load.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      // Every kind at once: the FAQ is there, the page (pages are not the restorer's to view) not.
      const table = await openTrash(page);
      const faqRow = table.getByRole('row').filter({ hasText: question });
      await faqRow.waitFor();
      assert.equal(await table.getByRole('row').filter({ hasText: pageTitle }).count(), 0);
      await page.getByLabel('Kind', { exact: true }).selectOption({ label: 'FAQs' });
      await faqRow.waitFor();
      assert.equal(await faqRow.getByRole('button', { name: /^Restore/ }).count(), 1);
      assert.equal(await faqRow.getByRole('button', { name: /^Delete forever/ }).count(), 0);
      await faqRow.getByRole('button', { name: /^Restore/ }).click();
      await page.getByText('FAQ restored from the trash!').first().waitFor();
      await faqRow.waitFor({ state: 'detached' });
    });
    await withPage(async (page) => {
      await loginAndWait(page, { username: outsider, password });
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      assert.equal(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trash' }).count(), 0);
      await page.goto('/trash');
      assert.equal(await page.getByRole('table', { name: 'Trash' }).count(), 0);
      await page.getByRole('heading', { level: 2, name: 'Page not found' }).waitFor();
    });
    assert.equal((await call('GET', `/faqs/${faq.id}`)).result.question, question);
    await discard('faqs', faq.id);
    await discard('pages', pg.id);
  });

  test(
    'Load more: a trash longer than a page is read a page at a time',
    async () => {
      const prefix = `Trash paging ${RUN}`;
      const ids = [];
      try {
        for (let i = 0; i < 21; i++) {
          const faq = (await call('POST', '/faqs', { question: `${prefix} ${String(i).padStart(2, '0')}?`, answer: 'x', status: true })).result;
          await call('DELETE', `/faqs/${faq.id}`);
          ids.push(faq.id);
        }
        await withPage(async (page) => {
          await loginAndWait(page);
          const table = await openTrash(page, 'FAQs');
          const ours = table.getByRole('row').filter({ hasText: prefix });
          await ours.first().waitFor();
          // A page is 20 entries, newest first: the first one deleted is on the next page.
          assert.equal(await ours.count(), 20);
          assert.equal(await table.getByRole('row').filter({ hasText: `${prefix} 00?` }).count(), 0);
          await page.getByRole('button', { name: 'Load more' }).click();
          await table.getByRole('row').filter({ hasText: `${prefix} 00?` }).waitFor();
          assert.equal(await ours.count(), 21);
        });
      } finally {
        for (const id of ids) await discard('faqs', id);
      }
    },
  );
});

/** found0 is the id of the only media item of a search answer. */
function found0(res) {
  assert.equal(res.result.length, 1);
  return res.result[0].id;
}
