// Browser test of drafts and review (issue 36): with review required, an author (edit right, no
// publish right) edits a live page, which autosaves to its draft, and submits it; the website
// keeps the old text; an editor (the admin) compares the draft with live and requests changes
// with a comment; the author sees the comment, revises and resubmits; the editor approves and
// publishes; the website shows the new text; the audit log shows every step.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { loginAndWait, useAdminBrowser } from './helpers.mjs';
import { SITE } from './website-theme.mjs';

const RUN = Date.now().toString(36);
const AUTHOR = `author-${RUN}`;
const PASSWORD = 'Author-pass-42';
const TITLE = `Admissions ${RUN}`;
const SLUG = `admissions-${RUN}`;
const OLD = `Old admissions text ${RUN}`;
const NEW = `New admissions text ${RUN}`;
const MORE = 'Apply by 1 March.';

let pageId;
let authorId;
let reviewBefore = false;
const { withPage, call } = useAdminBrowser({ timeout: 20_000 });

async function setReview(on) {
  const s = (await call('GET', '/site-settings')).result;
  if (on !== undefined) await call('PATCH', '/site-settings', { requireReview: on, version: s.version });
  return s.requireReview === true;
}

after(async () => {
  await setReview(reviewBefore).catch(() => {});
  if (pageId) await call('DELETE', `/pages/${pageId}`).catch(() => {});
  if (authorId) await call('DELETE', `/users/${authorId}`).catch(() => {});
});

/** draftBar is the editor's draft region; badge waits for the state it shows. */
const draftBar = (page) => page.getByRole('region', { name: 'Draft' });
async function waitState(page, label) {
  await draftBar(page).locator('.amplify-badge', { hasText: new RegExp(`^${label}$`) }).waitFor();
}

async function openEditor(page) {
  await page.goto(`/pages/${pageId}`);
  await page.getByRole('form', { name: 'Edit Page' }).waitFor();
}

async function siteText(page) {
  await page.goto(`${SITE}/${SLUG}`);
  return (await page.locator('main').innerText()).replace(/\s+/g, ' ');
}

