// Browser tests of the one rule of editors that batch changes (issue 22): nothing reaches the
// server before Save. In the menu builder '+ Add Menu Item' and Delete wait for 'Save All
// Changes' (the new item is on the server and the public site only after it); in the page editor
// 'Delete section' waits for the page's Save. Until then the leave guard counts them as unsaved
// changes. The menu test keeps the demo menu's other items as it finds them (site.test.mjs owns
// its shape), and removes what it adds.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BASE_URL, TENANT, adminToken, apiCall, confirmYes, loginAndWait, useBrowser } from './helpers.mjs';

const RUN = Date.now().toString(36);

let token;
const call = (method, path, body, as = token) => apiCall(method, path, body, as);

const withPage = useBrowser({
  timeout: 20_000,
  beforeAll: async () => {
    token = await adminToken();
  },
});

const menuRow = (page, label) => page.locator(`li[data-menu-item="${label}"]`);

/** labels lists a menu tree's labels, children included. */
const labels = (tree) => tree.flatMap((it) => [it.label, ...labels(it.children ?? [])]);

/** publicMenu is the menu the website shows (the public API's site bundle). */
async function publicMenu() {
  const res = await fetch(`${BASE_URL}/api/v1/public/site?t=${Date.now()}`, { headers: { 'X-Tenant-Id': TENANT } });
  assert.equal(res.status, 200);
  return labels((await res.json()).result.menu ?? []);
}

/** expectLeaveGuard clicks a sidebar link and expects the unsaved-changes question; it answers No. */
async function expectLeaveGuard(page, stayOn) {
  await page.getByRole('link', { name: 'Home', exact: true }).click();
  const ask = page.getByRole('dialog').filter({ hasText: 'You have unsaved changes' });
  await ask.waitFor();
  await ask.getByRole('button', { name: 'No' }).click();
  await ask.waitFor({ state: 'detached' });
  assert.match(page.url(), stayOn);
}

