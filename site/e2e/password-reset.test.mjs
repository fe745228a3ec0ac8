// Browser test of the password reset (issue 33): "Forgot password?" on the login screen, the one
// answer, the mail in the dev server's mailbox, its link, a new password under the rules, then a
// sign-in with it. A new staff user of its own, so no other test's sign-in is affected.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { axeViolations, useAdminBrowser } from './helpers.mjs';

const MAILBOX = (process.env.E2E_MAILBOX_URL ?? 'http://127.0.0.1:8025').replace(/\/$/, '');
const { withPage, call } = useAdminBrowser({ timeout: 20_000 });

/** mailTo waits (up to 30 s: the worker's tick) for a mail to address and returns the newest. */
async function mailTo(address, count = 1) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${MAILBOX}/email`);
    const all = res.ok ? await res.json() : [];
    const mine = all.filter((m) => JSON.stringify(m.to ?? m.headers?.to ?? '').toLowerCase().includes(address.toLowerCase()));
    if (mine.length >= count) return mine[mine.length - 1];
    if (Date.now() > deadline) throw new Error(`no mail to ${address} in ${MAILBOX} after 30 s (${all.length} mails there)`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('password reset', () => {
  test('forgot password → mail → link → new password → sign in', { timeout: 120_000 }, async () => {
    const username = `reset${Date.now() % 1e8}`;
    const email = `${username}@example.org`;
    await call('POST', '/users', { firstName: 'Reset', lastName: 'Test', username, email, password: 'staff-pass-1', permissionIds: [] });

    await withPage(async (page) => {
      await page.goto('/login');
      await page.getByRole('heading', { name: 'Admin Login' }).waitFor();
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.getByRole('heading', { name: 'Forgot password?' }).waitFor();
      assert.deepEqual(await axeViolations(page, 'main'), []);
      const field = page.getByLabel('Username or email');
      await field.fill(email);
      await field.press('Enter');
      await page.getByRole('status').filter({ hasText: 'If the account exists, we have sent an email' }).waitFor();

      const mail = await mailTo(email);
      assert.equal(mail.subject, 'Reset your password');
      const link = (mail.text ?? '').match(/https?:\/\/\S+\/reset-password\?\S+/)?.[0];
      assert.ok(link, `a reset link in the mail's text: ${mail.text}`);
      assert.ok(!/<img/i.test(mail.html ?? ''), 'no image (no tracking pixel) in the mail');

      await page.goto(link);
      await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
      assert.deepEqual(await axeViolations(page, 'main'), []);
      // The rules are shown and applied; the confirmation must match.
      await page.getByText('At least 6 characters').waitFor();
      await page.getByLabel('New password', { exact: true }).fill('abc');
      await page.getByLabel('Confirm new password').fill('abc');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Password should be atleast 6 characters!').waitFor();
      await page.getByLabel('New password', { exact: true }).fill('brand-new-pass-1');
      await page.getByLabel('Confirm new password').fill('brand-new-pass-2');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('The two passwords do not match.').waitFor();
      await page.getByLabel('Confirm new password').fill('brand-new-pass-1');
      await page.getByLabel('Confirm new password').press('Enter');

      await page.waitForURL('**/login');
      await page.getByRole('status').filter({ hasText: 'Your password has been changed. Sign in with your new password.' }).waitFor();
      await page.getByLabel('Username', { exact: true }).fill(username);
      await page.getByLabel('Password', { exact: true }).fill('brand-new-pass-1');
      await page.getByRole('button', { name: 'Login' }).click();
      await page.waitForURL('**/dashboard');

      // The link works once: opened again, it says so and offers to ask again.
      await page.goto(link);
      await page.getByLabel('New password', { exact: true }).fill('another-pass-1');
      await page.getByLabel('Confirm new password').fill('another-pass-1');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('alert').filter({ hasText: 'This password reset link has expired or has already been used. Ask for a new one.' }).waitFor();
      await page.getByRole('link', { name: 'Ask for a new link' }).waitFor();
    });
  });
});
