// Browser tests of the website-settings screens: the menu builder (drag and drop by mouse and
// keyboard), themes, theme settings, header and footer. They run against the demo tenant, whose
// menu (but for batch-save.test.mjs's items, added and removed by label), theme and header/footer
// no other test file touches.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ADMIN_PASSWORD, ADMIN_USER, TINY_PNG, apiCall, loginAndWait, useBrowser, describeImage } from './helpers.mjs';

const RUN = Date.now().toString(36);

let adminToken;

/** call makes one API request as the admin (or with another token, or none). */
const call = (method, path, body, token = adminToken) => apiCall(method, path, body, token);

const withPage = useBrowser({
  timeout: 20_000,
  beforeAll: async () => {
    adminToken = (await call('POST', '/auth/login', { username: ADMIN_USER, password: ADMIN_PASSWORD }, null)).result.token;
  },
});

const menuRow = (page, label) => page.locator(`li[data-menu-item="${label}"]`);
const depthOf = (page, label) => menuRow(page, label).getAttribute('data-depth');

/** drag moves a row by its handle: dx right (nest) or left (move out), dy down or up. */
async function drag(page, label, dx, dy = 0) {
  const box = await page.getByRole('button', { name: `Drag ${label}`, exact: true }).boundingBox();
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + Math.sign(dx || 1) * 8, y, { steps: 2 });
  await page.mouse.move(x + dx, y + dy, { steps: 12 });
  await page.mouse.up();
}

async function toast(page, text) {
  await page.getByText(text, { exact: true }).first().waitFor();
}

