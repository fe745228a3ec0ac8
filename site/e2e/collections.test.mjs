// Browser tests of the generic collection screens and the header bell against a running
// server (E2E_BASE_URL). Every test makes its own uniquely named data, so order does not matter.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { join } from 'node:path';
import { ADMIN_PASSWORD, ADMIN_USER, SCREENSHOT_DIR, TENANT, TINY_PNG, apiCall, confirmYes, loginAndWait, useBrowser, describeImage } from './helpers.mjs';

const RUN = Date.now().toString(36);
// A well-formed media reference ({ulid}/{name}); the collections API checks the shape only.
const IMAGE_REF = '01HZZZZZZZZZZZZZZZZZZZZZZZ/e2e-photo.png';

let adminToken;
let seq = 0;
const uid = (prefix) => `${prefix}-${RUN}-${++seq}`;

/** seed creates a record through the API (fast set-up for the screen under test). */
const seed = (path, body) => call('POST', path, body);

/** call makes one API request as the admin (or with another token, or none). */
const call = (method, path, body, token = adminToken) => apiCall(method, path, body, token);

async function apiLogin(username, password) {
  const res = await call('POST', '/auth/login', { username, password }, null);
  return res.result.token;
}

const withPage = useBrowser({
  beforeAll: async () => {
    adminToken = await apiLogin(ADMIN_USER, ADMIN_PASSWORD);
  },
});


/** openList goes to a collection screen and narrows it to rows matching search. */
async function openList(page, path, search) {
  await page.goto(path);
  await page.getByPlaceholder('Search by name').waitFor();
  if (search !== undefined) await page.getByPlaceholder('Search by name').fill(search);
}

const dialog = (page) => page.getByRole('dialog').filter({ has: page.locator('form') });
const row = (page, text) => page.locator('tbody tr', { hasText: text });


