// Shared browser-test plumbing: Debian's Chromium through playwright-core, one context per test.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { deflateSync } from 'node:zlib';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

export const BASE_URL = (process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
export const ADMIN_USER = process.env.DEMO_ADMIN_USERNAME ?? 'admin';
export const ADMIN_PASSWORD = process.env.DEMO_ADMIN_PASSWORD ?? '';
/**
 * CHROMIUM is the browser the tests drive: Debian's headless shell when installed (the same Blink
 * without the browser's UI layer: measured 35–45% less CPU per test file than the full browser in
 * headless mode, which was four fifths of the browser suite's CPU), else the full browser.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => existsSync(p));
export const SCREENSHOT_DIR = process.env.E2E_SCREENSHOT_DIR ?? tmpdir();
export const TENANT = process.env.E2E_TENANT ?? 'demo';
export const API = `${BASE_URL}/api/v1/tenant`;

/** TINY_PNG is a 1×1 PNG for uploads through the media picker. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** apiCall makes one API request with the tenant header and, when given, a bearer token; a non-2xx answer throws. */
export async function apiCall(method, path, body, token) {
  const res = await fetch(API + path, {
    method,
    headers: { 'X-Tenant-Id': TENANT, 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} -> ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/**
 * png makes a valid PNG of about `bytes` bytes: noise does not compress, so the size of the
 * image (and of the upload, for the progress bar to have something to show) is predictable.
 */
export function png(bytes) {
  const width = 512;
  const height = Math.max(1, Math.ceil(bytes / (width * 3 + 1)));
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let i = 0; i < raw.length; i++) raw[i] = i % (width * 3 + 1) === 0 ? 0 : (Math.random() * 256) | 0;
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 0 })), chunk('IEND', Buffer.alloc(0))]);
}

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * launchBrowser starts headless Chromium with a fresh user-data-dir. launchPersistentContext
 * is the only way to pass one, so it also returns a factory of isolated contexts from the
 * same browser process.
 */
