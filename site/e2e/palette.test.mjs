// Browser tests of the command palette against a running server (E2E_BASE_URL): Ctrl + / opens it
// from anywhere with focus in its combobox, Esc closes it and gives focus back; typing words of a
// record's name (accents left out, any order) finds it, the arrows reach it and Enter opens its
// editor; it then heads the recent items. The demo tenant is shared with other tests, so every
// record here is named by this run.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { join } from 'node:path';
import { axeViolations, loginAndWait, SCREENSHOT_DIR, useAdminBrowser } from './helpers.mjs';

const RUN = Date.now().toString(36);

const { withPage, call } = useAdminBrowser({ timeout: 20_000 });

/** focused describes the focused element: its role (or tag) and its name or text. */
const focused = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return { role: el?.getAttribute('role') ?? el?.tagName.toLowerCase(), text: (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim() };
  });

/** activeOption is the text of the option the combobox's aria-activedescendant names ('' when none). */
const activeOption = (page) =>
  page.evaluate(() => {
    const id = document.activeElement?.getAttribute('aria-activedescendant');
    return (id && document.getElementById(id)?.textContent) || '';
  });

/** arrowTo presses ArrowDown until the active option contains text (a bounded number of times). */
async function arrowTo(page, text) {
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('ArrowDown');
    if ((await activeOption(page)).includes(text)) return;
  }
  assert.fail(`no option with ${text}; active: ${await activeOption(page)}`);
}

describe('command palette', () => {
  test('Ctrl + / opens it anywhere, Esc closes it and gives focus back; the header search opens it too', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      const home = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' });
      await home.focus();
      await page.keyboard.press('Control+/');
      const box = page.getByRole('combobox', { name: 'Search or go to' });
      await box.waitFor();
      await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'combobox');
      // Empty: the screens the admin may open, announced as a listbox of groups.
      assert.equal(await box.getAttribute('aria-expanded'), 'true');
      const list = page.getByRole('listbox', { name: 'Results' });
      await list.getByRole('group', { name: 'Screens' }).getByRole('option', { name: 'Audit Log' }).waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Command palette' }).waitFor({ state: 'detached' });
      assert.deepEqual(await focused(page), { role: 'a', text: 'HOHome' });

      const search = page.getByRole('button', { name: /^Search/ });
      await search.click();
      await box.waitFor();
      await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'combobox');
      // A screen by name: arrows then Enter go there.
      await box.fill('log aud');
      await arrowTo(page, 'Audit Log');
      await page.keyboard.press('Enter');
      await page.waitForURL('**/audit-log');
      await page.getByRole('heading', { level: 1, name: 'Audit Log' }).waitFor();
      await search.click();
      await box.waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Command palette' }).waitFor({ state: 'detached' });
      assert.match((await focused(page)).text, /^Search/);
    });
  });

  test('finds a page by words of its title out of order and without accents; Enter opens its editor; then it is recent', async () => {
    const title = `Palette Café Crème ${RUN}`;
    const created = (await call('POST', '/pages', { title, description: 'made by the palette test' })).result;
    const id = created.id;
    assert.ok(id, 'the page has an id');
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.keyboard.press('Control+/');
      const box = page.getByRole('combobox', { name: 'Search or go to' });
      await box.waitFor();
      await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'combobox');
      // Typed at 20 ms a key, the search waits for the typing to rest: one round of requests.
      const searches = [];
      page.on('request', (r) => {
        if (/\/api\/v1\/tenant\/pages\?search=/.test(r.url())) searches.push(decodeURIComponent(new URL(r.url()).searchParams.get('search')));
      });
      await box.pressSequentially(`creme ${RUN} caf`, { delay: 20 });
      const pages = page.getByRole('group', { name: 'Pages' });
      await pages.getByRole('option', { name: title }).waitFor();
      assert.deepEqual(searches, [`creme ${RUN} caf`]);
      // The live region says how many results there are.
      await page.getByRole('status').filter({ hasText: /^\d+ results?$/ }).waitFor();
      assert.deepEqual(await axeViolations(page, '.palette'), []);
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'e2e-palette.png') });

      await arrowTo(page, title);
      assert.equal(await page.getByRole('option', { name: title }).getAttribute('aria-selected'), 'true');
      await page.keyboard.press('Enter');
      await page.waitForURL(`**/pages/${id}`);
      await page.getByRole('heading', { level: 1, name: 'Edit Page' }).waitFor();
      await page.waitForFunction((t) => document.querySelector('input[value]') && [...document.querySelectorAll('input')].some((i) => i.value === t), title);

      // Reopened empty, the page heads the recent items.
      await page.keyboard.press('Control+/');
      await box.waitFor();
      const recent = page.getByRole('group', { name: 'Recent' }).getByRole('option');
      assert.match((await recent.first().textContent()) ?? '', new RegExp(`^${title}`));
      await page.keyboard.press('Escape');
    });
  });

  test('a notice found by name opens its edit form on the Notices list', async () => {
    const title = `Palette notice Über ${RUN}`;
    await call('POST', '/notices', { title, message: 'made by the palette test' });
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.keyboard.press('Control+/');
      const box = page.getByRole('combobox', { name: 'Search or go to' });
      await box.waitFor();
      await box.fill(`uber ${RUN}`);
      await page.getByRole('group', { name: 'Notices' }).getByRole('option', { name: title }).click();
      await page.waitForURL('**/notices');
      const dialog = page.getByRole('dialog', { name: 'Edit Notice' });
      await dialog.waitFor();
      await page.waitForFunction((t) => [...document.querySelectorAll('.modal input')].some((i) => i.value === t), title);
    });
  });
});