describe('generic collection screens', () => {
  test('FAQs: create, edit, cancel and delete with their toasts', async () => {
    const question = uid('faq');
    await withPage(async (page) => {
      await loginAndWait(page);
      await openList(page, '/faqs', question);
      await page.getByText('No Records Found').waitFor();
      await page.getByRole('heading', { level: 2, name: 'Create FAQ' }).waitFor();

      await page.getByRole('button', { name: 'Add FAQ' }).click();
      const form = dialog(page);
      await form.waitFor();
      await form.getByRole('switch').waitFor();
      assert.ok(await form.getByText('Enable', { exact: true }).isVisible(), 'status switch reads Enable');
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      await form.getByText('Question is required!').waitFor();
      await form.getByText('Answer is required!').waitFor();

      await form.getByLabel('Question*').fill(question);
      await form.getByLabel('Answer*').fill('An answer that is clearly longer than thirty characters in total.');
      await form.getByLabel('Position').fill('3');
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('FAQ created successfully!').waitFor();
      await form.waitFor({ state: 'detached' });

      const r = row(page, question);
      await r.waitFor();
      await page.getByRole('heading', { level: 2, name: '1 FAQ Created' }).waitFor();
      await r.getByText('Active').waitFor();
      const answerCell = r.locator('[title^="An answer that is clearly"]');
      assert.equal((await answerCell.textContent()).length, 33, 'trimmed at 30 characters plus "..."');
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'e2e-faqs.png'), fullPage: true });

      // Edit: change the answer and switch the status off.
      await r.getByRole('button', { name: 'Edit' }).click();
      await form.waitFor();
      await form.getByLabel('Answer*').fill('Short answer');
      // Amplify's switch input sits under its label; click the label like a user does.
      await form.getByText('Enable', { exact: true }).click();
      await form.getByText('Disabled', { exact: true }).waitFor();
      assert.equal(await form.getByRole('switch').isChecked(), false);
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('FAQ updated successfully!').waitFor();
      await r.getByText('Short answer').waitFor();
      await r.getByText('Inactive').waitFor();

      // Cancel asks first.
      await r.getByRole('button', { name: 'Edit' }).click();
      await form.waitFor();
      await form.getByRole('button', { name: 'Cancel' }).click();
      await confirmYes(page, 'Are you sure to cancel?');
      await form.waitFor({ state: 'detached' });

      // Delete asks first.
      await r.getByRole('button', { name: 'Delete' }).click();
      await confirmYes(page, 'Do you really want to delete?');
      await page.getByText('FAQ Deleted Successfully!').waitFor();
      await page.getByText('No Records Found').waitFor();
    });
  });

  test('a stale edit shows the conflict and reloads; server field errors show inline', async () => {
    const question = uid('faq-stale');
    const created = await call('POST', '/faqs', { question, answer: 'first', status: true });
    await withPage(async (page) => {
      await loginAndWait(page);
      await openList(page, '/faqs', question);
      await row(page, question).getByRole('button', { name: 'Edit' }).click();
      const form = dialog(page);
      await form.getByLabel('Answer*').fill('mine');
      // Someone else saves first.
      await call('PATCH', `/faqs/${created.result.id}`, { answer: 'theirs', version: created.result.version });
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      const stale = 'This record was changed by someone else. Reload and try again.';
      await form.getByRole('alert').filter({ hasText: stale }).waitFor();
      await form.getByRole('button', { name: 'Reload' }).click();
      await page.waitForFunction(() => document.querySelector('[role="alert"] button') === null);
      assert.equal(await form.getByLabel('Answer*').inputValue(), 'theirs');
      await form.getByLabel('Answer*').fill('mine again');
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('FAQ updated successfully!').waitFor();
      await row(page, question).getByText('mine again').waitFor();
    });
    await withPage(async (page) => {
      await loginAndWait(page);
      await openList(page, '/newsletter-signups', 'no-such-signup-' + RUN);
      await page.getByRole('button', { name: 'Add Newsletter Signup' }).click();
      const form = dialog(page);
      await form.getByLabel('Email*').fill('not-an-email@');
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      // The server's 400 names the field: toast plus inline message.
      await form.getByText('Please enter a valid email!').waitFor();
      assert.ok((await page.getByText('Please enter a valid email!').count()) >= 2, 'toast and inline message');
    });
  });

  test('albums edit their description as rich text', async () => {
    const title = uid('album-rt');
    await withPage(async (page) => {
      await loginAndWait(page);
      await openList(page, '/albums', title);
      await page.getByRole('button', { name: 'Add Album' }).click();
      const form = dialog(page);
      await form.getByLabel('Title*').fill(title);
      const editor = form.locator('.ql-editor');
      await editor.click();
      await page.keyboard.press('Control+b');
      await page.keyboard.type('Bold start');
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Album created successfully!').waitFor();
      await row(page, title).getByRole('button', { name: 'Edit' }).click();
      await form.locator('.ql-editor strong', { hasText: 'Bold start' }).waitFor();
    });
    const res = await call('GET', `/albums?search=${encodeURIComponent(title)}&page=1&limit=5`);
    assert.match(res.result[0].description, /<strong>Bold\sstart<\/strong>/);
  });

  test('events take dates from date inputs', async () => {
    const title = uid('event');
    await withPage(async (page) => {
      await loginAndWait(page);
      await openList(page, '/events', title);
      await page.getByText('No Records Found').waitFor();
      await page.getByRole('button', { name: 'Add Event' }).click();
      const form = dialog(page);
      await form.getByLabel('Title*').fill(title);
      assert.equal(await form.getByLabel('Start Date*').getAttribute('type'), 'date');
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      await form.getByText('Start Date is required!').waitFor();
      await form.getByLabel('Start Date*').fill('2026-05-01');
      await form.getByLabel('End Date').fill('2026-05-03');
      await form.getByLabel('Location').fill('Main hall');
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Event created successfully!').waitFor();
      const r = row(page, title);
      await r.getByText('2026-05-01').waitFor();
      await r.getByText('2026-05-03').waitFor();
      await r.getByRole('button', { name: 'Edit' }).click();
      await form.waitFor();
      assert.equal(await form.getByLabel('Start Date*').inputValue(), '2026-05-01');
      await form.getByLabel('End Date').fill('2026-05-04');
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Event updated successfully!').waitFor();
      await r.getByText('2026-05-04').waitFor();
    });
  });

  test('photos choose an album and show the album name and size', async () => {
    const albumTitle = uid('album');
    const caption = uid('photo');
    await call('POST', '/albums', { title: albumTitle, status: true });
    await withPage(async (page) => {
      await loginAndWait(page);
      await openList(page, '/photos', caption);
      await page.getByText('No Records Found').waitFor();
      await page.getByRole('button', { name: 'Add Photo' }).click();
      const form = dialog(page);
      const album = form.getByLabel('Album');
      await album.locator('option', { hasText: albumTitle }).waitFor({ state: 'attached' });
      await album.selectOption({ label: albumTitle });
      // The image comes through the media picker: upload a new one, which also chooses it.
      await form.getByRole('group', { name: 'Image' }).getByRole('button', { name: 'Select image' }).click();
      const picker = page.getByRole('dialog', { name: /Choose an image/ });
      await picker.getByLabel('Choose a file').setInputFiles({ name: `${caption}.png`, mimeType: 'image/png', buffer: TINY_PNG });
      await picker.getByRole('button', { name: 'Upload' }).click();
      await picker.waitFor({ state: 'detached' });
      await describeImage(page, `Photo ${caption}`);
      await form.getByRole('group', { name: 'Image' }).locator('img').waitFor();
      await form.getByLabel('Caption').fill(caption);
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Photo created successfully!').waitFor();
      const r = row(page, caption);
      await r.getByText(albumTitle).waitFor();
      // The size is the uploaded file's, taken by the server from the media library.
      await r.getByText(`${Math.round((TINY_PNG.length / 1024) * 100) / 100} KB`).waitFor();
      assert.match(await r.locator('img').getAttribute('data-file'), new RegExp(`^[0-9A-Z]{26}/${caption}\\.png$`));
      // The list shows the small copy (or the original until it exists).
      const src = await r.locator('img').getAttribute('src');
      assert.match(src, new RegExp(`^/media/${TENANT}/[0-9A-Z]{26}/(w/thumb|${caption}\\.png)$`));
      // The image is served from the media path.
      const res = await page.request.get(src);
      assert.equal(res.status(), 200);
    });
  });

  test('users: choose a role, set a password, and the new user can log in', async () => {
    const roleName = uid('role');
    const username = uid('user').toLowerCase();
    const password = 'Secret-pass-42';
    await call('POST', '/roles', { name: roleName, permissionIds: ['CMS_VIEW_FAQ'], status: true });
    await withPage(async (page) => {
      await loginAndWait(page);
      await openList(page, '/users', username);
      await page.getByText('No Records Found').waitFor();
      await page.getByRole('button', { name: 'Add User' }).click();
      const form = dialog(page);
      await form.getByLabel('First Name*').fill('Eve');
      await form.getByLabel('Last Name*').fill('Tester');
      await form.getByLabel('Username*').fill(username);
      await form.getByLabel('Password', { exact: true }).fill(password);
      const role = form.getByRole('combobox', { name: 'Role' });
      await role.locator('option', { hasText: roleName }).waitFor({ state: 'attached' });
      await role.selectOption({ label: roleName });
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('User created successfully!').waitFor();
      const r = row(page, username);
      await r.getByText(roleName).waitFor();
      // Editing never shows the password and keeps it when left empty.
      await r.getByRole('button', { name: 'Edit' }).click();
      await form.waitFor();
      assert.equal(await form.getByLabel('Password', { exact: true }).inputValue(), '');
      assert.equal(await form.getByLabel('Password', { exact: true }).getAttribute('placeholder'), 'Only Enter if you want to change');
      await form.getByLabel('Last Name*').fill('Tested');
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('User updated successfully!').waitFor();
    });
    await withPage(async (page) => {
      await loginAndWait(page, { username, password });
    });
  });

  test('paginator: ellipses, page buttons, go to page and its check', async () => {
    const prefix = uid('pg');
    const names = Array.from({ length: 60 }, (_, i) => `${prefix}-${String(i + 1).padStart(2, '0')}`);
    for (let i = 0; i < names.length; i += 10) {
      await Promise.all(names.slice(i, i + 10).map((q) => seed('/faqs', { question: q, answer: 'seeded', status: true })));
    }
    await withPage(async (page) => {
      await loginAndWait(page);
      await openList(page, '/faqs', prefix);
      await page.getByText('Showing 1 - 10 of 60').waitFor();
      await page.getByRole('heading', { level: 2, name: '60 FAQs Created' }).waitFor();
      assert.equal(await page.locator('tbody tr').count(), 10);

      await page.getByLabel('Rows per page').selectOption('5');
      await page.getByText('Showing 1 - 5 of 60').waitFor();
      await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 5);
      const pager = page.getByRole('navigation', { name: 'Pagination' });
      assert.equal(await pager.getByRole('button', { name: /^Page \d+$/ }).count(), 10);
      assert.equal(await pager.getByText('…').count(), 1);

      assert.equal(await pager.getByRole('button', { name: 'Page 11' }).count(), 0, 'page 11 hidden behind the ellipsis');
      await pager.getByRole('button', { name: 'Page 12' }).click();
      await page.getByText('Showing 56 - 60 of 60').waitFor();
      assert.equal(await pager.getByRole('button', { name: 'Page 2' }).count(), 0, 'page 2 hidden behind the ellipsis');
      assert.equal(await pager.getByRole('button', { name: /^Page \d+$/ }).count(), 10);
      await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 5);

      const goTo = page.getByLabel('Go to Page (1 - 12)');
      await goTo.fill('13');
      await page.getByRole('button', { name: 'Go', exact: true }).click();
      await page.getByText('Please enter a valid page!').first().waitFor();
      await goTo.fill('7');
      await page.getByRole('button', { name: 'Go', exact: true }).click();
      await page.getByText('Showing 31 - 35 of 60').waitFor();
      assert.equal(await pager.getByRole('button', { name: 'Page 7' }).getAttribute('aria-current'), 'page');
      assert.equal(await pager.getByText('…').count(), 1);
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'e2e-paginator.png'), fullPage: true });
    });
  });

  test('sorting toggles ascending and descending', async () => {
    const prefix = uid('srt');
    await Promise.all(['b', 'a', 'c'].map((s) => seed('/faqs', { question: `${prefix} ${s}`, answer: 'x', status: true })));
    await withPage(async (page) => {
      await loginAndWait(page);
      await openList(page, '/faqs', prefix);
      await page.getByText('Showing 1 - 3 of 3').waitFor();
      const header = page.locator('th', { hasText: 'Question' });
      assert.equal(await header.getAttribute('aria-sort'), 'none');
      await header.getByRole('button').click();
      await page.waitForFunction(() => document.querySelector('tbody tr')?.textContent?.includes(' a'));
      assert.equal(await header.getAttribute('aria-sort'), 'ascending');
      assert.match(await page.locator('tbody tr').first().textContent(), new RegExp(`${prefix} a`));
      await header.getByRole('button').click();
      await page.waitForFunction(() => document.querySelector('tbody tr')?.textContent?.includes(' c'));
      assert.equal(await header.getAttribute('aria-sort'), 'descending');
      assert.match(await page.locator('tbody tr').last().textContent(), new RegExp(`${prefix} a`));
    });
  });

  test('search is server-side and narrows the list', async () => {
    const a = uid('srch-alpha');
    const b = uid('srch-beta');
    await call('POST', '/faqs', { question: a, answer: 'x', status: true });
    await call('POST', '/faqs', { question: b, answer: 'x', status: true });
    await withPage(async (page) => {
      await loginAndWait(page);
      const searches = [];
      page.on('request', (r) => {
        const u = new URL(r.url());
        if (u.pathname.endsWith('/faqs') && u.searchParams.get('search')) searches.push(u.searchParams.get('search'));
      });
      await openList(page, '/faqs', a);
      await row(page, a).waitFor();
      await page.getByText('Showing 1 - 1 of 1').waitFor();
      assert.equal(await row(page, b).count(), 0);
      assert.ok(searches.includes(a), 'the search went to the server');
      await page.getByPlaceholder('Search by name').fill(`${a}-nothing`);
      await page.getByText('No Records Found').waitFor();
    });
  });

  test('a VIEW-only user sees no Add, Edit or Delete', async () => {
    const roleName = uid('viewer');
    const username = uid('viewer').toLowerCase();
    const password = 'Viewer-pass-42';
    const question = uid('faq-view');
    const role = await call('POST', '/roles', { name: roleName, permissionIds: ['CMS_VIEW_FAQ'], status: true });
    await call('POST', '/users', { firstName: 'View', lastName: 'Only', username, password, roleId: role.result.id, status: true });
    await call('POST', '/faqs', { question, answer: 'x', status: true });
    await withPage(async (page) => {
      await loginAndWait(page, { username, password });
      await openList(page, '/faqs', question);
      await row(page, question).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Add FAQ' }).count(), 0);
      assert.equal(await row(page, question).getByRole('button', { name: 'Edit' }).count(), 0);
      assert.equal(await row(page, question).getByRole('button', { name: 'Delete' }).count(), 0);
      // Another category is not viewable at all.
      await page.goto('/events');
      await page.getByText('You do not have permission to view Events.').waitFor();
    });
  });

  test('roles edit permissions as grouped checkboxes', async () => {
    const roleName = uid('editors');
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.getByRole('link', { name: 'Roles' }).click();
      await page.waitForURL('**/roles');
      await page.getByRole('button', { name: 'Add Role' }).click();
      const form = dialog(page);
      await form.getByLabel('Name*').fill(roleName);
      const group = form.getByRole('group', { name: 'FAQs' });
      await group.getByText('View FAQs', { exact: true }).click();
      await group.getByText('Edit FAQs', { exact: true }).click();
      assert.equal(await group.getByRole('checkbox', { name: 'View FAQs' }).isChecked(), true);
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Role created successfully!').waitFor();
    });
    const roles = await call('GET', `/roles?search=${encodeURIComponent(roleName)}&limit=5&page=1`);
    assert.deepEqual([...roles.result[0].permissionIds].sort(), ['CMS_EDIT_FAQ', 'CMS_VIEW_FAQ']);
  });

  test('custom forms list links to the builder and submissions', async () => {
    const name = uid('form');
    const created = await call('POST', '/custom-forms', { name, image: IMAGE_REF, fields: '[]', status: true });
    await withPage(async (page) => {
      await loginAndWait(page);
      await openList(page, '/custom-forms', name);
      const r = row(page, name);
      await r.getByRole('link', { name: 'View Submissions' }).click();
      await page.waitForURL(`**/custom-forms/${created.result.id}/submissions`);
      await page.goBack();
      await page.getByPlaceholder('Search by name').fill(name);
      await row(page, name).getByRole('button', { name: 'Edit' }).click();
      await page.waitForURL(`**/custom-forms/${created.result.id}`);
      await page.goBack();
      await page.getByRole('button', { name: 'Add Form' }).click();
      await page.waitForURL('**/custom-forms/create');
    });
  });
});