describe('drafts and review', () => {
  test('an author drafts, an editor sends back, approves and publishes; each step is audited', async () => {
    reviewBefore = await setReview();
    await setReview(true);
    authorId = (
      await call('POST', '/users', {
        firstName: 'Page',
        lastName: 'Author',
        username: AUTHOR,
        password: PASSWORD,
        status: true,
        permissionIds: ['CMS_VIEW_PAGE', 'CMS_CREATE_PAGE', 'CMS_EDIT_PAGE'],
      })
    ).result.id;
    pageId = (await call('POST', '/pages', { title: TITLE, slug: SLUG, content: `<p>${OLD}</p>`, isPublished: true, status: true })).result.id;

    await withPage(async (author) => {
      await withPage(async (editor) => {
        // The author's edit autosaves to a draft; the live page stays as it was.
        await loginAndWait(author, { username: AUTHOR, password: PASSWORD });
        await openEditor(author);
        await draftBar(author).getByText('Your changes are saved as a draft').waitFor();
        const autosaved = author.waitForResponse((r) => r.url().endsWith(`/pages/${pageId}/draft`) && r.request().method() === 'PUT');
        // The editor holds the live text and has the focus before everything in it is replaced
        // (Control+A before either selected something else, and NEW went in beside OLD).
        const content = author.locator('.ql-editor');
        await content.getByText(OLD).waitFor();
        await content.click();
        await author.waitForFunction(() => document.activeElement?.classList.contains('ql-editor'));
        await author.keyboard.press('Control+A');
        await author.keyboard.type(NEW);
        assert.equal((await content.innerText()).trim().replace(/\u00a0/g, ' '), NEW);
        assert.equal((await autosaved).status(), 200);
        await waitState(author, 'Draft');
        await draftBar(author).getByRole('button', { name: 'Publish' }).waitFor({ state: 'detached' });
        await draftBar(author).getByRole('button', { name: 'Submit for review' }).click();
        await author.getByText('Draft submitted for review!').first().waitFor();
        await waitState(author, 'In review');
        const before = await siteText(author);
        assert.ok(before.includes(OLD) && !before.includes(NEW), `the site shows the draft early: ${before}`);

        // The editor finds it on the dashboard, compares it with live and sends it back.
        await loginAndWait(editor);
        const card = editor.getByRole('region', { name: 'Waiting for review' });
        await card.getByRole('link', { name: TITLE }).click();
        await editor.getByRole('form', { name: 'Edit Page' }).waitFor();
        await waitState(editor, 'In review');
        await draftBar(editor).getByRole('button', { name: 'Compare with live' }).click();
        const table = draftBar(editor).getByRole('table');
        await table.getByText('Live compared with draft: 1 field differ').waitFor();
        assert.match(await table.getByRole('row', { name: /Content/ }).textContent(), new RegExp(`${OLD}.*${NEW}`));
        await draftBar(editor).getByRole('button', { name: 'Request changes' }).click();
        const ask = editor.getByRole('dialog', { name: 'Request changes' });
        await ask.getByRole('button', { name: 'Send back for changes' }).click();
        await ask.getByText('Say what should change.').waitFor();
        await ask.getByLabel('What should change?').fill('Give the application deadline.');
        await ask.getByRole('button', { name: 'Send back for changes' }).click();
        await editor.getByText('Changes requested!').first().waitFor();
        await waitState(editor, 'Changes requested');

        // The author reads the comment, revises and resubmits.
        await openEditor(author);
        await waitState(author, 'Changes requested');
        await draftBar(author).getByText('Give the application deadline.').first().waitFor();
        await draftBar(author).getByRole('region', { name: 'Comments' }).getByText('Give the application deadline.').waitFor();
        await author.locator('.ql-editor').click();
        await author.keyboard.press('Control+End');
        await author.keyboard.type(` ${MORE}`);
        await author.getByRole('button', { name: 'Save draft' }).first().click();
        await author.getByText('Draft saved!').first().waitFor();
        await waitState(author, 'Draft');
        await draftBar(author).getByRole('button', { name: 'Submit for review' }).click();
        await waitState(author, 'In review');

        // The editor approves and publishes; the site shows the new text.
        await openEditor(editor);
        await waitState(editor, 'In review');
        await draftBar(editor).getByRole('button', { name: 'Approve' }).click();
        await editor.getByText('Draft approved!').first().waitFor();
        await waitState(editor, 'Approved');
        await draftBar(editor).getByRole('button', { name: 'Publish' }).click();
        await editor.getByRole('dialog', { name: /^Publish/ }).getByRole('button', { name: 'Publish now' }).click();
        await editor.getByText('Page published!').first().waitFor();
        await draftBar(editor).waitFor({ state: 'detached' });
        // (Typed spaces may arrive as no-break spaces.)
        const live = (await call('GET', `/pages/${pageId}`)).result.content.replace(/\u00a0|&nbsp;/g, ' ');
        assert.ok(live.includes(NEW) && live.includes(MORE), `the live page after publishing: ${live}`);
        const published = await siteText(editor);
        assert.ok(published.includes(NEW) && published.includes(MORE) && !published.includes(OLD), `the site after publishing: ${published}`);

        // The audit log shows every step.
        await editor.goto('/audit-log');
        await editor.getByLabel('What', { exact: true }).selectOption('pages');
        await editor.getByRole('button', { name: 'Apply' }).click();
        const log = editor.getByRole('table', { name: 'Audit log entries' });
        await log.getByText(`Published Page ${pageId}`).waitFor();
        const rows = await log.locator('tbody tr').filter({ hasText: pageId }).allInnerTexts();
        const steps = rows.map((r) => r.replace(/\s+/g, ' ')).reverse();
        const want = [
          [AUTHOR, 'Drafted'],
          [AUTHOR, 'Submitted for review'],
          ['admin', 'Requested changes to'],
          [AUTHOR, 'Submitted for review'],
          ['admin', 'Approved the draft of'],
          ['admin', 'Published'],
        ];
        // In this order, oldest first.
        let next = 0;
        for (const r of steps) {
          if (next < want.length && r.includes(want[next][0]) && r.includes(`${want[next][1]} Page ${pageId}`)) next++;
        }
        assert.equal(next, want.length, `the audit log lacks ${JSON.stringify(want[next])} in order: ${JSON.stringify(steps)}`);
      });
    });
  });
});
