// Browser test of issue 37 (accessible content) against a running server (E2E_BASE_URL): an image
// uploaded through the page editor's picker is given alt text; one published page holds every kind
// of finding; the editor shows them beside their fields and sections with a count on the Save
// bar; the Accessibility screen lists them by rule (axe finds nothing serious on it); fixing them
// in the editor empties the count and takes the page off the report, back to where it was; the
// website shows the image with its alt text. One page for every rule: CI time is over budget.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { axeViolations, loginAndWait, png, useAdminBrowser } from './helpers.mjs';
import { SITE } from './website-theme.mjs';

const RUN = Date.now().toString(36);
const { withPage, call } = useAdminBrowser({ timeout: 20_000 });

const TITLE = `E2E accessibility ${RUN}`;
const SLUG = `e2e-a11y-${RUN}`;
const ALT = `Students on the campus lawn ${RUN}`;

/**
 * CONTENT is rich text with a finding of every rule the content itself can break. Its links stay
 * on this site: the scheduled check of links to other sites never touches the page.
 */
const CONTENT = [
  '<h1>Welcome</h1>',
  '<h2>About us</h2>',
  '<h5>Skipped levels</h5>',
  '<p><img src="https://example.org/lawn.png"></p>',
  '<p>To apply, <a href="/events/apply">click here</a>.</p>',
  '<p><a href="/events/empty"></a></p>',
  '<table><tbody><tr><td>Monday</td><td>9 to 5</td></tr></tbody></table>',
  '<p><a href="/files/prospectus.pdf">Prospectus</a></p>',
  `<p><a href="/no-such-page-${RUN}">Our missing page</a></p>`,
].join('');
const CONTENT_RULES = ['heading-h1', 'heading-order', 'img-alt', 'link-text', 'empty-link', 'table-header', 'document-link', 'broken-link'];
/** The report's group headings (site/src/lib/a11y.ts RULES) of every rule. */
const RULE_TITLES = [
  'Images without alternative text',
  'Empty links and buttons',
  'Links to pages that do not exist or are not published',
  'Text colour with too little contrast',
  'Tables without a header row',
  'Level 1 headings inside content',
  'Headings that skip a level',
  'Links whose text says nothing on its own',
  'Document links without a note on their accessibility',
];

/** rulesIn lists the rules of the findings shown in a list (data-rule), sorted. */
async function rulesIn(list) {
  return (await list.locator('.a11y-finding').evaluateAll((els) => els.map((e) => e.getAttribute('data-rule')))).sort();
}

