// Browser test of the Plans screen's usage: pages used of the plan's limit and storage used of its
// quota, as bars with text, matching GET /plans' usage.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loginAndWait, useAdminBrowser } from './helpers.mjs';

const { withPage, call } = useAdminBrowser();

describe('plans', () => {
  test('usage bars show pages and storage of the plan', async () => {
    const { usage } = await call('GET', '/plans');
    assert.ok(usage.pages >= 1, 'the demo has pages');
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/plans');
      const panel = page.getByRole('region', { name: 'Usage of your plan' });
      await panel.waitFor();
      const pages = usage.pageLimit > 0 ? `${usage.pages} of ${usage.pageLimit} pages` : `${usage.pages} pages (unlimited)`;
      await panel.getByText(pages).waitFor();
      // Storage has a quota on every plan: its bar's value is the bytes used, its maximum the quota.
      const bar = panel.getByRole('progressbar', { name: /^Storage: .+ of .+$/ });
      await bar.waitFor();
      assert.equal(Number(await bar.getAttribute('max')), usage.mediaLimit);
      assert.equal(Number(await bar.getAttribute('value')), Math.min(usage.mediaBytes, usage.mediaLimit));
      await page.getByRole('listitem', { name: /\(current\)$/ }).waitFor();
    });
  });
});
