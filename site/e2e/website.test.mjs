// Browser tests of the public website (shared/website) at http://demo.localhost:PORT/: the five
// themes, the no-JavaScript contact form, page previews, tenant isolation by host, and the
// escaping of custom CSS and page content. They change the demo's theme and custom CSS and put
// them back (classic, no custom CSS) at the end.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createRequire } from 'node:module';
import { BASE_URL, adminToken, apiCall, useBrowser } from './helpers.mjs';

const RUN = Date.now().toString(36);
const PORT = new URL(BASE_URL).port || '80';
/** SITE is the demo tenant's website: Chromium resolves every *.localhost name to loopback. */
const SITE = `http://demo.localhost:${PORT}`;
const THEMES = ['classic', 'modern', 'campus', 'minimal', 'vibrant'];
const SECTION_TYPES = ['slider', 'card-row', 'banner', 'text-image', 'embed', 'form'];

/** AXE is axe-core's browser bundle, injected into each page it audits. */
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let token;
/** pageTypes are one address of every kind of page the website serves (filled in before the tests). */
let pageTypes = [];
const call = (method, path, body, as = token) => apiCall(method, path, body, as);
const created = [];

const withPage = useBrowser({
  beforeAll: async () => {
    token = await adminToken();
    const first = async (collection) => (await call('GET', `/${collection}?limit=5`)).result[0].id;
    pageTypes = ['/', '/about', '/events', `/events/${await first('events')}`, '/notices', `/notices/${await first('notices')}`,
      '/albums', `/albums/${await first('albums')}`, '/staff', '/departments', '/faqs', '/resources', '/testimonials',
      `/forms/${await first('custom-forms')}`, '/no-such-page'];
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
  for (const id of THEMES) {
    test(`theme ${id}: home page and every section type`, async () => {
      await activate(id);
      await withPage(async (page) => {
        const res = await page.goto(`${SITE}/`);
        assert.equal(res.status(), 200);
        // The class as served (site.js adds "js" once it runs).
        assert.match(await res.text(), new RegExp(`<html lang="en" class="theme-${id}">`));
        assert.ok(await page.locator(`html.theme-${id}`).count());
        assert.match(await page.locator('link[rel=stylesheet]').getAttribute('href'), new RegExp(`/assets/theme-${id}\\.[0-9a-f]+\\.css$`));
        const h1 = page.getByRole('heading', { level: 1 });
        assert.equal(await h1.count(), 1);
        assert.match(await h1.textContent(), /Demo Institution/);
        if (id === 'campus') {
          const quick = page.getByRole('navigation', { name: 'Quick links' });
          for (const name of ['Events', 'Notices', 'Gallery', 'Staff', 'Resources', 'FAQs']) await quick.getByRole('link', { name, exact: true }).waitFor();
          // Two columns on a wide screen: the quick links sit beside <main>, not under it.
          const main = await page.locator('main').boundingBox();
          const aside = await page.locator('aside.quick-links').boundingBox();
          assert.ok(aside.x >= main.x + main.width - 1, `aside at x=${aside.x} beside main ending at ${main.x + main.width}`);
        } else {
          assert.equal(await page.locator('aside').count(), 0);
        }

        // The demo spreads its six section types over the home page and /about (which has the
        // form and embed ones); together they must all render in every theme.
        const seen = new Set();
        for (const path of ['/', '/about']) {
          if (path !== '/') assert.equal((await page.goto(`${SITE}${path}`)).status(), 200);
          for (const t of SECTION_TYPES) if ((await page.locator(`section.section-${t}`).count()) > 0) seen.add(t);
        }
        assert.deepEqual([...seen].sort(), [...SECTION_TYPES].sort());
        await page.getByRole('heading', { level: 1, name: 'About' }).first().waitFor();
      });
    });

    test(`theme ${id}: axe finds nothing serious or critical on any kind of page`, async () => {
      await activate(id);
      const found = [];
      for (const mobile of [false, true]) {
        await withPage(
          async (page) => {
            for (const path of pageTypes) {
              await page.goto(`${SITE}${path}`);
              await page.addScriptTag({ path: AXE });
              const violations = await page.evaluate(async () =>
                (await window.axe.run(document, { resultTypes: ['violations'] })).violations
                  .filter((v) => v.impact === 'serious' || v.impact === 'critical')
                  .map((v) => `${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
              );
              for (const v of violations) found.push(`${mobile ? 'phone' : 'desktop'} ${path}: ${v}`);
            }
          },
          mobile ? { viewport: { width: 412, height: 823 }, isMobile: true } : {},
        );
      }
      assert.deepEqual(found, []);
    });

    test(`theme ${id}: every kind of page works without JavaScript, on a phone`, async () => {
      await activate(id);
      await withPage(
        async (page) => {
          for (const path of pageTypes) {
            const res = await page.goto(`${SITE}${path}`);
            assert.equal(res.status(), path === '/no-such-page' ? 404 : 200, path);
            assert.equal(await page.evaluate(() => document.documentElement.classList.contains('js')), false, 'JavaScript really off');
            assert.equal(await page.getByRole('heading', { level: 1 }).count(), 1, `${path}: one h1`);
            assert.ok((await page.locator('main').innerText()).trim().length > 0, `${path}: main has content`);
            // The theme's stylesheet loaded and applies (its custom properties are set on :root).
            const sheet = await page.evaluate(() => [...document.styleSheets].some((s) => s.href && /\/assets\/theme-/.test(s.href) && s.cssRules.length > 0));
            assert.ok(sheet, `${path}: theme stylesheet loaded`);
            // The menu is there without its toggle, which only script shows.
            assert.equal(await page.locator('.menu-toggle').isVisible(), false, `${path}: no dead menu button`);
            const nav = page.locator('#site-nav');
            if (await nav.count()) {
              const first = nav.getByRole('link').first();
              await first.waitFor({ state: 'visible', timeout: 5000 });
            }
          }
        },
        { javaScriptEnabled: false, viewport: { width: 412, height: 823 }, isMobile: true },
      );
    });
  }

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
