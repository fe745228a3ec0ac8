// Browser test of the form builder and its submissions against a running server (E2E_BASE_URL):
// build a form with every field type, preview it, submit it, see the submission, export the CSV.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { SCREENSHOT_DIR, loginAndWait, useBrowser, describeImage } from './helpers.mjs';

const RUN = Date.now().toString(36);
// A 1×1 PNG for the cover image, uploaded through the media picker.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const withPage = useBrowser({ timeout: 20_000 });

// The fields to build: label, builder type value, options.
const FIELDS = [
  { label: 'Full name', type: 'text', required: true },
  { label: 'About you', type: 'textarea' },
  { label: 'Start date', type: 'date' },
  { label: 'Photo', type: 'file' },
  { label: 'Course', type: 'select', options: ['Art', 'Maths'] },
  { label: 'Shift', type: 'radio', options: ['Day', 'Night'] },
  { label: 'Days', type: 'checkbox', options: ['Mon', 'Tue'] },
];

/** parseCsv reads RFC 4180 CSV (quoted cells, doubled quotes). */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cell), (cell = '');
    else if (c === '\n') row.push(cell), rows.push(row), (row = []), (cell = '');
    else if (c !== '\r') cell += c;
  }
  if (cell || row.length) row.push(cell), rows.push(row);
  return rows;
}

describe('form builder and submissions', () => {
  test('build a form with every field type, preview, submit, see it and export it', async () => {
    const name = `Admissions ${RUN}`;
    const cover = `cover-${RUN}.png`;
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/custom-forms');
      await page.getByRole('button', { name: 'Add Form' }).click();
      await page.waitForURL('**/custom-forms/create');
      await page.getByRole('heading', { level: 2, name: 'Create Form' }).waitFor();

      await page.getByLabel('Name*').fill(name);
      await page.getByLabel('Description').fill('Apply for a place.');
      await page.getByRole('button', { name: 'Select image' }).click();
      const picker = page.getByRole('dialog');
      await picker.getByLabel('Choose a file').setInputFiles({ name: cover, mimeType: 'image/png', buffer: PNG });
      await picker.getByRole('button', { name: 'Upload' }).click();
      await describeImage(page, 'Application form cover');

      for (const [i, f] of FIELDS.entries()) {
        await page.getByRole('button', { name: '+ Add Field' }).click();
        const block = page.locator('section.field-block').nth(i);
        await block.getByLabel('Label*', { exact: true }).fill(f.label);
        await block.getByLabel('Type', { exact: true }).selectOption(f.type);
        if (f.required) await block.getByText('Required', { exact: true }).click();
        for (const [j, o] of (f.options ?? []).entries()) {
          if (j > 0) await block.getByRole('button', { name: '+ Add Option' }).click();
          await block.getByLabel(`Option ${j + 1}`, { exact: true }).fill(o);
        }
      }
      // Reorder: move the last field up one place and back again.
      await page.getByRole('button', { name: 'Move Days up' }).click();
      await page.getByRole('region', { name: 'Field 6: Days' }).waitFor();
      await page.getByRole('region', { name: 'Field 7: Shift' }).waitFor();
      await page.getByRole('button', { name: 'Move Days down' }).click();
      await page.getByRole('region', { name: 'Field 7: Days' }).waitFor();

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Form created successfully!').waitFor();
      await page.waitForURL(/\/custom-forms\/[0-9A-Z]{26}$/);
      const formId = page.url().split('/').pop();
      await page.getByRole('heading', { level: 2, name: 'Edit Form' }).waitFor();
      await page.getByRole('link', { name: 'View Form Submissions' }).waitFor();
      assert.equal(await page.locator('section.field-block').count(), FIELDS.length, 'every field saved');

      // Preview/Test, chosen by the tab (and kept in the address).
      await page.getByRole('tab', { name: 'Preview/Test' }).click();
      await page.waitForURL(/\?tab=preview$/);
      const form = page.getByRole('form', { name: `Preview of ${name}` });
      await form.getByRole('button', { name: 'Submit' }).click();
      await page.getByText('Full name is required!').waitFor();

      await form.getByLabel('Full name*').fill('Ada Lovelace');
      await form.getByLabel('About you').fill('=1+2 looks like a formula');
      await form.getByLabel('Start date').fill('2026-09-01');
      await form.getByRole('button', { name: 'Select file' }).click();
      const files = page.getByRole('dialog');
      await files.getByRole('button', { name: `Choose ${cover}` }).first().click();
      await files.waitFor({ state: 'detached' });
      await form.getByLabel('Course').selectOption('Maths');
      await form.getByText('Night', { exact: true }).click();
      await form.getByText('Mon', { exact: true }).click();
      await form.getByText('Tue', { exact: true }).click();
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'e2e-form-preview.png'), fullPage: true });
      await form.getByRole('button', { name: 'Submit' }).click();
      await page.getByText('Form Submitted!').waitFor();

      await page.getByRole('link', { name: 'View Form Submissions' }).click();
      await page.waitForURL(`**/custom-forms/${formId}/submissions`);
      await page.getByRole('heading', { level: 2, name: `${name}: 1 Submissions` }).waitFor();
      const row = page.locator('tbody tr', { hasText: 'Ada Lovelace' });
      await row.waitFor();
      await row.getByText('Mon, Tue').waitFor();
      await row.getByText('Maths').waitFor();
      await page.getByRole('link', { name: 'Edit Form' }).waitFor();

      // Mark it checked; the dashboard counter is server-side and covered by the Go tests.
      const checked = row.getByRole('checkbox', { name: /^Checked: / });
      await checked.locator('xpath=ancestor::label[1]').click();
      await page.waitForFunction(() => document.querySelector('tbody tr input[name^="checked-"]')?.checked === true);
      assert.equal(await checked.isChecked(), true);

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      const text = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '');
      const rows = parseCsv(text);
      assert.deepEqual(rows[0], [...FIELDS.map((f) => f.label), 'Submitted At']);
      assert.equal(rows.length, 2);
      const [full, about, start, photo, course, shift, days] = rows[1];
      assert.equal(full, 'Ada Lovelace');
      assert.equal(about, "'=1+2 looks like a formula", 'formula neutralised');
      assert.equal(start, '2026-09-01');
      assert.match(photo, new RegExp(`^/media/[a-z0-9-]+/[0-9A-Z]{26}/${cover.replace('.', '\\.')}$`));
      assert.deepEqual([course, shift, days], ['Maths', 'Night', 'Mon, Tue']);
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'e2e-form-submissions.png'), fullPage: true });
    });
  });
});