describe('accessible content', () => {
  test('alt text, every finding in the editor and the report, fixed to zero, the alt text on the website', async () => {
    const before = await call('GET', '/accessibility-report?limit=1');
    const types = (await call('GET', '/page-section-types?limit=100')).result;
    const type = types.find((t) => !t.configContainsMultipleItems) ?? types[0];
    const created = await call('POST', '/pages', { title: TITLE, slug: SLUG, content: CONTENT, isPublished: true, status: true });
    const id = created.result.id;
    // A section with white text on a pale grey: too little contrast.
    await call('PATCH', `/pages/${id}`, {
      version: created.result.version,
      pageSections: [
        {
          title: 'Open day',
          subTitle: 'Come and see us',
          backgroundColor: '#eeeeee',
          fontColor: '#ffffff',
          pageSectionTypeId: type.id,
          status: true,
          position: 1,
          config: JSON.stringify([{ title: 'Open day', description: 'Every Saturday' }]),
        },
      ],
    });

    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto(`/pages/${id}`);
      const form = page.getByRole('form', { name: 'Edit Page' });
      await form.waitFor();

      // The editor checks the page as loaded: the count on the Save bar, each finding beside its place.
      const count = form.getByRole('status').filter({ hasText: /accessibility error/ });
      await count.waitFor();
      assert.match(await count.innerText(), /^\d+ accessibility errors?, \d+ warnings?$/);
      const editor = form.locator('.ql-editor');
      await editor.waitFor();
      // The content editor names its findings (aria-describedby) once both are there.
      const describedBy = await (await page.waitForFunction(() => document.querySelector('.ql-editor')?.getAttribute('aria-describedby'))).jsonValue();
      const contentList = page.locator(`[id="${describedBy.split(' ').pop()}"]`);
      assert.deepEqual(await rulesIn(contentList), [...CONTENT_RULES].sort());
      assert.match(await contentList.innerText(), /Accessibility error/);
      const section = form.locator('section.section-card').first();
      assert.ok(await section.getAttribute('aria-describedby'), 'the section names its findings');
      assert.deepEqual(await rulesIn(section.locator('.a11y-findings')), ['contrast']);

      // With blocking on (Site settings), saving the published page is refused (422) with its
      // findings, shown the same way. Off again at once: the tenant is shared.
      const settings = (await call('GET', '/site-settings')).result;
      await call('PATCH', '/site-settings', { blockOnAccessibilityErrors: true, version: settings.version });
      try {
        const refused = page.waitForResponse((r) => r.url().endsWith(`/pages/${id}`) && r.request().method() === 'PATCH');
        await form.getByRole('button', { name: 'Save', exact: true }).first().click();
        const res = await refused;
        assert.equal(res.status(), 422);
        assert.ok((await res.json()).findings.length > 0);
        await page.getByText('This page has accessibility errors. Fix them or turn off blocking in Site settings.').waitFor();
        assert.deepEqual(await rulesIn(contentList), [...CONTENT_RULES].sort());
      } finally {
        const now = (await call('GET', '/site-settings')).result;
        await call('PATCH', '/site-settings', { blockOnAccessibilityErrors: false, version: now.version });
      }

      // The report lists the page under every rule, each entry a link to the editor.
      await page.getByRole('link', { name: 'Accessibility', exact: true }).click();
      await page.waitForURL('**/accessibility');
      const screen = page.locator('.accessibility-screen');
      await screen.getByRole('heading', { name: 'Accessibility report' }).waitFor();
      for (const title of RULE_TITLES) {
        const group = screen.getByRole('region', { name: new RegExp(`^${title}`) });
        await group.getByRole('link', { name: `Fix Page: ${TITLE}` }).first().waitFor();
      }
      assert.deepEqual(await axeViolations(page, '.accessibility-screen'), []);

      // Fix everything in the editor: the link goes back to it.
      await screen.getByRole('link', { name: `Fix Page: ${TITLE}` }).first().click();
      await page.waitForURL(`**/pages/${id}`);
      await editor.waitFor();
      await editor.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('Welcome to our campus.');
      await section.getByLabel('Font colour', { exact: true }).fill('#111111');

      // The page's image: uploaded in the picker, which asks for its alt text before using it.
      await form.getByRole('group', { name: 'Image', exact: true }).first().getByRole('button', { name: 'Select image' }).click();
      const picker = page.getByRole('dialog');
      await picker.getByLabel('Choose a file').setInputFiles({ name: `e2e-a11y-${RUN}.png`, mimeType: 'image/png', buffer: png(20_000) });
      await picker.getByRole('button', { name: 'Upload' }).click();
      const describe = page.getByRole('dialog', { name: 'Describe the image' });
      await describe.getByRole('button', { name: 'Save and use' }).click();
      await describe.getByText('Describe the image, or switch on Decorative').waitFor();
      await describe.getByRole('textbox', { name: 'Alt text' }).fill(ALT);
      const patched = page.waitForResponse((r) => /\/media\/[0-9A-Z]{26}$/.test(r.url()) && r.request().method() === 'PATCH');
      await describe.getByRole('button', { name: 'Save and use' }).click();
      assert.equal((await patched).status(), 200);
      await describe.waitFor({ state: 'detached' });

      // The checker answers the edited draft: nothing left to fix.
      await page.waitForFunction(() => document.querySelector('.a11y-count')?.textContent === '', null, { timeout: 10_000 });
      assert.equal(await form.locator('.a11y-finding').count(), 0);
      const saved = page.waitForResponse((r) => r.url().endsWith(`/pages/${id}`) && r.request().method() === 'PATCH');
      await form.getByRole('button', { name: 'Save', exact: true }).first().click();
      assert.equal((await saved).status(), 200);

      // The report is back where it was before the page: zero when nothing else has findings.
      await page.goto('/accessibility');
      await screen.getByRole('heading', { name: 'Accessibility report' }).waitFor();
      await screen.getByTestId('a11y-total').waitFor();
      assert.equal(await screen.getByRole('link', { name: `Fix Page: ${TITLE}` }).count(), 0);
      assert.equal(Number(await screen.getByTestId('a11y-total').innerText()), before.findingsCount);
      if (before.findingsCount === 0) await screen.getByText('No accessibility problems found.').waitFor();

      // The Media Library shows the image's alt text.
      await page.goto(`/media?search=e2e-a11y-${RUN}`);
      await page.locator('.media-card').filter({ hasText: `Alt: ${ALT}` }).waitFor();

      // The website shows the page's image with the media record's alt text.
      await page.goto(`${SITE}/${SLUG}`);
      await page.locator(`img[alt="${ALT}"]`).first().waitFor({ state: 'attached' });
    });
    await call('DELETE', `/pages/${id}`);
  });
});
