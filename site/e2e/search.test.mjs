// Browser tests of word search against a running server (E2E_BASE_URL): a list finds a page by
// words typed out of order and without their accents; a form's submissions are found by any
// submitted value and shown oldest first on request. The demo tenant is shared with other tests,
// so every record here is named by this run.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loginAndWait, useAdminBrowser } from './helpers.mjs';

const RUN = Date.now().toString(36);

const { withPage, call } = useAdminBrowser({ timeout: 20_000 });

/** rowsText is the text of the rows of the screen's data table. */
const rowsText = (page) => page.locator('table.data-table tbody tr').allInnerTexts();

describe('word search', () => {
  test('the Pages list finds a title by its words in any order, accents left out', async () => {
    const title = `${RUN} Café & Crème: Über — Open Day!!`;
    const created = await call('POST', '/pages', { title });
    try {
      await withPage(async (page) => {
        await loginAndWait(page);
        await page.goto('/pages');
        const box = page.getByPlaceholder('Search by name');
        for (const words of [`day uber ${RUN}`, `${RUN} CAFE crem`]) {
          await box.fill(words);
          // The table shortens long titles: the run's tag leads this one.
          await page.waitForFunction(
            (run) => document.querySelectorAll('table.data-table tbody tr').length === 1 && document.querySelector('table.data-table tbody')?.textContent?.includes(run),
            RUN,
          );
        }
        await box.fill(`night ${RUN}`);
        await page.getByText(/No records|nothing|No .* found/i).first().waitFor();
      });
    } finally {
      await call('DELETE', `/pages/${created.result.id}`);
    }
  });

  test('submissions are found by any value, and shown oldest first on request', async () => {
    const form = await call('POST', '/custom-forms', {
      name: `Search form ${RUN}`,
      status: true,
      image: (await call('GET', '/media?limit=5')).result[0]?.fileUrl,
      fields: JSON.stringify([{ id: 'NEW_1', label: 'Name', fieldType: 'text', required: true }]),
    });
    const formId = form.result.id;
    try {
      for (const name of [`Zoë Adams ${RUN}`, `Bob Stone ${RUN}`, `Ann Zoe-Smith ${RUN}`]) {
        await call('POST', '/custom-form-submissions', { formId, Name: name });
      }
      await withPage(async (page) => {
        await loginAndWait(page);
        await page.goto(`/custom-forms/${formId}/submissions`);
        await page.getByText(`Bob Stone ${RUN}`).waitFor();
        await page.getByPlaceholder('Search submissions').fill(`zoe ${RUN}`);
        await page.waitForFunction(() => document.querySelectorAll('table.data-table tbody tr').length === 2);
        let rows = await rowsText(page);
        assert.match(rows[0], /Ann Zoe-Smith/);
        assert.match(rows[1], /Zoë Adams/);
        await page.getByRole('combobox', { name: 'Order' }).selectOption('asc');
        await page.waitForFunction(() => /Zoë Adams/.test(document.querySelector('table.data-table tbody tr')?.textContent ?? ''));
        rows = await rowsText(page);
        assert.match(rows[1], /Ann Zoe-Smith/);
      });
    } finally {
      await call('DELETE', `/custom-forms/${formId}`);
    }
  });
});
