// Browser tests of deleting form submissions (issue 22): on the submissions screen one or several
// submissions are selected (a checkbox per row, one for the whole page) and deleted after SPEC's
// confirmation; the total, the rows and the dashboard's unchecked count follow without a reload.
// Deleting a form from the Custom Forms list says how many submissions go to the trash with it.
// The demo tenant is shared with other tests, so every record here is named by this run.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { confirmYes, loginAndWait, useAdminBrowser } from './helpers.mjs';

const RUN = Date.now().toString(36);
const IMAGE_REF = '01HZZZZZZZZZZZZZZZZZZZZZZZ/e2e-photo.png';

const { withPage, call } = useAdminBrowser({ timeout: 20_000 });

const row = (page, text) => page.locator('tbody tr', { hasText: text });
const select = (page, text) => row(page, text).getByRole('checkbox', { name: /^Select / });

/** tick sets a checkbox by a click on its label (Amplify hides the input itself under its own box). */
async function tick(box, on) {
  if ((await box.isChecked()) !== on) await box.locator('xpath=ancestor::label[1]').click();
  for (let i = 0; i < 50 && (await box.isChecked()) !== on; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(await box.isChecked(), on);
}
const unchecked = async () => (await call('GET', '/misc/masters')).result.dashboardStats.customFormSubmissionCount;

/** makeForm creates a form with one Name field and a submission per name; the first is marked checked. */
async function makeForm(name, people) {
  const form = await call('POST', '/custom-forms', {
    name,
    status: true,
    image: IMAGE_REF,
    fields: JSON.stringify([{ id: 'NEW_1', label: 'Name', fieldType: 'text', required: true }]),
  });
  const formId = form.result.id;
  const ids = [];
  for (const person of people) ids.push((await call('POST', '/custom-form-submissions', { formId, Name: person })).result.id);
  await call('PATCH', `/custom-form-submissions/${ids[0]}?formId=${formId}`, { checked: true, formId });
  return formId;
}

describe('deleting submissions', () => {
  test('select one, then the page less one, delete them; counts follow without a reload', async () => {
    const name = `Delete subs ${RUN}`;
    const [ann, bob, cat, dan] = ['Ann', 'Bob', 'Cat', 'Dan'].map((n) => `${n} ${RUN}`);
    const formId = await makeForm(name, [ann, bob, cat, dan]);
    const before = await unchecked();
    try {
      await withPage(async (page) => {
        await loginAndWait(page);
        await page.goto(`/custom-forms/${formId}/submissions`);
        await page.getByRole('heading', { level: 2, name: `${name}: 4 Submissions` }).waitFor();
        const del = page.getByRole('button', { name: /^Delete selected/ });
        assert.equal(await del.isDisabled(), true, 'nothing selected yet');

        // One: Bob.
        await tick(select(page, bob), true);
        await page.getByRole('button', { name: 'Delete selected (1)' }).click();
        await confirmYes(page, 'Do you really want to delete?');
        await page.getByText('Submission Deleted Successfully!').first().waitFor();
        await page.getByRole('heading', { level: 2, name: `${name}: 3 Submissions` }).waitFor();
        await row(page, bob).waitFor({ state: 'detached' });

        // The page: all three, then Ann (checked) left out.
        await tick(page.getByRole('checkbox', { name: 'Select all submissions on this page' }), true);
        for (const n of [ann, cat, dan]) assert.equal(await select(page, n).isChecked(), true);
        await tick(select(page, ann), false);
        assert.equal(await page.getByRole('checkbox', { name: 'Select all submissions on this page' }).isChecked(), false);
        await page.getByRole('button', { name: 'Delete selected (2)' }).click();
        await confirmYes(page, 'Do you really want to delete?');
        await page.getByRole('heading', { level: 2, name: `${name}: 1 Submissions` }).waitFor();
        await row(page, cat).waitFor({ state: 'detached' });
        await row(page, dan).waitFor({ state: 'detached' });
        await row(page, ann).waitFor();
        assert.equal(await del.isDisabled(), true, 'the selection went with them');

        // The server and the dashboard agree: three deleted, the unchecked ones off the count.
        const left = await call('GET', `/custom-form-submissions?formId=${formId}&limit=10`);
        assert.equal(left.totalCount, 1);
        assert.equal(await unchecked(), before - 3);
        await page.getByRole('link', { name: 'Home', exact: true }).click();
        await page.waitForURL('**/dashboard');
        const counter = page.getByRole('listitem').filter({ hasText: 'Total unchecked form submissions' }).locator('.counter-value');
        await page.waitForFunction(
          ({ want }) =>
            [...document.querySelectorAll('.counter-card')].find((c) => c.textContent.includes('Total unchecked form submissions'))?.querySelector('.counter-value')?.getAttribute('title') === want,
          { want: String(before - 3) },
        );
        assert.equal(await counter.getAttribute('title'), String(before - 3));
      });
    } finally {
      await call('DELETE', `/custom-forms/${formId}`).catch(() => {});
    }
  });

  test('deleting a form says how many submissions go to the trash with it', async () => {
    const name = `Delete form ${RUN}`;
    const formId = await makeForm(name, [`Eve ${RUN}`, `Fay ${RUN}`, `Gus ${RUN}`]);
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/custom-forms');
      await page.getByPlaceholder('Search by name').fill(name);
      await row(page, name).getByRole('button', { name: 'Delete' }).click();
      await confirmYes(page, 'This form has 3 submissions; they go to the trash with it. Do you really want to delete?');
      await page.getByText('Form Deleted Successfully!').first().waitFor();
      await row(page, name).waitFor({ state: 'detached' });
    });
    await assert.rejects(call('GET', `/custom-forms/${formId}`), /404/);
    const trash = await call('GET', '/trash?kind=custom-forms&limit=50');
    assert.ok(trash.result.some((e) => e.id === formId), 'the form is in the trash');
  });
});
