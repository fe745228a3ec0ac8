// Browser tests of issue 22, item 3 (dashboard numbers go stale) against a running server
// (E2E_BASE_URL): Home's counters follow creates and deletes made in the panel, and changes made
// elsewhere (the API, another tab) show whenever Home is shown again, all without a reload. The
// demo tenant is shared with other tests, so counts are compared with what Home showed before.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { confirmYes, loginAndWait, useAdminBrowser } from './helpers.mjs';

const RUN = Date.now().toString(36);
const { withPage, call } = useAdminBrowser({ timeout: 20_000 });

const nav = (page) => page.getByRole('navigation', { name: 'Main' });
const dialog = (page) => page.getByRole('dialog').filter({ has: page.locator('form') });
const row = (page, text) => page.locator('tbody tr', { hasText: text });

/** counter is the exact value Home shows for label (its title), once loaded. */
async function counter(page, label) {
  const value = page.getByRole('listitem').filter({ hasText: label }).locator('.counter-value');
  await page.waitForFunction((el) => /^\d+$/.test(el.getAttribute('title') ?? ''), await value.elementHandle());
  return Number(await value.getAttribute('title'));
}

/** expectCounter waits until Home shows n for label (no reload). */
async function expectCounter(page, label, n) {
  const value = page.getByRole('listitem').filter({ hasText: label }).locator('.counter-value');
  await page.waitForFunction(([el, want]) => el.getAttribute('title') === want, [await value.elementHandle(), String(n)]);
}

/** markDocument tags the loaded document; sameDocument says whether it is still the one shown (no reload). */
const markDocument = (page) => page.evaluate(() => (window.__e2eDocument = true));
const sameDocument = (page) => page.evaluate(() => window.__e2eDocument === true);

/** goHome opens Home through the sidebar (a client-side move, never a reload). */
async function goHome(page) {
  await nav(page).getByRole('link', { name: 'Home' }).click();
  await page.waitForURL('**/dashboard');
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
}

/** openScreen opens a sidebar screen and narrows its list to search. */
async function openScreen(page, label, search) {
  await nav(page).getByRole('link', { name: label, exact: true }).click();
  await page.getByPlaceholder('Search by name').fill(search);
}

describe('dashboard counters', () => {
  test('a popup and a newsletter signup created in the panel, then deleted: Home follows without a reload', async () => {
    const title = `Counter popup ${RUN}`;
    const email = `counter-${RUN}@example.com`;
    await withPage(async (page) => {
      await loginAndWait(page);
      await markDocument(page);
      const popups = await counter(page, 'Total Popups');
      const signups = await counter(page, 'Total Newsletter Signups');

      await openScreen(page, 'Popups', title);
      await page.getByRole('button', { name: 'Add Popup' }).click();
      await dialog(page).getByLabel('Title*').fill(title);
      await dialog(page).getByLabel('Start Date*').fill('2026-05-01');
      await dialog(page).getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Popup created successfully!').first().waitFor();
      await row(page, title).waitFor();

      await openScreen(page, 'Newsletter Signups', email);
      await page.getByRole('button', { name: 'Add Newsletter Signup' }).click();
      await dialog(page).getByLabel('Email*').fill(email);
      // The dashboard counts confirmed signups; staff may add one so (the website's are pending).
      await dialog(page).getByLabel(/^Subscription/).selectOption('confirmed');
      await dialog(page).getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Newsletter Signup created successfully!').first().waitFor();
      await row(page, email).waitFor();

      await goHome(page);
      await expectCounter(page, 'Total Popups', popups + 1);
      await expectCounter(page, 'Total Newsletter Signups', signups + 1);

      await openScreen(page, 'Popups', title);
      await row(page, title).getByRole('button', { name: 'Delete' }).click();
      await confirmYes(page, 'Do you really want to delete?');
      await page.getByText('Popup Deleted Successfully!').first().waitFor();
      await row(page, title).waitFor({ state: 'detached' });
      await goHome(page);
      await expectCounter(page, 'Total Popups', popups);
      await expectCounter(page, 'Total Newsletter Signups', signups + 1);
      assert.ok(await sameDocument(page), 'no page load after the login');
    });
  });

  test('a submission sent from a form\'s preview counts among the unchecked ones at once', async () => {
    const name = `Counter form ${RUN}`;
    const form = (await call('POST', '/custom-forms', { name, image: '01HZZZZZZZZZZZZZZZZZZZZZZZ/e2e-cover.png', fields: '[]', status: true })).result;
    try {
      await withPage(async (page) => {
        await loginAndWait(page);
        await markDocument(page);
        const unchecked = await counter(page, 'Total unchecked form submissions');
        await openScreen(page, 'Custom Forms', name);
        await row(page, name).getByRole('button', { name: 'Edit' }).click();
        await page.getByRole('tab', { name: 'Preview/Test' }).click();
        await page.getByRole('form', { name: `Preview of ${name}` }).getByRole('button', { name: 'Submit' }).click();
        await page.getByText('Form Submitted!').first().waitFor();
        await goHome(page);
        await expectCounter(page, 'Total unchecked form submissions', unchecked + 1);
        assert.ok(await sameDocument(page), 'no page load after the login');
      });
    } finally {
      await call('DELETE', `/custom-forms/${form.id}`);
    }
  });

  test('a change made outside this tab shows when Home is shown again', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      await markDocument(page);
      const popups = await counter(page, 'Total Popups');
      await nav(page).getByRole('link', { name: 'FAQs', exact: true }).click();
      await page.getByPlaceholder('Search by name').waitFor();
      const created = await call('POST', '/popups', { title: `Elsewhere popup ${RUN}`, startDate: '2026-05-01', status: true });
      try {
        await goHome(page);
        await expectCounter(page, 'Total Popups', popups + 1);
        assert.ok(await sameDocument(page), 'no page load');
      } finally {
        await call('DELETE', `/popups/${created.result.id}`);
      }
    });
  });
});
