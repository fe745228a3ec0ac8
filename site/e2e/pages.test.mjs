// Browser tests of the pages workflow against a running server (E2E_BASE_URL): create a page
// from the list, type formatted text, insert an image from the media library, add one section of
// each type with items, reorder sections and items by keyboard and by mouse, save, reload and
// find everything as saved; a stale save keeps what was typed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TINY_PNG, loginAndWait, useBrowser, describeImage } from './helpers.mjs';

const RUN = Date.now().toString(36);
const withPage = useBrowser({ timeout: 20_000 });

/** callInPage calls the API from inside the page with the signed-in admin's token. */
async function callInPage(page, method, path, body) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(`/api/v1/tenant${path}`, {
        method,
        headers: {
          'Content-Type': 'application/json',
          'X-Tenant-Id': localStorage.getItem('tenantId') || 'demo',
          Authorization: `Bearer ${localStorage.getItem('token')}`,
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: await res.json() };
    },
    { method, path, body },
  );
}

/** createPage goes through the list's 'Add Page' modal and returns the new page's id. */
async function createPage(page, title) {
  await page.getByRole('link', { name: 'Pages', exact: true }).click();
  await page.waitForURL('**/pages');
  await page.getByRole('button', { name: 'Add Page' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Page' });
  await dialog.getByRole('button', { name: 'Create Page' }).click();
  await dialog.getByText('Title is required!').first().waitFor();
  await dialog.getByLabel('Title*').fill(title);
  await dialog.getByLabel('Description').fill('Made by the browser test');
  await dialog.getByRole('button', { name: 'Create Page' }).click();
  await page.waitForURL(/\/pages\/[0-9A-Z]{26}$/);
  await page.getByText('Page created successfully!').waitFor();
  await page.getByRole('form', { name: 'Edit Page' }).waitFor();
  return page.url().split('/').pop();
}

const section = (page, i) => page.locator('section.section-card').nth(i);

async function addSection(page, typeName, title) {
  await page.getByLabel('Section type').selectOption({ label: typeName });
  await page.getByRole('button', { name: 'Add Section' }).click();
  const count = await page.locator('section.section-card').count();
  const s = section(page, count - 1);
  await s.getByLabel('Section title').fill(title);
  return s;
}

/** keyboardMove drags with dnd-kit's keyboard sensor: Space picks up, arrows move, Space drops. */
async function keyboardMove(page, handle, key, times) {
  await handle.scrollIntoViewIfNeeded();
  await handle.focus();
  await page.keyboard.press('Space');
  await page.waitForTimeout(150); // dnd-kit measures the droppables after pick-up
  for (let i = 0; i < times; i++) {
    await page.keyboard.press(key);
    await page.waitForTimeout(150);
  }
  await page.keyboard.press('Space');
  await page.waitForTimeout(150);
}

describe('pages', () => {
  test('create, format, image, six section types, reorder, save, reload', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      const formName = `E2E Form ${RUN}`;
      const id = await createPage(page, `E2E Page ${RUN}`);
      assert.equal(await page.getByLabel('Slug').inputValue(), `e2e-page-${RUN}`);

      // Formatted text: bold, italic, underline and strike from the toolbar.
      const editor = page.locator('.ql-editor');
      await editor.click();
      await page.keyboard.type('Welcome ');
      for (const [fmt, word] of [['bold', 'bold'], ['italic', 'italic'], ['underline', 'under'], ['strike', 'struck']]) {
        await page.locator(`button.ql-${fmt}`).click();
        await page.keyboard.type(word);
        await page.locator(`button.ql-${fmt}`).click();
        await page.keyboard.type(' ');
      }
      // An image: upload into the library from the editor's image button; it is inserted.
      await page.locator('button.ql-image').click();
      const picker = page.getByRole('dialog', { name: 'Insert an image' });
      await picker.getByLabel('Choose a file').setInputFiles({ name: `e2e-page-${RUN}.png`, mimeType: 'image/png', buffer: TINY_PNG });
      await picker.getByRole('button', { name: 'Upload' }).click();
      await describeImage(page, 'A test picture');
      await editor.locator('img').waitFor();
      const media = await callInPage(page, 'GET', `/media?search=e2e-page-${RUN}`);
      const imageRef = media.body.result[0].fileUrl;
      const form = await callInPage(page, 'POST', '/custom-forms', { name: formName, image: imageRef, fields: '[]' });
      assert.equal(form.status, 201, JSON.stringify(form.body));

      // A section needs a type.
      await page.getByRole('button', { name: 'Add Section' }).click();
      await page.getByText('Please select section type').first().waitFor();

      const slider = await addSection(page, 'SLIDER', 'Slider S');
      await slider.getByLabel('Background colour', { exact: true }).fill('#336699');
      await slider.getByRole('button', { name: 'Add item' }).click();
      await slider.getByLabel('Title', { exact: true }).nth(0).fill('Slide one');
      await slider.getByLabel('Title', { exact: true }).nth(1).fill('Slide two');
      // The first slide's image is chosen from the library.
      await slider.getByRole('button', { name: 'Select image' }).first().click();
      const choose = page.getByRole('dialog', { name: /Choose an image/ });
      await choose.getByRole('button', { name: `Choose e2e-page-${RUN}.png` }).click();
      await slider.locator('.section-preview img').first().waitFor();

      const cards = await addSection(page, 'CARD_ROW', 'Cards C');
      await cards.getByRole('button', { name: 'Add item' }).click();
      await cards.getByLabel('Title', { exact: true }).nth(0).fill('Card one');
      await cards.getByLabel('Title', { exact: true }).nth(1).fill('Card two');
      await cards.getByLabel('Button link').nth(0).fill('https://example.org/apply');

      const banner = await addSection(page, 'BANNER', 'Banner B');
      await banner.getByLabel('Title', { exact: true }).fill('Admissions open');
      assert.equal(await banner.getByRole('button', { name: 'Add item' }).count(), 0, 'a banner holds one item');

      const story = await addSection(page, 'TEXT_IMAGE', 'Story T');
      await story.getByLabel('Text position').selectOption('RIGHT');
      await story.getByLabel('Description').fill('Our history');

      const embed = await addSection(page, 'EMBED', 'Embed E');
      await embed.getByLabel('Embed URL (https)').fill('https://www.youtube.com/embed/abc123');
      await embed.getByLabel('Embed type').selectOption('YOUTUBE');

      const formSec = await addSection(page, 'FORM', 'Form F');
      await formSec.getByLabel('Form', { exact: true }).selectOption({ label: formName });

      // Reorder sections by keyboard: the form section to the top.
      const handle = page.getByRole('button', { name: /^Drag section 6:/ });
      // A press that has to scroll the page first only scrolls; extra presses at the top do nothing.
      await keyboardMove(page, handle, 'ArrowUp', 20);
      const order = await page.locator('section.section-card strong').allTextContents();
      assert.match(order[0], /Form F/, `order after the keyboard move: ${order}`);

      // Reorder the slider's items by keyboard, and the card row's by mouse.
      const slideHandle = page.getByRole('button', { name: 'Drag item 2 of Slider S' });
      await keyboardMove(page, slideHandle, 'ArrowUp', 4);
      assert.equal(await section(page, 1).getByLabel('Title', { exact: true }).nth(0).inputValue(), 'Slide two');
      const cardsNow = section(page, 2);
      await page.waitForFunction(() => true);
      // A real pointer drag of the second card up past the first one's handle, kept away from the
      // viewport's edges, where dnd-kit would scroll the page under the pointer. The distance is
      // measured, not assumed: a row's height depends on the fonts the machine has.
      const handle2 = page.getByRole('button', { name: 'Drag item 2 of Cards C' });
      // Scrolled into view by whichever element scrolls (the shell's main area, not the window).
      await handle2.evaluate((el) => el.scrollIntoView({ block: 'end', behavior: 'instant' }));
      const from = await handle2.boundingBox();
      const to = await page.getByRole('button', { name: 'Drag item 1 of Cards C' }).boundingBox();
      const x = from.x + from.width / 2;
      await page.mouse.move(x, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(x, from.y - 10, { steps: 5 });
      await page.mouse.move(x, to.y - 20, { steps: 10 });
      await page.waitForTimeout(200);
      await page.mouse.up();
      await page.waitForTimeout(200);
      assert.equal(await cardsNow.getByLabel('Title', { exact: true }).nth(0).inputValue(), 'Card two');

      // Leaving asks first.
      await page.getByRole('link', { name: 'Home', exact: true }).click();
      const ask = page.getByRole('dialog', { name: 'Please confirm' });
      await ask.getByText('You have unsaved changes').waitFor();
      await ask.getByRole('button', { name: 'No' }).click();
      assert.match(page.url(), new RegExp(`/pages/${id}$`));

      const saved = page.waitForResponse((r) => r.url().endsWith(`/pages/${id}`) && r.request().method() === 'PATCH');
      await page.getByRole('button', { name: 'Save', exact: true }).last().click();
      assert.equal((await saved).status(), 200);
      await page.getByText('Page updated successfully!').waitFor();

      await page.reload();
      await page.getByRole('form', { name: 'Edit Page' }).waitFor();
      const html = await page.locator('.ql-editor').innerHTML();
      // The image is its original or, once its copies exist (describing it takes a moment), its copy.
      for (const want of ['<strong>bold</strong>', '<em>italic</em>', '<u>under</u>', '<s>struck</s>', `/media/demo/${imageRef.split('/')[0]}/`]) {
        assert.ok(html.includes(want), `content lacks ${want}: ${html}`);
      }
      const titles = await page.locator('section.section-card').evaluateAll((els) =>
        els.map((el) => el.querySelector('input[type="text"], input:not([type])')?.value),
      );
      assert.deepEqual(titles, ['Form F', 'Slider S', 'Cards C', 'Banner B', 'Story T', 'Embed E']);
      const sliderNow = section(page, 1);
      assert.equal(await sliderNow.getByLabel('Title', { exact: true }).nth(0).inputValue(), 'Slide two');
      assert.equal(await sliderNow.getByLabel('Title', { exact: true }).nth(1).inputValue(), 'Slide one');
      assert.equal(await sliderNow.locator('.media-picker-preview').count(), 1);
      assert.equal(await sliderNow.getByLabel('Background colour', { exact: true }).inputValue(), '#336699');
      assert.equal(await section(page, 2).getByLabel('Title', { exact: true }).nth(0).inputValue(), 'Card two');
      assert.equal(await section(page, 4).getByLabel('Text position').inputValue(), 'RIGHT');
      assert.equal(await section(page, 5).getByLabel('Embed URL (https)').inputValue(), 'https://www.youtube.com/embed/abc123');
      assert.equal(await section(page, 5).getByLabel('Embed type').inputValue(), 'YOUTUBE');
      assert.equal(await section(page, 0).getByLabel('Form', { exact: true }).inputValue(), form.body.result.id);

      // The server holds the same, positions 1..6.
      const stored = await callInPage(page, 'GET', `/pages/${id}`);
      assert.deepEqual(stored.body.result.pageSections.map((s) => [s.position, s.pageSectionType.slug]), [
        [1, 'form'], [2, 'slider'], [3, 'card-row'], [4, 'banner'], [5, 'text-image'], [6, 'embed'],
      ]);
    });
  });

  test('a stale save keeps what was typed; deleting a section', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      const id = await createPage(page, `E2E Stale ${RUN}`);
      await addSection(page, 'BANNER', 'Keep me');
      await page.getByRole('button', { name: 'Save', exact: true }).last().click();
      await page.getByText('Page updated successfully!').waitFor();

      await page.getByLabel('Title*').fill('My unsaved title');
      const current = await callInPage(page, 'GET', `/pages/${id}`);
      const other = await callInPage(page, 'PATCH', `/pages/${id}`, { title: 'Changed elsewhere', version: current.body.result.version });
      assert.equal(other.status, 200);
      await page.getByRole('button', { name: 'Save', exact: true }).last().click();
      await page.getByRole('alert').filter({ hasText: 'Someone else saved this page' }).waitFor();
      assert.equal(await page.getByLabel('Title*').inputValue(), 'My unsaved title');

      await page.getByRole('button', { name: 'Reload the latest version' }).click();
      await page.waitForFunction(() => document.querySelector('input[name="title"]')?.value === 'Changed elsewhere');
      // A deleted section goes with the page's Save (batch-save.test.mjs), which now succeeds.
      await section(page, 0).getByRole('button', { name: 'Delete section' }).click();
      await page.getByRole('dialog', { name: 'Please confirm' }).getByRole('button', { name: 'Yes' }).click();
      await section(page, 0).waitFor({ state: 'detached' });
      await page.getByLabel('Title*').fill('Saved after delete');
      const saved = page.waitForResponse((r) => r.url().endsWith(`/pages/${id}`) && r.request().method() === 'PATCH');
      await page.getByRole('button', { name: 'Save', exact: true }).last().click();
      assert.equal((await saved).status(), 200);
      const after = await callInPage(page, 'GET', `/pages/${id}`);
      assert.equal(after.body.result.pageSections.length, 0);
      assert.equal(after.body.result.title, 'Saved after delete');
    });
  });
});
