// Browser tests of version history: a record edited twice shows both kept versions (who, which
// fields), compares one with now field by field, and restores it; the page editor and a
// settings screen offer the same panel.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { adminToken, apiCall, confirmYes, loginAndWait, useBrowser } from './helpers.mjs';

const RUN = Date.now().toString(36);
let token;
const call = (method, path, body, as = token) => apiCall(method, path, body, as);

const withPage = useBrowser({
  beforeAll: async () => {
    token = await adminToken();
  },
});


describe('version history', () => {
  test('a FAQ edited twice: compare the first version, restore it', async () => {
    const question = `history-${RUN}`;
    const created = await call('POST', '/faqs', { question, answer: 'First answer', status: true });
    const id = created.result.id;
    await call('PATCH', `/faqs/${id}`, { answer: 'Second answer', version: 1 });
    await call('PATCH', `/faqs/${id}`, { answer: 'Third answer', position: 7, version: 2 });

    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/faqs');
      await page.getByPlaceholder('Search by name').fill(question);
      await page.locator('tbody tr', { hasText: question }).getByRole('button', { name: 'Edit' }).click();
      const form = page.getByRole('dialog').filter({ has: page.locator('form') });
      await form.getByRole('button', { name: 'History' }).click();
      const history = form.getByRole('region', { name: 'History' });
      await history.getByText('Version 2').waitFor();
      await history.getByText(/changed Answer, Position by admin/).waitFor();
      await history.getByText(/Version 1.*changed Answer by admin/).waitFor();

      const v1 = history.locator('li', { hasText: 'Version 1' });
      await v1.getByRole('button', { name: 'Compare' }).click();
      const table = v1.getByRole('table');
      await table.getByText('Version 1 compared with now: 2 fields differ').waitFor();
      const answerRow = table.getByRole('row', { name: /Answer/ });
      assert.match(await answerRow.textContent(), /First answer.*Third answer/);

      await v1.getByRole('button', { name: 'Restore' }).click();
      await confirmYes(page, 'Restore version 1?');
      await page.getByText('FAQ restored to version 1!').first().waitFor();
      await page.waitForFunction(() => document.querySelector('textarea[name="answer"], input[name="answer"]')?.value === 'First answer');
      // The restore is itself kept: the state it replaced is version 3.
      await history.getByText(/Version 3.*restored version 1/).waitFor();
    });
    const now = await call('GET', `/faqs/${id}`);
    assert.equal(now.result.answer, 'First answer');
    assert.equal(now.result.version, 4);
  });

  test('the page editor and a settings screen offer their history', async () => {
    const page1 = (await call('POST', '/pages', { title: `History page ${RUN}` })).result;
    await call('PATCH', `/pages/${page1.id}`, { description: 'Changed once', version: 1 });
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto(`/pages/${page1.id}`);
      await page.getByRole('button', { name: 'History' }).click();
      await page.getByRole('region', { name: 'History' }).getByText(/Version 1.*changed Description/).waitFor();

      await page.goto('/footer');
      await page.getByRole('button', { name: 'History' }).click();
      // The demo's footer was saved by the seed (its defaults are version 1).
      await page.getByRole('region', { name: 'History' }).getByText(/Version 1/).waitFor();
    });
    await call('DELETE', `/pages/${page1.id}`);
  });

  test('the menu: a save keeps the tree it replaced; compare and restore it', async () => {
    const before = await call('GET', '/menu-items');
    const label = `History link ${RUN}`;
    const emptied = await call('PATCH', '/menu-items', { menuItems: [], version: before.version });
    await call('POST', '/menu-items', { label, url: '/x', type: 'CUSTOM_URL', status: true });
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/menu-items');
      await page.getByRole('heading', { name: 'Organize your menu' }).waitFor();
      // The demo menu has an item called History too: the panel's own button.
      await page.getByRole('region', { name: 'History' }).getByRole('button', { name: 'History', exact: true }).click();
      const history = page.getByRole('region', { name: 'History' });
      const kept = history.locator('li', { hasText: `Version ${before.version}` });
      await kept.getByRole('button', { name: 'Compare' }).click();
      await kept.getByRole('table').getByText(label).waitFor();
      await kept.getByRole('button', { name: 'Restore' }).click();
      await confirmYes(page, `Restore version ${before.version}?`);
      await page.getByText(`Menu restored to version ${before.version}!`).first().waitFor();
    });
    const after = await call('GET', '/menu-items');
    assert.equal(after.version, emptied.version + 2);
    assert.deepEqual(
      after.result.map((i) => i.label),
      before.result.map((i) => i.label),
    );
  });
});