describe('editors that batch changes save them only on Save', () => {
  test('menu: a new item and a delete wait for Save All Changes', async () => {
    const old = `Old ${RUN}`;
    const added = `Added ${RUN}`;
    await call('POST', '/menu-items', { label: old, url: '#', type: 'CUSTOM_URL', status: true });
    const before = await call('GET', '/menu-items');
    try {
      await withPage(async (page) => {
        await loginAndWait(page);
        await page.goto('/menu-items');
        await menuRow(page, old).waitFor();

        // Add: a draft row, selected, nothing sent; leaving asks first.
        const posts = [];
        page.on('request', (r) => {
          if (r.method() !== 'GET' && r.url().includes('/menu-items')) posts.push(`${r.method()} ${r.url()}`);
        });
        await page.getByRole('button', { name: '+ Add Menu Item' }).click();
        const panel = page.getByRole('region', { name: 'Edit menu item' });
        await panel.getByLabel('Label').waitFor();
        assert.equal(await panel.getByLabel('Label').inputValue(), 'Link');
        await page.getByText('You have unsaved changes.').waitFor();
        await expectLeaveGuard(page, /\/menu-items$/);
        await panel.getByLabel('Label').fill(added);
        await menuRow(page, added).waitFor();

        // Delete an item that is on the server: gone from the list, still on the server.
        await page.getByRole('button', { name: `Delete ${old}` }).click();
        await confirmYes(page, 'Do you really want to delete?');
        await menuRow(page, old).waitFor({ state: 'detached' });

        assert.deepEqual(posts, [], 'no write before Save');
        const unsaved = await call('GET', '/menu-items');
        assert.equal(unsaved.version, before.version, 'the menu is unchanged on the server');
        assert.ok(labels(unsaved.result).includes(old));
        assert.ok(!labels(unsaved.result).includes(added));
        const site = await publicMenu();
        assert.ok(site.includes(old) && !site.includes(added), 'the website shows the menu as saved');

        // Save: both take effect, the new item enabled (SPEC §4) and in the draft's place.
        await page.getByRole('button', { name: 'Save All Changes' }).click();
        await page.getByText('Menu Items Updated', { exact: true }).first().waitFor();
        await page.getByText('You have unsaved changes.').waitFor({ state: 'detached' });
        const saved = await call('GET', '/menu-items');
        assert.deepEqual(labels(saved.result), [...labels(before.result).filter((l) => l !== old), added]);
        const item = saved.result.find((it) => it.label === added);
        assert.equal(item.status, true);
        assert.equal(item.url, '#');
        assert.ok((await publicMenu()).includes(added), 'on the website once saved');

        // Saved: nothing left to guard, a reload shows the same.
        await page.reload();
        await menuRow(page, added).waitFor();
        assert.equal(await menuRow(page, old).count(), 0);
        await page.getByRole('link', { name: 'Home', exact: true }).click();
        await page.waitForURL('**/dashboard');
      });
    } finally {
      const now = await call('GET', '/menu-items');
      for (const it of now.result) if (it.label === added || it.label === old) await call('DELETE', `/menu-items/${it.id}`);
    }
  });

  test('menu: an unsaved new item is dropped by Delete without a call, and by leaving', async () => {
    const before = await call('GET', '/menu-items');
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/menu-items');
      await page.getByRole('heading', { name: 'Organize your menu' }).waitFor();
      await page.getByRole('button', { name: '+ Add Menu Item' }).click();
      const panel = page.getByRole('region', { name: 'Edit menu item' });
      await panel.getByLabel('Label').fill(`Dropped ${RUN}`);
      await page.getByRole('button', { name: `Delete Dropped ${RUN}` }).click();
      await confirmYes(page, 'Do you really want to delete?');
      await menuRow(page, `Dropped ${RUN}`).waitFor({ state: 'detached' });
      // Nothing left to save: the draft is the saved menu again.
      await page.getByText('You have unsaved changes.').waitFor({ state: 'detached' });

      await page.getByRole('button', { name: '+ Add Menu Item' }).click();
      await panel.getByLabel('Label').fill(`Left ${RUN}`);
      await page.getByRole('link', { name: 'Home', exact: true }).click();
      const ask = page.getByRole('dialog').filter({ hasText: 'You have unsaved changes' });
      await ask.getByRole('button', { name: 'Yes' }).click();
      await page.waitForURL('**/dashboard');
    });
    const after = await call('GET', '/menu-items');
    assert.equal(after.version, before.version, 'nothing was written');
  });

  test('page editor: Delete section takes effect on the page Save', async () => {
    const types = (await call('GET', '/page-section-types')).result;
    const banner = types.find((t) => t.slug === 'banner');
    const { result: created } = await call('POST', '/pages', { title: `E2E Batch ${RUN}`, description: 'Batch save' });
    const { result: page0 } = await call('GET', `/pages/${created.id}`);
    const config = JSON.stringify([{ id: 'item-a', title: 'Banner item', position: 1 }]);
    await call('PATCH', `/pages/${created.id}`, {
      version: page0.version,
      pageSections: [{ title: 'Keep me', pageSectionTypeId: banner.id, config }],
    });
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto(`/pages/${created.id}`);
      const card = page.locator('section.section-card').first();
      await card.waitFor();
      await card.getByRole('button', { name: 'Delete section' }).click();
      await confirmYes(page, 'Do you really want to delete?');
      await card.waitFor({ state: 'detached' });

      // Not on the server yet; the editor counts it as an unsaved change.
      const unsaved = await call('GET', `/pages/${created.id}`);
      assert.equal(unsaved.result.pageSections.length, 1, 'the section is still saved');
      await page.getByText('Unsaved changes', { exact: true }).first().waitFor();
      await expectLeaveGuard(page, new RegExp(`/pages/${created.id}$`));

      await page.getByRole('button', { name: 'Save', exact: true }).last().click();
      await page.getByText('Page updated successfully!').waitFor();
      const saved = await call('GET', `/pages/${created.id}`);
      assert.equal(saved.result.pageSections.length, 0);
      await page.getByText('Unsaved changes', { exact: true }).waitFor({ state: 'detached' });
    });
    await call('DELETE', `/pages/${created.id}`);
  });
});