export async function launchBrowser() {
  const userDataDir = mkdtempSync(join(tmpdir(), 'e2e-chromium-'));
  const persistent = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
  });
  const browser = persistent.browser();
  return {
    /** newContext gives each test its own cookies and localStorage; options override the defaults. */
    async newContext(options = {}) {
      if (browser) return browser.newContext({ baseURL: BASE_URL, viewport: { width: 1280, height: 800 }, ...options });
      throw new Error('no browser handle');
    },
    async close() {
      await persistent.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** waitForServer polls /api/health so tests fail clearly when nothing is listening. */
export async function waitForServer(timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${BASE_URL}/api/health`);
      if (res.ok) return;
      last = `status ${res.status}`;
    } catch (err) {
      last = String(err);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`server at ${BASE_URL} not ready: ${last}`);
}

/** login signs the demo admin in and waits for the dashboard. */
export async function login(page, { username = ADMIN_USER, password = ADMIN_PASSWORD, query = '' } = {}) {
  await page.goto(`/login${query}`);
  await page.getByRole('heading', { name: 'Admin Login' }).waitFor();
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password', { exact: true }).press('Enter');
}

/**
 * loginAndWait signs a user in and waits for the dashboard: through the API, as the login form
 * does, then the panel opened with that session (the form's own tests drive it with login(); this
 * spares every other test a load of the login screen, about a fifth of a test's browser CPU). A
 * user the API asks for a second step (two-factor) or refuses goes through the form.
 */
export async function loginAndWait(page, { username = ADMIN_USER, password = ADMIN_PASSWORD, query = '' } = {}) {
  const session = query ? null : await apiSession(username, password);
  if (session) {
    await page.goto('/api/health'); // the panel's origin, without loading the panel
    await page.evaluate(([token, user]) => {
      localStorage.setItem('token', token);
      localStorage.setItem('user', user);
    }, [session.token, JSON.stringify(session.user)]);
    await page.goto('/dashboard');
  } else {
    await login(page, { username, password, query });
    await page.waitForURL('**/dashboard');
  }
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
}

/** apiSession signs in through the API: {token, user}, or null for a second step or a refusal. */
async function apiSession(username, password) {
  const result = await apiCall('POST', '/auth/login', { username, password }).then((r) => r.result, () => null);
  return result?.token && result?.user ? result : null;
}

/**
 * useBrowser registers the test file's before/after hooks (server up, one browser, then
 * beforeAll if given) and returns withPage(fn), which runs fn with a page in a fresh context and
 * always closes the context.
 */
export function useBrowser({ timeout = 15_000, clipboard = false, beforeAll } = {}) {
  let browser;
  before(async () => {
    assert.ok(ADMIN_PASSWORD, 'set DEMO_ADMIN_PASSWORD to the demo admin password');
    await waitForServer();
    if (beforeAll) await beforeAll();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });
  // contextOptions: Playwright context options for this page (JavaScript off, a phone viewport).
  return async function withPage(fn, contextOptions = {}) {
    const context = await browser.newContext(contextOptions);
    if (clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
    const page = await context.newPage();
    page.setDefaultTimeout(timeout);
    try {
      await fn(page);
    } finally {
      await context.close();
    }
  };
}

/** confirmYes answers Yes in the confirmation dialog that says message, and waits for it to close. */
export async function confirmYes(page, message) {
  const box = page.getByRole('dialog').filter({ hasText: message });
  await box.waitFor();
  await box.getByRole('button', { name: 'Yes' }).click();
  await box.waitFor({ state: 'detached' });
}

/** adminToken signs the demo admin in through the API and returns the token. */
export async function adminToken() {
  return (await apiCall('POST', '/auth/login', { username: ADMIN_USER, password: ADMIN_PASSWORD }, null)).result.token;
}

/** AXE is axe-core's browser bundle, injected into the page it audits. */
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axeContexts are the browser contexts that load axe into every document they open. */
const axeContexts = new WeakSet();

/**
 * withAxe makes sure page's document has axe-core, and that every document its context opens
 * next has it from the start: as an init script, which Chromium compiles once for the context,
 * where a script tag per page load costs a compilation each time (measured: 0.25 CPU-s a page,
 * a third of an audit of a website page).
 */
export async function withAxe(page) {
  const context = page.context();
  if (!axeContexts.has(context)) {
    axeContexts.add(context);
    await context.addInitScript({ path: AXE });
  }
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ path: AXE });
}

/**
 * axeViolations runs axe-core on the part of the page that selector names (a screen, a dialog;
 * 'html' for the whole page, with axe's page-level rules) and returns its serious and critical
 * findings; rules turns axe's rules on or off (WCAG 2.5.8's target-size is off by default).
 */
export async function axeViolations(page, selector, rules = {}) {
  await withAxe(page);
  return page.evaluate(
    async ({ sel, rules }) =>
      (await window.axe.run({ include: [sel] }, { rules, resultTypes: ['violations'] })).violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    { sel: selector, rules },
  );
}

/**
 * useAdminBrowser is useBrowser for tests that also call the API as the demo admin: call(method,
 * path, body) carries the admin's token, signed in once before the tests.
 */
export function useAdminBrowser(opts = {}) {
  let token;
  const withPage = useBrowser({
    ...opts,
    beforeAll: async () => {
      token = await adminToken();
      await opts.beforeAll?.();
    },
  });
  const call = (method, path, body) => apiCall(method, path, body, token);
  return { withPage, call };
}

/**
 * describeImage answers the alt-text dialog an image upload opens (issue 37): the media picker's
 * "Describe the image" step, or the Media Library's "Alt text: {name}" dialog.
 */
export async function describeImage(page, alt) {
  const dialog = page.getByRole('dialog', { name: /^(Describe the image|Alt text: )/ });
  await dialog.getByRole('textbox', { name: 'Alt text' }).fill(alt);
  await dialog.getByRole('button', { name: /^(Save and use|Save)$/ }).click();
  await dialog.waitFor({ state: 'detached' });
}
