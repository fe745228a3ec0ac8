// Browser test of the footer's social links (issue 22, item 8): edited in the Footer screen as
// https addresses (a plain http one is refused with a clear message), shown on the website's
// footer under their names while Show Social Links is on. It puts the demo footer's links back
// (none, switched off) at the end.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { BASE_URL, adminToken, apiCall, loginAndWait, useBrowser } from './helpers.mjs';

const RUN = Date.now().toString(36);
const SITE = `http://demo.localhost:${new URL(BASE_URL).port || '80'}`;
const FACEBOOK = `https://www.facebook.com/school-${RUN}`;
const YOUTUBE = `https://www.youtube.com/@school-${RUN}`;

const withPage = useBrowser();
after(async () => {
  const token = await adminToken();
  await apiCall('PATCH', '/footer', { facebookUrl: '', youtubeUrl: '', showSocialLinks: false }, token);
});

describe('footer social links', () => {
  test('edited as https addresses and shown on the website', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/footer');
      const form = page.locator('form');
      for (const label of ['Facebook', 'X', 'Instagram', 'YouTube', 'LinkedIn']) {
        await form.getByLabel(label, { exact: true }).waitFor();
      }
      await form.getByLabel('Facebook', { exact: true }).fill('http://www.facebook.com/school');
      await form.getByRole('button', { name: 'Save Changes' }).click();
      await form.getByText('Facebook must be a web address starting with https://', { exact: false }).first().waitFor();

      await form.getByLabel('Facebook', { exact: true }).fill(FACEBOOK);
      await form.getByLabel('YouTube', { exact: true }).fill(YOUTUBE);
      const show = form.getByRole('switch', { name: 'Show Social Links' });
      if (!(await show.isChecked())) await form.getByText('Show Social Links', { exact: true }).click();
      await form.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByText('Footer settings updated!').first().waitFor();

      await page.goto(SITE + '/');
      const social = page.locator('footer').getByRole('navigation', { name: 'Social media' });
      const facebook = social.getByRole('link', { name: /on Facebook$/ });
      assert.equal(await facebook.getAttribute('href'), FACEBOOK);
      assert.equal(await social.getByRole('link', { name: /on YouTube$/ }).getAttribute('href'), YOUTUBE);
      assert.equal(await social.getByRole('link').count(), 2);
    });
  });
});
