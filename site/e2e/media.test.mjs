// Browser tests of the Media Library against a running server (E2E_BASE_URL): a real upload
// through the presigned POST to the local S3 emulator, the grid, copy link, the served file's
// safety headers, delete, and the size limit. Every test names its files uniquely.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ADMIN_PASSWORD, BASE_URL, loginAndWait, png, useBrowser, describeImage } from './helpers.mjs';

const RUN = Date.now().toString(36);


const withPage = useBrowser({ timeout: 20_000, clipboard: true });


/** watchProgress records, from inside the page, the highest value any upload progress bar showed. */
async function watchProgress(page) {
  await page.evaluate(() => {
    window.__progressSeen = -1;
    const check = () => {
      for (const el of document.querySelectorAll('progress[aria-label="Upload progress"]')) {
        const visible = el.getBoundingClientRect().width > 0;
        if (visible) window.__progressSeen = Math.max(window.__progressSeen, Number(el.value));
      }
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
}

describe('media library', () => {
  test('upload an image with progress, see it, copy and open its link, delete it', async () => {
    const name = `e2e-campus-photo-${RUN}-with-a-rather-long-file-name.png`;
    const image = png(4 * 1024 * 1024);
    assert.ok(image.length < 5_242_880 && image.length > 4_000_000, `fixture is ${image.length} bytes`);
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.getByRole('link', { name: 'Media Library' }).click();
      await page.waitForURL('**/media');
      await page.getByRole('heading', { level: 1, name: 'Media Library' }).waitFor();

      await page.getByLabel('Choose a file').setInputFiles({ name, mimeType: 'image/png', buffer: image });
      await page.getByText(`${name} (`).waitFor();
      await watchProgress(page);
      const confirmed = page.waitForResponse((r) => r.url().endsWith('/api/v1/tenant/media') && r.request().method() === 'POST');
      const upload = page.getByRole('button', { name: 'Upload' });
      await upload.click();
      await page.getByRole('button', { name: 'Please wait...' }).waitFor();
      const res = await confirmed;
      assert.equal(res.status(), 201, await res.text());
      const timing = res.request().timing();
      console.log(`uploaded ${image.length} bytes; confirmation took ${Math.round(timing.responseEnd)} ms`);
      await page.getByText('File Uploaded successfully!').waitFor();
      await describeImage(page, 'A campus photo');
      assert.ok((await page.evaluate(() => window.__progressSeen)) >= 0, 'the progress bar was shown');
      await page.getByText('No file chosen').waitFor();

      // The grid shows it: name trimmed at 40 characters, size in MB.
      const card = page.locator('.media-card', { has: page.locator(`[title="${name}"]`) });
      await card.waitFor();
      assert.equal(await card.locator('.media-name').innerText(), name.slice(0, 40) + '...');
      assert.match(await card.locator('.media-size').innerText(), /^\d+(\.\d+)? MB$/);

      // Search narrows the grid.
      // Search is a name prefix.
      await page.getByPlaceholder('Search by name').fill(`e2e-campus-photo-${RUN}`);
      await card.waitFor();
      // The search is debounced: wait for the grid to narrow rather than counting at once.
      await page.waitForFunction(() => document.querySelectorAll('.media-card').length === 1, null, { timeout: 10_000 });

      await card.getByRole('button', { name: /^Copy link of/ }).click();
      await page.getByText('Link Copied').waitFor();
      const link = await page.evaluate(() => navigator.clipboard.readText());
      assert.match(link, new RegExp(`^${BASE_URL}/media/demo/[0-9A-Z]{26}/e2e-campus-photo-`));

      // Served under /media/* with nosniff and a sandbox CSP.
      const served = await page.request.get(link);
      assert.equal(served.status(), 200);
      assert.equal(served.headers()['content-type'], 'image/png');
      assert.equal(served.headers()['x-content-type-options'], 'nosniff');
      assert.equal(served.headers()['content-security-policy'], 'sandbox');
      assert.equal((await served.body()).length, image.length);
      // And the link opens in a tab.
      const tab = await page.context().newPage();
      const opened = await tab.goto(link);
      assert.equal(opened.status(), 200);
      await tab.close();

      await card.getByRole('button', { name: /^Delete/ }).click();
      const box = page.getByRole('dialog').filter({ hasText: 'Are you sure to delete?' });
      await box.getByRole('button', { name: 'Yes' }).click();
      await page.getByText('Media Deleted').waitFor();
      await card.waitFor({ state: 'detached' });
      assert.equal((await page.request.get(link)).status(), 404);
    });
  });

  test('a 6 MB file shows the size message and cannot be uploaded', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/media');
      await page.getByRole('heading', { level: 1, name: 'Media Library' }).waitFor();
      await page.getByLabel('Choose a file').setInputFiles({ name: `big-${RUN}.pdf`, mimeType: 'application/pdf', buffer: Buffer.alloc(6 * 1024 * 1024, 0x25) });
      await page.getByRole('alert').filter({ hasText: 'Maximum file size is 5 MB' }).waitFor();
      assert.ok(await page.getByRole('button', { name: 'Upload' }).isDisabled());
    });
  });

  test('bytes that contradict the declared type are refused with a message', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/media');
      await page.getByRole('heading', { level: 1, name: 'Media Library' }).waitFor();
      const html = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.domain)</script></body></html>');
      await page.getByLabel('Choose a file').setInputFiles({ name: `fake-${RUN}.png`, mimeType: 'image/png', buffer: html });
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.getByRole('alert').filter({ hasText: "The file's contents do not match its type." }).waitFor();
      await page.getByPlaceholder('Search by name').fill(`fake-${RUN}`);
      await page.getByText('No Records Found').waitFor();
    });
  });

  test('the image picker of a collection form uploads new images and chooses from the library', async () => {
    const title = `e2e-notice-${RUN}`;
    const imageName = `e2e-picker-${RUN}.png`;
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/notices');
      await page.getByRole('button', { name: 'Add Notice' }).click();
      const form = page.getByRole('dialog').filter({ has: page.locator('form') });
      await form.getByLabel('Title').fill(title);
      await form.getByLabel('Message').fill('With a picture');
      const picker = form.getByRole('group', { name: /^Image/ });
      await picker.getByRole('button', { name: 'Select image' }).click();

      const chooser = page.getByRole('dialog', { name: /^Choose an image/ });
      await chooser.waitFor();
      // Image-only pickers accept only images.
      await chooser.getByLabel('Choose a file').setInputFiles({ name: `doc-${RUN}.pdf`, mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n') });
      await chooser.getByRole('alert').filter({ hasText: 'Please choose an image file' }).waitFor();
      await chooser.getByLabel('Choose a file').setInputFiles({ name: imageName, mimeType: 'image/png', buffer: png(20_000) });
      await chooser.getByRole('button', { name: 'Upload' }).click();
      await page.getByText('File Uploaded successfully!').waitFor();
      await chooser.waitFor({ state: 'detached' });
      await describeImage(page, 'A notice picture');
      const preview = picker.locator('img.media-picker-preview');
      await preview.waitFor();
      assert.match(await preview.getAttribute('data-file'), new RegExp(`^[0-9A-Z]{26}/${imageName}$`));
      assert.match(await preview.getAttribute('src'), new RegExp(`^/media/demo/[0-9A-Z]{26}/(w/thumb|${imageName})$`));
      // The thumbnail may not be derived yet: the preview falls back to the original, then loads.
      await page
        .waitForFunction((img) => img.complete && img.naturalWidth > 0, await preview.elementHandle(), { timeout: 10_000 })
        .catch(() => {});
      assert.ok(await preview.evaluate((img) => img.complete && img.naturalWidth > 0), 'the preview loads from /media/*');

      // Choose from the library: the image just uploaded is offered.
      await picker.getByRole('button', { name: 'Remove' }).click();
      await picker.getByRole('button', { name: 'Select image' }).click();
      await chooser.getByPlaceholder('Search by name').fill(`e2e-picker-${RUN}`);
      await chooser.getByRole('button', { name: `Choose ${imageName}` }).click();
      await chooser.waitFor({ state: 'detached' });
      await preview.waitFor();

      await form.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Notice created successfully!').waitFor();
    });
  });
});
