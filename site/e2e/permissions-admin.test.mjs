// Browser test of the Extra Permissions checkboxes (issue 22, item 9): only codes some route
// checks are offered, and an Administrator is shown holding every one (checked, disabled, with a
// note), since the server lets an administrator through every check.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loginAndWait, useAdminBrowser } from './helpers.mjs';

const { withPage, call } = useAdminBrowser();
const RUN = Date.now().toString(36);
const dialog = (page) => page.getByRole('dialog').filter({ has: page.locator('form') });
/** adminSwitch is the Administrator switch's label (Amplify's input sits under it; a role may be named Administrator too). */
const adminSwitch = (form) => form.locator('.amplify-switch__label', { hasText: /^Administrator$/ });

describe('extra permissions', () => {
  test('offer only meaningful codes and show an administrator holding all', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/users');
      await page.getByRole('button', { name: 'Add User' }).click();
      const form = dialog(page);
      const perms = form.getByRole('group', { name: 'Extra Permissions' });
      const footer = perms.getByRole('group', { name: 'Footer' });
      await footer.getByRole('checkbox', { name: 'Edit Footer' }).waitFor();
      // One footer: it is viewed and edited, never created or deleted. Plans are a fixed catalogue.
      assert.equal(await footer.getByRole('checkbox', { name: 'Create Footer' }).count(), 0);
      assert.equal(await footer.getByRole('checkbox', { name: 'Delete Footer' }).count(), 0);
      assert.equal(await perms.getByRole('checkbox', { name: 'Create Plans' }).count(), 0);
      assert.equal(await perms.getByRole('checkbox', { name: 'Delete Header' }).count(), 0);
      assert.equal(await perms.getByRole('checkbox', { name: 'Create Themes' }).count(), 0);

      const boxes = perms.getByRole('checkbox');
      const total = await boxes.count();
      assert.ok(total > 20, `${total} checkboxes`);
      assert.equal(await perms.getByRole('checkbox', { checked: true }).count(), 0);

      // Administrator on: every box checked and disabled, with the reason.
      await adminSwitch(form).click();
      await perms.getByText('An administrator holds every permission.').waitFor();
      assert.equal(await perms.getByRole('checkbox', { checked: true }).count(), total);
      assert.equal(await perms.locator('input[type=checkbox]:disabled').count(), total);

      // Off again: back to the user's own (none), editable.
      await adminSwitch(form).click();
      await perms.getByText('An administrator holds every permission.').waitFor({ state: 'detached' });
      assert.equal(await perms.getByRole('checkbox', { checked: true }).count(), 0);
      assert.equal(await perms.locator('input[type=checkbox]:disabled').count(), 0);
    });
  });

  test('the signed-in administrator is shown holding all', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/users');
      await page.getByPlaceholder('Search by name').fill('admin');
      await page.locator('tbody tr', { hasText: 'admin' }).first().getByRole('button', { name: 'Edit' }).click();
      const perms = dialog(page).getByRole('group', { name: 'Extra Permissions' });
      await perms.getByText('An administrator holds every permission.').waitFor();
      // The note shows before the list of permissions has loaded: count once the list is there.
      await perms.getByRole('checkbox').nth(20).waitFor();
      const total = await perms.getByRole('checkbox').count();
      assert.ok(total > 20);
      assert.equal(await perms.getByRole('checkbox', { checked: true }).count(), total);
    });
  });

  test('a role holding a code no longer offered saves without it, never refused for a box nobody sees', async () => {
    const name = `Stale codes ${RUN}`;
    const role = (await call('POST', '/roles', { name, permissionIds: ['CMS_VIEW_FAQ'], status: true })).result;
    try {
      await withPage(async (page) => {
        // The role as saved before the catalogue was narrowed: it also holds CMS_CREATE_FOOTER.
        await page.route(/\/api\/v1\/tenant\/roles(\/[^?]*)?(\?.*)?$/, async (route) => {
          if (route.request().method() !== 'GET') return route.fallback();
          const res = await route.fetch();
          const body = await res.json();
          const add = (r) => (r && r.id === role.id ? { ...r, permissionIds: [...r.permissionIds, 'CMS_CREATE_FOOTER'] } : r);
          body.result = Array.isArray(body.result) ? body.result.map(add) : add(body.result);
          await route.fulfill({ response: res, json: body });
        });
        await loginAndWait(page);
        await page.goto('/roles');
        await page.getByPlaceholder('Search by name').fill(name);
        await page.locator('tbody tr', { hasText: name }).getByRole('button', { name: 'Edit' }).click();
        const form = dialog(page);
        // The role's one offered code shows checked; the stale one has no box.
        await form.locator('.permissions-field input[type=checkbox]:checked').first().waitFor();
        const saved = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().includes(`/roles/${role.id}`));
        await form.getByRole('button', { name: 'Save', exact: true }).click();
        const sent = (await saved).postDataJSON();
        assert.deepEqual(sent.permissionIds, ['CMS_VIEW_FAQ']);
        await form.waitFor({ state: 'detached' });
        await page.unrouteAll({ behavior: 'ignoreErrors' });
      });
    } finally {
      await call('DELETE', `/roles/${role.id}`).catch(() => {});
    }
  });
});