describe('website settings screens', () => {
  test('menu: drag under another and back, refuse a parent into the child level, keyboard, save and reload', async () => {
    // A known menu: three fresh items.
    const { version } = await call('GET', '/menu-items');
    await call('PATCH', '/menu-items', { menuItems: [], version });
    const [a, b, c] = ['Home', 'About', 'News'].map((l) => `${l}-${RUN}`);
    const id = {};
    for (const label of [a, b, c]) id[label] = (await call('POST', '/menu-items', { label, url: '#', type: 'CUSTOM_URL', status: true })).result.id;

    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/menu-items');
      await page.getByRole('heading', { name: 'Organize your menu' }).waitFor();
      await menuRow(page, c).waitFor();

      // Drag B right: it becomes a child of A. Then back left: top level again.
      await drag(page, b, 70);
      await page.waitForFunction((l) => document.querySelector(`li[data-menu-item="${l}"]`)?.dataset.depth === '1', b);
      await drag(page, b, -70);
      await page.waitForFunction((l) => document.querySelector(`li[data-menu-item="${l}"]`)?.dataset.depth === '0', b);
      await drag(page, b, 70);
      await page.waitForFunction((l) => document.querySelector(`li[data-menu-item="${l}"]`)?.dataset.depth === '1', b);

      // A now has a child: dragging it into the child level is refused.
      await drag(page, c, 70); // C under A too, after B
      await page.waitForFunction((l) => document.querySelector(`li[data-menu-item="${l}"]`)?.dataset.depth === '1', c);
      await drag(page, c, -70);
      await page.waitForFunction((l) => document.querySelector(`li[data-menu-item="${l}"]`)?.dataset.depth === '0', c);
      // Move C above A by keyboard (Space, ArrowUp over B, ArrowUp over A, Space), each step
      // awaited through dnd-kit's screen-reader announcement; then try to nest A (a parent) under C.
      const handle = page.getByRole('button', { name: `Drag ${c}`, exact: true });
      await handle.focus();
      await page.keyboard.press('Space');
      await page.locator(`li[data-menu-item="${c}"].menu-row--dragging`).waitFor();
      await page.waitForTimeout(150); // dnd-kit measures the droppables after pick-up
      for (const over of [b, a]) {
        await page.keyboard.press('ArrowUp');
        await page.getByText(`was moved over droppable area ${id[over]}.`).waitFor({ state: 'attached' });
      }
      await page.keyboard.press('Space');
      await page.waitForFunction(
        (labels) => [...document.querySelectorAll('li[data-menu-item]')].map((li) => li.dataset.menuItem).join('|') === labels,
        [c, a, b].join('|'),
      );
      await drag(page, a, 70);
      await toast(page, 'An item with children cannot move into another level.');
      assert.equal(await depthOf(page, a), '0');
      assert.equal(await depthOf(page, b), '1');

      // Leaving with unsaved changes asks first.
      await page.getByRole('link', { name: 'Home', exact: true }).click();
      const ask = page.getByRole('dialog').filter({ hasText: 'You have unsaved changes' });
      await ask.waitFor();
      await ask.getByRole('button', { name: 'No' }).click();
      assert.match(page.url(), /\/menu-items$/);

      // Edit C in the panel, save everything, reload: the tree is as left.
      await page.getByRole('button', { name: `Edit ${c}` }).click();
      const panel = page.getByRole('region', { name: 'Edit menu item' });
      await panel.getByLabel('URL').fill('/news');
      await page.getByRole('button', { name: 'Save All Changes' }).click();
      await toast(page, 'Menu Items Updated');
      await page.reload();
      await menuRow(page, b).waitFor();
      const order = await page.locator('li[data-menu-item]').evaluateAll((els) => els.map((li) => `${li.dataset.menuItem}:${li.dataset.depth}`));
      assert.deepEqual(order, [`${c}:0`, `${a}:0`, `${b}:1`]);
      const saved = await call('GET', '/menu-items');
      assert.equal(saved.result[0].url, '/news');
      assert.equal(saved.result[1].children[0].label, b);

      // Add and delete, after a confirmation: the draft's until saved (batch-save.test.mjs).
      await page.getByRole('button', { name: '+ Add Menu Item' }).click();
      await menuRow(page, 'Link').waitFor();
      await page.getByRole('button', { name: 'Delete Link' }).click();
      const confirm = page.getByRole('dialog').filter({ hasText: 'Do you really want to delete?' });
      await confirm.getByRole('button', { name: 'Yes' }).click();
      await menuRow(page, 'Link').waitFor({ state: 'detached' });
    });
  });

  test('themes: a click activates a theme, marked after a reload', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/themes');
      const grid = page.getByRole('list', { name: 'Themes' });
      await grid.waitFor();
      const cards = grid.getByRole('listitem');
      assert.ok((await cards.count()) >= 4);
      const target = (await grid.getByRole('listitem', { name: 'Theme Modern (active)' }).count()) ? 'Campus' : 'Modern';
      await grid.getByRole('listitem', { name: `Theme ${target}`, exact: true }).click();
      await toast(page, `Active theme now updated to ${target}!`);
      await grid.getByRole('listitem', { name: `Theme ${target} (active)` }).waitFor();
      await page.reload();
      await page.getByRole('listitem', { name: `Theme ${target} (active)` }).waitFor();
      assert.equal(await page.getByRole('listitem', { name: /\(active\)$/ }).count(), 1);
      const info = await call('GET', '/auth/tenant-info', undefined, null);
      assert.equal(info.result.themeSetting.theme, target.toLowerCase());
    });
  });

  test('theme settings: font and palette are saved and reloaded', async () => {
    const { result } = await call('GET', '/theme-settings');
    const font = result.fontFamily === 'Georgia' ? 'Verdana' : 'Georgia';
    const palette = result.colorSchemeName === 'Green' ? 'Purple' : 'Green';
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/theme-settings');
      await page.getByLabel('Font Family').selectOption(font);
      await page.getByRole('radio', { name: `Palette ${palette}` }).click();
      await page.getByLabel('Custom CSS').fill('body { letter-spacing: 0.01em; }');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await toast(page, 'Theme settings updated!');
      await page.reload();
      await page.getByRole('radio', { name: `Palette ${palette}`, checked: true }).waitFor();
      assert.equal(await page.getByLabel('Font Family').inputValue(), font);
      assert.equal(await page.getByLabel('Custom CSS').inputValue(), 'body { letter-spacing: 0.01em; }');
      // Stored as text for the public site, never applied to the panel.
      assert.equal(await page.evaluate(() => [...document.querySelectorAll('style')].some((s) => s.textContent.includes('letter-spacing: 0.01em'))), false);
    });
  });

  for (const screen of [
    { path: '/header', saved: 'Header settings updated!', text: 'Title', value: `Campus ${RUN}` },
    { path: '/footer', saved: 'Footer settings updated!', text: 'Copyright Text', value: `© ${RUN} Campus` },
  ]) {
    test(`${screen.path}: save with a logo from the media picker and reload`, async () => {
      await withPage(async (page) => {
        await loginAndWait(page);
        await page.goto(screen.path);
        const form = page.locator('form');
        await form.getByLabel(screen.text, { exact: true }).fill(screen.value);
        await form.getByLabel('Background Colour', { exact: true }).fill('#123456');
        const logo = form.getByRole('group', { name: 'Logo' });
        // 'Select image' on a fresh tenant, 'Change' once a logo is set.
        await logo.getByRole('button', { name: /^(Select image|Change)$/ }).click();
        const picker = page.getByRole('dialog', { name: /Choose an image/ });
        await picker.getByLabel('Choose a file').setInputFiles({ name: `logo-${RUN}.png`, mimeType: 'image/png', buffer: TINY_PNG });
        await picker.getByRole('button', { name: 'Upload' }).click();
        await picker.waitFor({ state: 'detached' });
        await describeImage(page, 'Institution logo');
        await logo.locator('img').waitFor();
        await form.getByRole('button', { name: 'Save Changes' }).click();
        await toast(page, screen.saved);
        await page.reload();
        await page.locator('form').getByRole('group', { name: 'Logo' }).locator('img').waitFor();
        assert.equal(await page.locator('form').getByLabel(screen.text, { exact: true }).inputValue(), screen.value);
        assert.equal(await page.locator('form').getByLabel('Background Colour', { exact: true }).inputValue(), '#123456');
        // The preview shows the logo's small copy (or the original until it exists) of the file saved.
        const logoImg = page.locator('form').getByRole('group', { name: 'Logo' }).locator('img');
        assert.match(await logoImg.getAttribute('data-file'), new RegExp(`/logo-${RUN}\\.png$`));
        assert.match(await logoImg.getAttribute('src'), new RegExp(`/(w/thumb|logo-${RUN}\\.png)$`));
      });
    });
  }

  test('plans: the current plan is marked', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/plans');
      await page.getByRole('listitem', { name: /\(current\)$/ }).waitFor();
      assert.equal(await page.getByRole('listitem', { name: /\(current\)$/ }).count(), 1);
      await page.goto('/seo-setting');
      await page.getByLabel('Default Title').fill(`Campus ${RUN}`);
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await toast(page, 'SEO settings updated!');
    });
  });
});
