// Browser tests of issue 22, item 6 (errors look like empty data) against a running server
// (E2E_BASE_URL): a load that fails shows the server's message (or the generic one) with a Retry
// button, never 'No Records Found' or an empty grid; a 403 shows the server's 'You do not have
// permission to do this.' and no action the user cannot take, while the sidebar still lists every
// screen. Failures other than 403 are injected with page.route; the 403s are the server's own.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loginAndWait, useAdminBrowser } from './helpers.mjs';

const RUN = Date.now().toString(36);
const FORBIDDEN = 'You do not have permission to do this.';
const BUSY = 'The service is busy. Try again in a minute.';
const PASSWORD = 'Errors-pass-42';

const { withPage, call } = useAdminBrowser({ timeout: 20_000 });

const nav = (page) => page.getByRole('navigation', { name: 'Main' });
const panel = (page) => page.locator('main');
const row = (page, text) => page.locator('tbody tr', { hasText: text });

/** failing makes GETs of the tenant API path (exactly, any query) answer status with body until the returned undo runs. */
async function failing(page, path, status, body) {
  const url = new RegExp(`/api/v1/tenant${path}(\\?.*)?$`);
  const handler = (route) =>
    route.request().method() === 'GET'
      ? route.fulfill({ status, contentType: body === undefined ? 'text/plain' : 'application/json', body: body === undefined ? 'upstream error' : JSON.stringify(body) })
      : route.fallback();
  await page.route(url, handler);
  return () => page.unroute(url, handler);
}

/** open goes to a sidebar screen without a reload. */
async function open(page, label) {
  await nav(page).getByRole('link', { name: label, exact: true }).click();
}

/** alert is the load error shown in the screen's panel. */
const alert = (page, text) => panel(page).getByRole('alert').filter({ hasText: text });

/** userWith creates a user whose role holds permissionIds, and returns its username and role id. */
async function userWith(name, permissionIds) {
  const role = (await call('POST', '/roles', { name: `Errors ${name} ${RUN}`, permissionIds, status: true })).result;
  const username = `errors-${name}-${RUN}`;
  await call('POST', '/users', { firstName: 'Errors', lastName: name, username, password: PASSWORD, roleId: role.id, status: true });
  return { username, roleId: role.id };
}

describe('load errors', () => {
  test('a failed list load shows the server\'s message and Retry, never No Records Found; Retry loads it', async () => {
    const question = `Errors faq ${RUN}?`;
    const faq = (await call('POST', '/faqs', { question, answer: 'x', status: true })).result;
    try {
      await withPage(async (page) => {
        await loginAndWait(page);
        const undo = await failing(page, '/faqs', 503, { message: BUSY });
        await open(page, 'FAQs');
        await alert(page, BUSY).waitFor();
        assert.equal(await page.getByText('No Records Found').count(), 0);
        assert.equal(await page.getByRole('heading', { level: 2, name: 'Create FAQ' }).count(), 0, 'the heading does not call the list empty');
        assert.equal(await page.getByText(/^Showing /).count(), 0, 'no paginator');
        await undo();
        await alert(page, BUSY).getByRole('button', { name: 'Retry' }).click();
        await page.getByPlaceholder('Search by name').fill(question);
        await row(page, question).waitFor();
        assert.equal(await panel(page).getByRole('alert').count(), 0);
      });
    } finally {
      await call('DELETE', `/faqs/${faq.id}`);
    }
  });

  test('the Media Library: a failed load shows the message and Retry, never No Records Found', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      const undo = await failing(page, '/media', 503, { message: BUSY });
      await open(page, 'Media Library');
      await alert(page, BUSY).waitFor();
      assert.equal(await page.getByText('No Records Found').count(), 0);
      await undo();
      await alert(page, BUSY).getByRole('button', { name: 'Retry' }).click();
      await page.locator('.media-card').first().waitFor();
    });
  });

  test('themes, menu items and the header: a failure without a message shows the generic one with Retry', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      for (const [label, path, loaded] of [
        ['Themes', '/themes', (p) => panel(p).getByRole('list', { name: 'Themes' }).getByRole('listitem').first()],
        ['Menu Items', '/menu-items', (p) => p.getByText(/^Drag a row by its handle/)],
        ['Header', '/header', (p) => p.getByRole('button', { name: 'Save Changes' })],
      ]) {
        const undo = await failing(page, path, 500);
        await open(page, label);
        await alert(page, 'Some error occured!').waitFor();
        assert.equal(await loaded(page).count(), 0, `${label}: nothing to act on`);
        await undo();
        await alert(page, 'Some error occured!').getByRole('button', { name: 'Retry' }).click();
        await loaded(page).waitFor();
        assert.equal(await panel(page).getByRole('alert').count(), 0, `${label}: the error is gone`);
      }
    });
  });
});

describe('403', () => {
  test('without the permission: the server\'s message, no actions, and the sidebar still lists every screen', async () => {
    const { username } = await userWith('faq-only', ['CMS_VIEW_FAQ']);
    await withPage(async (page) => {
      await loginAndWait(page, { username, password: PASSWORD });
      for (const label of ['Header', 'Footer', 'Popups', 'FAQs', 'Themes', 'Theme Settings', 'Menu Items', 'Users', 'Roles']) {
        await nav(page).getByRole('link', { name: label, exact: true }).waitFor();
      }

      await open(page, 'Menu Items');
      await alert(page, FORBIDDEN).waitFor();
      assert.equal(await panel(page).getByRole('button', { name: /Add Menu Item|Save All Changes|Retry/ }).count(), 0);

      await open(page, 'Header');
      await alert(page, FORBIDDEN).waitFor();
      assert.equal(await panel(page).getByRole('button', { name: /Save Changes|Retry/ }).count(), 0);

      await open(page, 'Themes');
      await alert(page, FORBIDDEN).waitFor();
      assert.equal(await panel(page).getByRole('list', { name: 'Themes' }).count(), 0, 'no empty grid');
      assert.equal(await panel(page).getByRole('button', { name: 'Retry' }).count(), 0);

      assert.equal(await page.getByText('Some error occured!').count(), 0);
    });
  });

  test('rights taken away after login: the list says so and offers no Add, Edit or Delete', async () => {
    const { username, roleId } = await userWith('faq-all', ['CMS_VIEW_FAQ', 'CMS_CREATE_FAQ', 'CMS_EDIT_FAQ', 'CMS_DELETE_FAQ']);
    await withPage(async (page) => {
      await loginAndWait(page, { username, password: PASSWORD });
      await call('PATCH', `/roles/${roleId}`, { permissionIds: ['CMS_VIEW_POPUP'] });
      await open(page, 'FAQs');
      await alert(page, FORBIDDEN).waitFor();
      assert.equal(await panel(page).getByRole('button', { name: /^(Add FAQ|Edit|Delete|Retry)$/ }).count(), 0);
      assert.equal(await page.getByText('No Records Found').count(), 0);
    });
  });
});
