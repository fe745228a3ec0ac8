// Browser tests of two-factor sign-in and sessions: enrol in My Profile (the key read from the
// screen, the code computed here as an authenticator app would), sign in with a code and with a
// recovery code, a reused code refused, and a session ended from another browser context.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import { axeViolations, useAdminBrowser } from './helpers.mjs';

const { withPage, call } = useAdminBrowser({ timeout: 20_000 });

/** totp is RFC 6238's code of a base32 key (spaces allowed) at a time. */
function totp(key, at = Date.now()) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of key.replace(/\s/g, '').toUpperCase()) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  const bytes = Buffer.from(bits.match(/.{8}/g).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', bytes).update(counter).digest();
  const off = mac[mac.length - 1] & 0x0f;
  return String((mac.readUInt32BE(off) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

let seq = 0;
/** staff creates a user with no rights and returns its name and password. */
async function staff() {
  const username = `tf${Date.now() % 1e8}${seq++}`;
  const password = 'staff-pass-1';
  await call('POST', '/users', { firstName: 'Two', lastName: 'Factor', username, password, permissionIds: [] });
  return { username, password };
}

async function signIn(page, { username, password }) {
  await page.goto('/login');
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

async function signOut(page) {
  await page.goto('/my-profile');
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByRole('heading', { name: 'Admin Login' }).waitFor();
}

async function enterCode(page, code, label = 'Code from your authenticator app') {
  const field = page.getByLabel(label);
  await field.waitFor();
  assert.equal(await field.evaluate((el) => el === document.activeElement), true, 'the code field has focus');
  await field.fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

describe('two-factor sign-in', () => {
  test('enrol, then sign in with a code, with a recovery code; a reused code is refused', { timeout: 120_000 }, async () => {
    const user = await staff();
    await withPage(async (page) => {
      await signIn(page, user);
      await page.waitForURL('**/dashboard');
      await page.goto('/my-profile');
      const section = page.getByRole('region', { name: 'Two-factor sign-in' });
      await section.getByText('Off', { exact: true }).waitFor();
      await section.getByRole('button', { name: 'Set up' }).click();
      await section.getByRole('img', { name: 'QR code of your two-factor key' }).waitFor();
      assert.deepEqual(await axeViolations(page, 'main'), [], 'set-up');
      const key = (await section.getByTestId('totp-key').textContent()).trim();
      assert.match(key, /^[A-Z2-7 ]{32,}$/);
      // Signed in, turning it on asks for the current password too (a session alone cannot).
      await section.getByLabel('2. Enter the 6-digit code the app shows').fill(totp(key));
      await section.getByRole('button', { name: 'Turn on' }).click();
      await section.getByText('Enter your current password.').waitFor();
      await section.getByLabel('3. Your current password').fill('wrong-pass-1');
      await section.getByRole('button', { name: 'Turn on' }).click();
      await section.getByText('The password is not correct.').waitFor();
      await section.getByLabel('3. Your current password').fill(user.password);
      // A wrong code is refused inline; the right one turns it on and shows the codes once.
      await section.getByLabel('2. Enter the 6-digit code the app shows').fill(totp(key, Date.now() - 120_000));
      await section.getByRole('button', { name: 'Turn on' }).click();
      await section.getByText('The code is not valid. Try again.').waitFor();
      await section.getByLabel('2. Enter the 6-digit code the app shows').fill(totp(key));
      await section.getByRole('button', { name: 'Turn on' }).click();
      const list = section.getByRole('list', { name: 'Recovery codes' });
      await list.waitFor();
      const codes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
      assert.equal(codes.length, 10);
      assert.deepEqual(await axeViolations(page, 'main'), [], 'recovery codes');
      await section.getByRole('button', { name: 'Done' }).click();
      await section.getByText('On', { exact: true }).waitFor();
      await section.getByText('Recovery codes left: 10.').waitFor();
      await signOut(page);

      // The password alone asks for a code; this step's code was spent turning it on, so the
      // next step's is used (the server accepts one step either side, each step once).
      const code = totp(key, Date.now() + 30_000);
      await signIn(page, user);
      await page.getByLabel('Code from your authenticator app').waitFor();
      assert.deepEqual(await axeViolations(page, 'body'), [], 'second step');
      await enterCode(page, code);
      await page.waitForURL('**/dashboard');
      await signOut(page);

      // The same code again, on a new sign-in: refused.
      await signIn(page, user);
      await enterCode(page, code);
      await page.getByText('The code is not valid. Try again.').first().waitFor();
      assert.ok(page.url().endsWith('/login'), 'still on the login screen');

      // A recovery code instead.
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
      await enterCode(page, codes[0], 'Recovery code');
      await page.waitForURL('**/dashboard');
      await page.goto('/my-profile');
      await page.getByRole('region', { name: 'Two-factor sign-in' }).getByText('Recovery codes left: 9.').waitFor();
      // New recovery codes ask for the password and a code (here a recovery code) first.
      await page.getByRole('button', { name: 'New recovery codes' }).click();
      const dialog = page.getByRole('dialog', { name: 'New recovery codes' });
      await dialog.waitFor();
      assert.deepEqual(await axeViolations(page, '[role="dialog"]'), [], 'password dialog');
      await dialog.getByLabel('Password', { exact: true }).fill(user.password);
      await dialog.getByRole('button', { name: 'Make new codes' }).click();
      await dialog.getByText('Enter the code from your authenticator app.').first().waitFor();
      await dialog.getByRole('button', { name: 'Use a recovery code' }).click();
      await dialog.getByLabel('Recovery code').fill(codes[1]);
      await dialog.getByLabel('Password', { exact: true }).fill('wrong-pass-1');
      await dialog.getByRole('button', { name: 'Make new codes' }).click();
      await dialog.getByText('The password is not correct.').first().waitFor();
      await dialog.getByLabel('Password', { exact: true }).fill(user.password);
      await dialog.getByRole('button', { name: 'Make new codes' }).click();
      await page.getByRole('list', { name: 'Recovery codes' }).waitFor();
    });
  });

  test('a session ended from another browser is signed out', async () => {
    const user = await staff();
    await withPage(async (b) => {
      await signIn(b, user);
      await b.waitForURL('**/dashboard');
      await withPage(async (a) => {
        await signIn(a, user);
        await a.waitForURL('**/dashboard');
        await a.goto('/my-profile');
        const sessions = a.getByRole('list', { name: 'Signed-in sessions' });
        await sessions.locator('li[data-session="other"]').waitFor();
        assert.equal(await sessions.getByRole('listitem').count(), 2);
        assert.deepEqual(await axeViolations(a, 'main'), [], 'sessions');
        await sessions.locator('li[data-session="current"]').getByText('(this device)').waitFor();
        await sessions.locator('li[data-session="other"]').getByRole('button', { name: /^Sign out/ }).click();
        await a.getByText('You are signed in on this device only.').waitFor();
      });
      // B's next request finds its session gone and lands on the login screen.
      await b.goto('/my-profile');
      await b.getByRole('heading', { name: 'Admin Login' }).waitFor();
    });
  });
});
