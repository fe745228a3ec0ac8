// Browser tests of the audit log: a change made by the admin is found by user, action and date,
// and the filtered log is exported as CSV.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { ADMIN_USER, adminToken, apiCall, loginAndWait, useBrowser } from './helpers.mjs';

const RUN = Date.now().toString(36);
let token;
const call = (method, path, body, as = token) => apiCall(method, path, body, as);

const withPage = useBrowser({
  beforeAll: async () => {
    token = await adminToken();
  },
});

describe('audit log', () => {
  test('find a change by user, action and date, and export it', async () => {
    const faq = (await call('POST', '/faqs', { question: `Audited ${RUN}`, answer: 'A', status: true })).result;
    await call('PATCH', `/faqs/${faq.id}`, { answer: 'B', version: 1 });
    const me = (await call('GET', '/auth/me')).result;
    const today = new Date().toISOString().slice(0, 10);
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/audit-log');
      await page.getByRole('heading', { name: 'Audit Log' }).waitFor();
      await page.getByLabel('User', { exact: true }).selectOption(me.id);
      await page.getByLabel('What', { exact: true }).selectOption('faqs');
      await page.getByLabel('Action', { exact: true }).selectOption('update');
      await page.getByLabel('From', { exact: true }).fill(today);
      await page.getByLabel('To', { exact: true }).fill(today);
      await page.getByRole('button', { name: 'Apply' }).click();
      const table = page.getByRole('table', { name: 'Audit log entries' });
      // The filtered page replaces the first one: every row is then an edit of a FAQ by the admin.
      await page.waitForFunction(() => {
        const rows = [...document.querySelectorAll('table[aria-label="Audit log entries"] tbody tr')];
        return rows.length > 0 && rows.every((r) => r.cells[2].textContent.startsWith('Edited FAQ'));
      });
      await table.getByText(`Edited FAQ ${faq.id} (Answer)`).waitFor();

      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      const csv = await readFile(await file.path(), 'utf8');
      assert.match(csv.split('\n')[0], /^When,User,Action,Collection,Record,Changed fields/);
      assert.match(csv, new RegExp(`,${ADMIN_USER},update,faqs,${faq.id},answer,`));
    });
    await call('DELETE', `/faqs/${faq.id}`);
  });
});
