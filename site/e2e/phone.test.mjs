// Browser test of the panel on a phone (issue 41): a 390 × 844 touch screen. One sign-in, then the
// menu button opens the sidebar as a drawer (closed by default, closed by Esc, by a tap outside and
// when a screen is chosen, focus kept inside while open and given back to the button), and every
// sidebar screen is reached through it: on each, the page never scrolls sideways and axe finds
// nothing serious (touch target size included). Then, on the phone: a record edited and saved in
// its full-screen form, a submission deleted, a record deleted from its card and restored from the trash, and the command palette.
// The demo tenant is shared with other tests, so every record here is named by this run.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { join } from 'node:path';
import { SCREENSHOT_DIR, axeViolations, confirmYes, loginAndWait, useAdminBrowser } from './helpers.mjs';

const RUN = Date.now().toString(36);
const IMAGE_REF = '01HZZZZZZZZZZZZZZZZZZZZZZZ/e2e-photo.png';
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };

const { withPage, call } = useAdminBrowser({ timeout: 20_000 });

/** sideways lists what sticks out of the viewport when the page scrolls sideways (none: []). */
async function sideways(page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > width + 1 && ![...el.children].some((c) => c.getBoundingClientRect().right > width + 1)) {
        out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} right=${Math.round(r.right)}`);
      }
    }
    return [`page ${document.documentElement.scrollWidth}px wide in ${width}px`, ...out.slice(0, 8)];
  });
}

/** findings is axe's serious and critical findings in selector, with WCAG 2.5.8's target size on. */
const findings = (page, selector = '.shell') => axeViolations(page, selector, { 'target-size': { enabled: true } });

/** settle waits for the screen's loaders to go. */
async function settle(page) {
  await page.locator('main .amplify-loader, main [role="status"][aria-label^="Loading"]').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {});
  await page.waitForTimeout(100);
}

const menuButton = (page) => page.getByRole('button', { name: 'Menu', exact: true });
const drawer = (page) => page.getByRole('navigation', { name: 'Main' });

/** go opens the drawer and chooses label; the drawer closes and the screen's title shows. */
async function go(page, label) {
  await menuButton(page).tap();
  await drawer(page).getByRole('link', { name: label, exact: true }).tap();
  await drawer(page).waitFor({ state: 'hidden' });
}

/** size is an element's box. */
const size = async (loc) => {
  const b = await loc.boundingBox();
  return b ? { w: Math.round(b.width), h: Math.round(b.height) } : null;
};

describe('the panel on a phone', () => {
  test('drawer, every sidebar screen, edit and save, delete a submission, restore from the trash, the palette', async () => {
    const notice = (await call('POST', '/notices', { title: `Phone notice ${RUN}`, message: 'made by the phone test' })).result;
    const form = (
      await call('POST', '/custom-forms', {
        name: `Phone form ${RUN}`,
        status: true,
        image: IMAGE_REF,
        fields: JSON.stringify([{ id: 'NEW_1', label: 'Name', fieldType: 'text', required: true }]),
      })
    ).result;
    await call('POST', '/custom-form-submissions', { formId: form.id, Name: `Phone person ${RUN}` });
    try {
      await withPage(async (page) => {
        page.on('pageerror', (err) => console.log('page error:', err.message));
        await loginAndWait(page);

        // The drawer: closed by default, the menu button a full-size target that says so.
        const button = menuButton(page);
        assert.equal(await button.getAttribute('aria-expanded'), 'false');
        const controls = await button.getAttribute('aria-controls');
        assert.ok(controls && (await page.locator(`#${controls}`).count()) === 1, 'the button names the drawer');
        assert.equal(await drawer(page).isVisible(), false, 'the drawer is closed after signing in');
        const b = await size(button);
        assert.ok(b.w >= 44 && b.h >= 44, `the menu button is 44 × 44 (${JSON.stringify(b)})`);
        assert.deepEqual(await sideways(page), []);
        assert.deepEqual(await findings(page), [], 'the dashboard');
        await page.screenshot({ path: join(SCREENSHOT_DIR, 'e2e-phone-dashboard.png') });

        // Open: focus goes in and stays in; Esc closes it and gives focus back to the button.
        await button.tap();
        await drawer(page).waitFor();
        assert.equal(await button.getAttribute('aria-expanded'), 'true');
        const inDrawer = () => page.evaluate((id) => document.getElementById(id)?.contains(document.activeElement) ?? false, controls);
        assert.ok(await inDrawer(), 'focus moved into the drawer');
        const links = await drawer(page).getByRole('link').count();
        for (let i = 0; i < links + 3; i++) await page.keyboard.press('Tab');
        assert.ok(await inDrawer(), 'Tab stays in the drawer');
        await page.keyboard.press('Shift+Tab');
        assert.ok(await inDrawer(), 'Shift+Tab stays in the drawer');
        assert.deepEqual(await findings(page), [], 'the open drawer');
        await page.screenshot({ path: join(SCREENSHOT_DIR, 'e2e-phone-drawer.png') });
        await page.keyboard.press('Escape');
        await drawer(page).waitFor({ state: 'hidden' });
        assert.equal(await button.getAttribute('aria-expanded'), 'false');
        assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Menu', 'focus is back on the button');
        // A tap outside closes it too.
        await button.tap();
        await drawer(page).waitFor();
        await page.touchscreen.tap(380, 600);
        await drawer(page).waitFor({ state: 'hidden' });

        // Every sidebar screen, through the drawer.
        await button.tap();
        const names = await drawer(page).locator('.sidebar-label').allInnerTexts();
        await page.keyboard.press('Escape');
        assert.ok(names.length >= 30, `the sidebar's screens (${names.length})`);
        const problems = [];
        for (const name of names.map((n) => n.trim())) {
          const t0 = Date.now();
          await go(page, name);
          await page
            .getByRole('heading', { level: 1 })
            .waitFor()
            .catch(async () => assert.fail(`${name}: no title, ${page.url()}: ${(await page.locator('body').innerText()).slice(0, 300)}`));
          await settle(page);
          const wide = await sideways(page);
          if (wide.length) problems.push(`${name}: ${wide.join('; ')}`);
          const found = await findings(page).catch(async (err) => [`${err.message.split('\n')[0]}: ${(await page.locator('body').innerText()).slice(0, 300)}`]);
          if (found.length) problems.push(`${name}: ${found.join('; ')}`);
          if (process.env.PHONE_DEBUG) console.log(name, Date.now() - t0, 'ms');
          if (name === 'Pages') await page.screenshot({ path: join(SCREENSHOT_DIR, 'e2e-phone-list.png') });
        }
        assert.deepEqual(problems, []);

        // Edit and save a record: its row is a card with full-size actions; the form fills the screen.
        await go(page, 'Notices');
        await page.locator('main').getByLabel('Search', { exact: true }).fill(notice.title);
        const card = page.locator('tbody tr', { hasText: notice.title });
        await card.waitFor();
        const edit = card.getByRole('button', { name: 'Edit' });
        const e = await size(edit);
        assert.ok(e.h >= 44, `a row's action is full size (${JSON.stringify(e)})`);
        await edit.tap();
        const dialog = page.getByRole('dialog', { name: 'Edit Notice' });
        await dialog.waitFor();
        const d = await dialog.boundingBox();
        assert.ok(d.x <= 0 && d.width >= 390, `the form fills the screen (${JSON.stringify(d)})`);
        const title = dialog.getByRole('textbox', { name: /^Title/ });
        await title.waitFor();
        await page.waitForFunction(() => !document.querySelector('.modal form[aria-busy="true"]'));
        await title.fill(`Phone notice ${RUN} edited`);
        const save = dialog.getByRole('button', { name: 'Save', exact: true });
        assert.ok(await save.isVisible(), 'Save is on screen');
        const s = await size(save);
        assert.ok(s.h >= 44 && s.w >= 44, `Save is a primary action (${JSON.stringify(s)})`);
        assert.deepEqual(await sideways(page), []);
        assert.deepEqual(await findings(page, '.modal'), [], 'the record form');
        await page.screenshot({ path: join(SCREENSHOT_DIR, 'e2e-phone-editor.png') });
        await save.tap();
        await dialog.waitFor({ state: 'detached' });
        assert.equal((await call('GET', `/notices/${notice.id}`)).result.title, `Phone notice ${RUN} edited`);

        // Delete a submission on the phone.
        await page.goto(`/custom-forms/${form.id}/submissions`);
        await page.getByRole('heading', { level: 2, name: `Phone form ${RUN}: 1 Submissions` }).waitFor();
        assert.deepEqual(await sideways(page), []);
        assert.deepEqual(await findings(page), [], 'the submissions');
        const pick = page.getByRole('checkbox', { name: /^Select submission/ });
        await pick.locator('xpath=ancestor::label[1]').tap();
        await page.getByRole('button', { name: 'Delete selected (1)' }).tap();
        await confirmYes(page, 'Do you really want to delete?');
        await page.getByRole('heading', { level: 2, name: `Phone form ${RUN}: 0 Submissions` }).waitFor();

        // Restore it from the trash.
        const left = await call('GET', `/custom-form-submissions?formId=${form.id}&limit=10`);
        assert.equal(left.totalCount, 0, 'the submission is deleted');

        // Delete the notice from its card, then restore it from the trash.
        const edited = `Phone notice ${RUN} edited`;
        await go(page, 'Notices');
        await page.locator('main').getByLabel('Search', { exact: true }).fill(edited);
        const noticeCard = page.locator('tbody tr', { hasText: edited });
        await noticeCard.getByRole('button', { name: 'Delete' }).tap();
        await confirmYes(page, 'Do you really want to delete?');
        await noticeCard.waitFor({ state: 'detached' });
        await go(page, 'Trash');
        const entry = page.locator('tbody tr', { hasText: edited });
        await entry.waitFor();
        assert.deepEqual(await sideways(page), []);
        assert.deepEqual(await findings(page), [], 'the trash with an entry');
        await entry.getByRole('button', { name: /^Restore/ }).tap();
        await entry.waitFor({ state: 'detached' });
        assert.equal((await call('GET', `/notices/${notice.id}`)).result.title, edited, 'the notice is back');

        // The palette: the search button opens it, a tap on a result goes there.
        await page.getByRole('button', { name: /^Search/ }).tap();
        const box = page.getByRole('combobox', { name: 'Search or go to' });
        await box.waitFor();
        await box.fill('Audit');
        const palette = page.locator('.palette');
        assert.deepEqual(await sideways(page), []);
        assert.deepEqual(await findings(page, '.palette'), [], 'the palette');
        await page.getByRole('option', { name: /Audit Log/ }).first().tap();
        await page.waitForURL('**/audit-log');
        await palette.waitFor({ state: 'detached' });
      }, PHONE);
    } finally {
      await call('DELETE', `/custom-forms/${form.id}`).catch(() => {});
      await call('DELETE', `/notices/${notice.id}`).catch(() => {});
    }
  });
});
