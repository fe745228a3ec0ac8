// Browser tests of the SPA foundation against a running server (E2E_BASE_URL).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { join } from 'node:path';
import { ADMIN_PASSWORD, SCREENSHOT_DIR, login, loginAndWait, useBrowser } from './helpers.mjs';

const COUNTERS = [
  'Total Pages',
  'Total Forms',
  'Total Popups',
  'Total Albums',
  'Total Newsletter Signups',
  'Total unchecked form submissions',
];


const withPage = useBrowser();


async function counterValue(page, label) {
  const card = page.locator('.counter-card', { hasText: label });
  return (await card.locator('.counter-value').textContent())?.trim();
}

describe('admin panel foundation', () => {
  test('logs in and shows the dashboard counters', async () => {
    await withPage(async (page) => {
      // SPEC §1: the copyright footer is on every screen, the login screen too.
      await page.goto('/login');
      await page.getByText(`© ${new Date().getFullYear()} Demo Institution`).waitFor();
      await login(page);
      await page.getByText('Logged in Successfully!').waitFor();
      await page.waitForURL('**/dashboard');
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      for (const label of COUNTERS) {
        await page.getByText(label, { exact: true }).waitFor();
      }
      // Wait for the counters to leave the '...' loading state.
      await page.waitForFunction(() =>
        [...document.querySelectorAll('.counter-value')].every((el) => el.textContent?.trim() !== '...'),
      );
      for (const label of COUNTERS) {
        assert.match(await counterValue(page, label), /^-?\d+(\.\d)?[KMBT]?$/, label);
      }
      await page.getByText(`© ${new Date().getFullYear()} Demo Institution`).waitFor();
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'e2e-dashboard-light.png'), fullPage: true });
    });
  });

  test('rejects a wrong password with the server message', async () => {
    await withPage(async (page) => {
      await login(page, { password: 'definitely-wrong-1' });
      await page.getByRole('alert').filter({ hasText: /Invalid username or password|Could not login!/ }).first().waitFor();
      assert.match(page.url(), /\/login$/);
    });
  });

  test('asks for details when the form is empty', async () => {
    await withPage(async (page) => {
      await page.goto('/login');
      await page.getByRole('button', { name: 'Login' }).click();
      await page.getByText('Please Fill Details!').first().waitFor();
    });
  });

  test('dark mode survives a reload', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      const root = page.locator('[data-amplify-color-mode]').first();
      assert.equal(await root.getAttribute('data-amplify-color-mode'), 'light');
      await page.getByRole('button', { name: 'Toggle dark mode' }).click();
      assert.equal(await root.getAttribute('data-amplify-color-mode'), 'dark');
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      assert.equal(await page.locator('[data-amplify-color-mode]').first().getAttribute('data-amplify-color-mode'), 'dark');
      await page.waitForFunction(() =>
        [...document.querySelectorAll('.counter-value')].every((el) => el.textContent?.trim() !== '...'),
      );
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'e2e-dashboard-dark.png'), fullPage: true });
    });
  });

  test('collapsed sidebar stays collapsed after reload', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.getByRole('link', { name: 'Media Library' }).waitFor();
      await page.getByRole('button', { name: 'Collapse sidebar' }).click();
      await page.getByRole('button', { name: 'Expand sidebar' }).waitFor();
      await page.reload();
      await page.getByRole('button', { name: 'Expand sidebar' }).waitFor();
      await page.getByRole('button', { name: 'Expand sidebar' }).click();
      await page.getByRole('button', { name: 'Collapse sidebar' }).waitFor();
    });
  });

  test('sidebar links reach every section and placeholder screens', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      for (const section of ['Website Content', 'Marketing Tools', 'Media & Design', 'Navigation & SEO', 'Form Management', 'Team & Departments', 'Access Control', 'Billing', 'Settings']) {
        await page.getByText(section, { exact: true }).waitFor();
      }
      await page.getByRole('link', { name: 'Themes' }).click();
      await page.waitForURL('**/themes');
      await page.getByRole('heading', { level: 1, name: 'Themes' }).waitFor();
      await page.getByRole('list', { name: 'Themes' }).waitFor();
      await page.goto('/custom-forms/abc/submissions');
      await page.getByRole('heading', { level: 1, name: 'Form Submissions' }).waitFor();
      // Ctrl + / opens the command palette (a lazy chunk) with focus in its combobox.
      await page.keyboard.press('Control+/');
      await page.getByRole('combobox', { name: 'Search or go to' }).waitFor();
      await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'combobox');
    });
  });

  test('profile edit validates the phone and saves', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.getByRole('link', { name: 'My Profile' }).click();
      await page.waitForURL('**/my-profile');
      await page.getByRole('button', { name: 'Edit' }).click();
      // The seeded admin may have no email yet; give it one so only the phone is wrong.
      await page.getByLabel('Email Address*').fill('admin@example.com');
      const phone = page.getByLabel('Phone Number*');
      await phone.fill('12345');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Please enter a 10 digit phone number!').first().waitFor();
      assert.ok((await page.getByText('Please enter a 10 digit phone number!').count()) >= 2, 'toast and inline message');
      const newPhone = `555${String(Date.now()).slice(-7)}`;
      await phone.fill(newPhone);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Profile updated!').waitFor();
      await page.getByRole('button', { name: 'Edit' }).waitFor();
      await page.getByText(newPhone, { exact: true }).waitFor();
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'e2e-profile.png') });
    });
  });

  test('a 6-digit secret signs in through the passcode', async () => {
    const passcode = '246810';
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/my-profile');
      await page.getByRole('button', { name: 'Edit' }).click();
      await page.getByLabel('Email Address*').fill('admin@example.com');
      await page.getByLabel('Phone Number*').fill('5551234567');
      await page.getByLabel('Passcode').fill(passcode);
      // A new passcode is a way to sign in: the current password is asked for it.
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Enter your current password.').first().waitFor();
      await page.getByLabel('Current password').fill(ADMIN_PASSWORD);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Profile updated!').waitFor();
    });
    await withPage(async (page) => {
      const calls = [];
      page.on('request', (r) => calls.push(new URL(r.url()).pathname));
      await loginAndWait(page, { password: passcode });
      assert.ok(calls.some((p) => p.endsWith('/auth/passcode')), 'used /auth/passcode');
      assert.ok(!calls.some((p) => p.endsWith('/auth/login')), 'did not use /auth/login');
    });
  });

  test('logout returns to the login screen', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto('/my-profile');
      await page.getByRole('button', { name: 'Logout' }).click();
      await page.waitForURL('**/login');
      await page.getByRole('heading', { name: 'Admin Login' }).waitFor();
      assert.equal(await page.evaluate(() => localStorage.getItem('token')), null);
      await page.goto('/dashboard');
      await page.waitForURL('**/login');
    });
  });

  test('unknown tenant says it could not find the institution', async () => {
    await withPage(async (page) => {
      await page.goto('/login?tenant=nope-nope');
      await page.getByText('Could not find institution!').waitFor();
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'e2e-unknown-tenant.png') });
    });
  });
});
