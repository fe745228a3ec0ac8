// Browser tests of the public website (shared/website) at http://demo.localhost:PORT/: the
// no-JavaScript contact form, page previews, tenant isolation by host, and the escaping of custom
// CSS and page content (each theme's own tests: website-theme-{id}.test.mjs, website-theme.mjs).
// They change the demo's theme and custom CSS and put them back (classic, no custom CSS) at the end.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { adminToken, apiCall, useBrowser } from './helpers.mjs';
import { PORT, SITE } from './website-theme.mjs';

const RUN = Date.now().toString(36);

let token;
const call = (method, path, body, as = token) => apiCall(method, path, body, as);
const created = [];

const withPage = useBrowser({
  beforeAll: async () => {
    token = await adminToken();
  },
});
after(async () => {
  await call('PATCH', '/theme-settings', { themeId: 'classic' });
  await call('PATCH', '/theme-settings', { customCss: '' });
  for (const id of created) await call('DELETE', `/pages/${id}`).catch(() => {});
});

const activate = (themeId) => call('PATCH', '/theme-settings', { themeId });

async function createPage(fields) {
  const { result } = await call('POST', '/pages', { status: true, isPublished: true, ...fields });
  created.push(result.id);
  return result;
}

describe('public website', () => {
  test('contact form without JavaScript: required error keeps other values, then thank-you and stored', async () => {
    await activate('classic');
    await withPage(
      async (page) => {
        await page.goto(`${SITE}/contact`);
        const form = page.locator('form.cms-form');
        const formId = (await form.getAttribute('action')).split('/').pop();
        const name = `Visitor ${RUN}`;

        // Name only: Email and Message are required.
        await form.getByLabel('Name').fill(name);
        await form.getByRole('button', { name: 'Submit' }).click();
        await page.waitForLoadState('load');
        const email = page.locator('form.cms-form').getByLabel('Email');
        assert.equal(await email.getAttribute('aria-invalid'), 'true');
        const errId = await email.getAttribute('aria-describedby');
        const err = page.locator(`#${errId}`);
        await err.waitFor();
        assert.ok((await err.textContent()).trim().length > 0, 'error text beside Email');
        // The error is inside the Email field's own block.
        const inputId = await email.getAttribute('id');
        assert.ok(
          await page.evaluate(([e, i]) => { const f = document.getElementById(e).closest('.field.has-error'); return !!f && f === document.getElementById(i).closest('.field'); }, [errId, inputId]),
          'error in the Email field block',
        );
        await page.getByRole('alert').filter({ hasText: 'required' }).waitFor();
        assert.equal(await page.locator('form.cms-form').getByLabel('Name').inputValue(), name);

        // Complete it: the thank-you, then the panel sees the submission.
        const again = page.locator('form.cms-form');
        await again.getByLabel('Email').fill(`visitor-${RUN}@example.org`);
        await again.getByLabel('Message').fill(`Hello from the e2e run ${RUN}`);
        await again.getByRole('button', { name: 'Submit' }).click();
        await page.getByText('Thank you! Your response has been submitted.').waitFor();
        assert.equal(await page.evaluate(() => document.documentElement.classList.contains('js')), false, 'JavaScript really off');

        const { result } = await call('GET', `/custom-form-submissions?formId=${formId}&limit=20`);
        const mine = result.find((s) => Object.values(s).includes(name));
        assert.ok(mine, 'submission listed in the panel');
        assert.equal(mine.Email, `visitor-${RUN}@example.org`);
      },
      { javaScriptEnabled: false },
    );
  });

  test('preview: an unpublished page shows at its preview address only', async () => {
    const title = `Draft ${RUN}`;
    const draft = await createPage({ title, slug: `draft-${RUN}`, content: '<p>Not yet public.</p>', isPublished: false });
    const { result } = await call('POST', `/pages/${draft.id}/preview`);
    assert.match(result.path, /^\/_preview\//);
    await withPage(async (page) => {
      const res = await page.goto(`${SITE}${result.path}`);
      assert.equal(res.status(), 200);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await page.getByText('Not yet public.').waitFor();
      await page.getByRole('status').filter({ hasText: 'Preview' }).waitFor();
      const res404 = await page.goto(`${SITE}/draft-${RUN}`);
      assert.equal(res404.status(), 404);
      assert.equal(await page.getByText('Not yet public.').count(), 0);
    });
  });

  test('an embed loads only when the visitor asks: its link becomes the player, focused', async () => {
    await activate('classic');
    await withPage(async (page) => {
      const thirdParty = [];
      page.on('request', (req) => {
        if (!new URL(req.url()).hostname.endsWith('localhost')) thirdParty.push(req.url());
      });
      await page.goto(`${SITE}/about`);
      const box = page.locator('.embed-frame').first();
      const link = box.getByRole('link', { name: /^Show the embedded content from / });
      await link.waitFor();
      const [player, title] = [await link.getAttribute('href'), await link.getAttribute('data-embed-title')];
      assert.equal(await page.locator('iframe').count(), 0, 'no iframe before the visitor asks');
      await page.waitForLoadState('networkidle');
      assert.deepEqual(thirdParty, [], 'nothing fetched from the third party before the visitor asks');
      await link.click();
      const frame = box.locator('iframe');
      await frame.waitFor();
      assert.equal(await frame.getAttribute('title'), title);
      assert.equal(await frame.getAttribute('src'), `${player}?autoplay=1`);
      assert.ok(await frame.evaluate((f) => document.activeElement === f), 'focus moves to the player');
    });
  });

  test('isolation: a host with no tenant answers 404 and never shows the demo', async () => {
    await withPage(async (page) => {
      for (const path of ['/', '/about', '/events']) {
        const res = await page.goto(`http://nobody.localhost:${PORT}${path}`);
        assert.equal(res.status(), 404);
        assert.doesNotMatch(await page.content(), /Demo Institution/);
      }
    });
  });

  test('XSS: custom CSS cannot close its <style>, page content cannot run script', async () => {
    await call('PATCH', '/theme-settings', { customCss: '</style><script>window.__x=1</script>' });
    const slug = `xss-${RUN}`;
    await createPage({ title: `Safe ${RUN}`, slug, content: '<p>Plain text here.</p><img src=x onerror="window.__y=1"><script>window.__y=2</script>' });
    await withPage(async (page) => {
      for (const path of ['/', `/${slug}`]) {
        await page.goto(`${SITE}${path}`);
        await page.waitForLoadState('load');
        await page.waitForTimeout(300);
        assert.equal(await page.evaluate(() => typeof window.__x), 'undefined', `custom CSS ran script on ${path}`);
        assert.equal(await page.evaluate(() => typeof window.__y), 'undefined', `page content ran script on ${path}`);
      }
      await page.getByText('Plain text here.').waitFor();
      assert.equal(await page.locator('main script').count(), 0);
      assert.equal(await page.locator('main [onerror]').count(), 0);
    });
    await call('PATCH', '/theme-settings', { customCss: '' });
  });
});
