// Browser test of file sizes taken from the media library (issue 22, item 4): a photo's File Size
// is never typed in; it is shown read-only and worked out by the server from the chosen file.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TINY_PNG, loginAndWait, useBrowser, describeImage } from './helpers.mjs';

const RUN = Date.now().toString(36);
const withPage = useBrowser();
const dialog = (page) => page.getByRole('dialog').filter({ has: page.locator('form') });
/** SIZE is TINY_PNG's size as the panel shows it (KB, two decimals). */
const SIZE = `${Math.round((TINY_PNG.length / 1024) * 100) / 100} KB`;

describe('file size from the media library', () => {
  test('a photo saves without typing a size and shows the chosen file\'s', async () => {
    const caption = `size-${RUN}`;
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/photos');
      await page.getByPlaceholder('Search by name').fill(caption);
      await page.getByRole('button', { name: 'Add Photo' }).click();
      const form = dialog(page);
      const size = form.getByLabel('File Size', { exact: true });
      await size.waitFor();
      assert.equal(await form.getByLabel('File Size*').count(), 0, 'not marked required');
      assert.notEqual(await size.getAttribute('readonly'), null, 'read-only');

      await form.getByRole('group', { name: 'Image' }).getByRole('button', { name: 'Select image' }).click();
      const picker = page.getByRole('dialog', { name: /Choose an image/ });
      await picker.getByLabel('Choose a file').setInputFiles({ name: `${caption}.png`, mimeType: 'image/png', buffer: TINY_PNG });
      await picker.getByRole('button', { name: 'Upload' }).click();
      await picker.waitFor({ state: 'detached' });
      await describeImage(page, `Photo ${caption}`);
      // The uploaded file's size shows at once, before the save (which takes it from the library).
      assert.equal(await size.inputValue(), SIZE);
      await form.getByLabel('Caption').fill(caption);
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Photo created successfully!').waitFor();
      assert.equal(await page.getByText('File Size is required!').count(), 0);

      const row = page.locator('tbody tr', { hasText: caption });
      await row.getByText(SIZE).waitFor();
      await row.getByRole('button', { name: 'Edit' }).click();
      await form.waitFor();
      assert.equal(await form.getByLabel('File Size', { exact: true }).inputValue(), SIZE);
      assert.notEqual(await form.getByLabel('File Size', { exact: true }).getAttribute('readonly'), null);
    });
  });
});
