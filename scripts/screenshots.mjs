// Screenshots for the README, taken from the running demo so they never go stale:
// docs/images/panel.png (the panel's dashboard, signed in as the demo admin) and
// docs/images/website.png (the demo institution's public website in the theme the demo is set
// to, or SCREENSHOT_THEME if given), both 1280x800 PNG; and the panel on a 390x844 touch phone
// (issue 41): docs/images/phone-dashboard.png, phone-drawer.png, phone-list.png (the Pages list as
// cards) and phone-editor.png (a record's full-screen form).
//
// Run through `make screenshots` (scripts/screenshots.sh), which starts the dev server on spare
// ports with a known demo password and sets E2E_BASE_URL and DEMO_ADMIN_PASSWORD. It reuses the
// browser tests' plumbing (site/e2e/helpers.mjs: Debian's Chromium through playwright-core, the
// demo admin's sign-in), so a change to the login screen breaks the tests and this alike.
import { mkdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_PASSWORD, BASE_URL, adminToken, apiCall, launchBrowser, loginAndWait, waitForServer } from '../site/e2e/helpers.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'docs', 'images');
const VIEWPORT = { width: 1280, height: 800 };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
/** SITE is the demo tenant's website: Chromium resolves every *.localhost name to loopback. */
const SITE = BASE_URL.replace('://127.0.0.1', '://demo.localhost').replace('://localhost', '://demo.localhost');

if (!ADMIN_PASSWORD) {
  console.error('screenshots: set DEMO_ADMIN_PASSWORD (make screenshots does) and E2E_BASE_URL');
  process.exit(2);
}
await waitForServer();
mkdirSync(OUT, { recursive: true });

if (process.env.SCREENSHOT_THEME) {
  // The emulator keeps data in memory only: this changes the throwaway server's demo, nothing else.
  await apiCall('PATCH', '/theme-settings', { themeId: process.env.SCREENSHOT_THEME }, await adminToken());
}

const browser = await launchBrowser();
try {
  const shoot = async (name, fn, device = { viewport: VIEWPORT }) => {
    const context = await browser.newContext({ deviceScaleFactor: 1, colorScheme: 'light', reducedMotion: 'reduce', ...device });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    try {
      await fn(page);
      // Let images, fonts and the last layout settle before the capture.
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => document.fonts.ready);
      const file = join(OUT, name);
      await page.screenshot({ path: file, type: 'png', animations: 'disabled', caret: 'hide' });
      console.log(`${relative(ROOT, file)}  ${device.viewport.width}x${device.viewport.height}  ${(statSync(file).size / 1024).toFixed(0)} kB`);
    } finally {
      await context.close();
    }
  };

  await shoot('panel.png', async (page) => {
    await loginAndWait(page);
    // Reload (the session stays) so that the sign-in's toast is gone, then wait for the
    // dashboard's counters, which come from the API.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.locator('.counter-value').first().waitFor();
    await page.waitForLoadState('networkidle');
  });

  await shoot('website.png', async (page) => {
    const res = await page.goto(`${SITE}/`);
    if (!res || res.status() !== 200) throw new Error(`${SITE}/ answered ${res?.status()}`);
    // The demo's popup opens once per visitor; close it so the page itself shows.
    const popup = page.locator('dialog[open]');
    if (await popup.count()) {
      await page.keyboard.press('Escape');
      await popup.waitFor({ state: 'detached' }).catch(() => {});
    }
  });

  // The panel on a phone: signed in afresh for each shot (a context keeps no session).
  const phoneLogin = async (page) => {
    await loginAndWait(page);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.locator('.counter-value').first().waitFor();
  };
  await shoot('phone-dashboard.png', phoneLogin, PHONE);
  await shoot(
    'phone-drawer.png',
    async (page) => {
      await phoneLogin(page);
      await page.getByRole('button', { name: 'Menu', exact: true }).tap();
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
    },
    PHONE,
  );
  await shoot(
    'phone-list.png',
    async (page) => {
      await phoneLogin(page);
      await page.goto('/pages');
      await page.locator('tbody tr').first().waitFor();
    },
    PHONE,
  );
  await shoot(
    'phone-editor.png',
    async (page) => {
      await phoneLogin(page);
      await page.goto('/events');
      await page.locator('tbody tr').first().getByRole('button', { name: 'Edit' }).tap();
      await page.getByRole('dialog').locator('form[aria-busy="false"]').waitFor();
    },
    PHONE,
  );
} finally {
  await browser.close();
}
