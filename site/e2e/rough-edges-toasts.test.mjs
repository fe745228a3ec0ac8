// Browser tests of issue 22, item 11 (toasts in the way) against a running server (E2E_BASE_URL):
// a toast never covers the header bar or a screen's Save, so Save can be pressed again at once,
// and an error toast is replaced by the next outcome instead of lingering beside it. Failed
// saves are injected with page.route.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loginAndWait, useAdminBrowser } from './helpers.mjs';

const RUN = Date.now().toString(36);
const DOWN = 'Saving is down for a moment.';

const { withPage, call } = useAdminBrowser({ timeout: 20_000 });

/** failSaves makes PATCHes of the tenant API path answer 500 with DOWN until the returned undo runs. */
async function failSaves(page, path) {
  const url = new RegExp(`/api/v1/tenant${path}$`);
  const handler = (route) =>
    route.request().method() === 'PATCH'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: DOWN }) })
      : route.fallback();
  await page.route(url, handler);
  return () => page.unroute(url, handler);
}

const toast = (page, text) => page.locator('.app-toast').filter({ hasText: text });

/** settledBox is the toast's box once its entrance animation is over (two equal measures in a row). */
async function settledBox(locator) {
  let last = null;
  for (let i = 0; i < 40; i++) {
    const box = await locator.boundingBox();
    if (box && last && JSON.stringify(box) === JSON.stringify(last)) return box;
    last = box;
    await new Promise((r) => setTimeout(r, 100));
  }
  return last;
}

function overlaps(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** assertClear checks that the toast saying text covers neither the header bar nor the button. */
async function assertClear(page, text, button) {
  const box = await settledBox(toast(page, text));
  assert.ok(box, 'the toast is shown');
  for (const [what, target] of [
    ['the header bar', page.locator('header').first()],
    ['the Save button', button],
  ]) {
    const other = await target.boundingBox();
    assert.ok(other, `${what} is shown`);
    assert.ok(!overlaps(box, other), `the toast (${JSON.stringify(box)}) covers ${what} (${JSON.stringify(other)})`);
  }
}

/**
 * failThenSave presses save while saves fail (an error toast, clear of save), then at once again
 * with saves working: the success toast replaces the error one.
 */
async function failThenSave(page, path, save, success) {
  const undo = await failSaves(page, path);
  await save.click();
  await toast(page, DOWN).waitFor();
  await assertClear(page, DOWN, save);
  await undo();
  await save.click({ timeout: 2_000 });
  await toast(page, success).waitFor();
  await toast(page, DOWN).waitFor({ state: 'detached', timeout: 1_000 });
  await assertClear(page, success, save);
}

describe('toasts', () => {
  test('page editor: a failed save\'s toast leaves the top Save free, and the next save\'s toast replaces it', async () => {
    const created = (await call('POST', '/pages', { title: `Toast page ${RUN}` })).result;
    try {
      await withPage(async (page) => {
        await loginAndWait(page);
        await page.goto(`/pages/${created.id}`);
        const form = page.getByRole('form', { name: 'Edit Page' });
        await form.getByLabel('Title*').fill(`Toast page ${RUN} (edited)`);
        await failThenSave(page, `/pages/${created.id}`, form.getByRole('button', { name: 'Save', exact: true }).first(), 'Page updated successfully!');
      });
    } finally {
      await call('DELETE', `/pages/${created.id}`);
    }
  });

  test('header settings: the same at the foot of a form', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Header', exact: true }).click();
      const save = page.getByRole('button', { name: 'Save Changes' });
      await save.scrollIntoViewIfNeeded();
      await failThenSave(page, '/header(/[^/]+)?', save, 'Header settings updated!');
    });
  });
});