describe('header bell', () => {
  test('shows unread notifications and marks them read on opening', async () => {
    const titles = [uid('note'), uid('note')];
    const ids = [];
    for (const title of titles) {
      const res = await call('POST', '/notifications', { title, message: `Message of ${title}`, read: false, status: true });
      ids.push(res.result.id);
    }
    await withPage(async (page) => {
      await loginAndWait(page);
      const bell = page.getByRole('button', { name: /^Notifications \(\d+ unread\)$/ });
      await bell.waitFor();
      const before = Number(await page.getByTestId('bell-count').textContent());
      assert.ok(before >= 2);
      await bell.click();
      const modal = page.getByRole('dialog', { name: 'Notifications' });
      // Newest first: the second one created leads.
      await modal.getByText(titles[1], { exact: true }).waitFor();
      await modal.getByText(titles[0], { exact: true }).waitFor();
      const listed = await modal.locator('.notification-title').allTextContents();
      assert.ok(listed.indexOf(titles[1]) < listed.indexOf(titles[0]), 'newest first');
      await modal.getByText(`Message of ${titles[1]}`).waitFor();
      assert.match(await modal.textContent(), /[A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M/);
      await modal.getByRole('link', { name: 'View All Notifications' }).waitFor();
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'e2e-bell.png') });
      // The count drops once the listed ones are marked read.
      await page.waitForFunction(
        (n) => {
          const el = document.querySelector('[data-testid="bell-count"]');
          return (el ? Number(el.textContent) : 0) <= n - 2;
        },
        before,
      );
      for (const id of ids) {
        const res = await call('GET', `/notifications/${id}`);
        assert.equal(res.result.read, true, `notification ${id} marked read`);
      }
      await modal.getByRole('link', { name: 'View All Notifications' }).click();
      await page.waitForURL('**/notifications');
    });
  });
});
