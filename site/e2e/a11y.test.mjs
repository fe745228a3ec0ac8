// Accessibility audit of the whole panel against a running server (E2E_BASE_URL), issue 20:
// axe-core's WCAG 2.1 A/AA rules on every screen (each sidebar link, the editors, the dialogs,
// the notification panel and the command palette) in light and in dark mode, with no serious or
// critical finding; every screen names itself in document.title; a modal keeps Tab and
// Shift+Tab inside, closes on Escape and gives focus back to the button that opened it.
// One browser context per mode, signed in once, moving between screens client-side.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { confirmYes, loginAndWait, useAdminBrowser, withAxe } from './helpers.mjs';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const { withPage, call } = useAdminBrowser({ timeout: 20_000 });

/** Sidebar links: [label, path, title in the header and document.title]. */
const LINKS = [
  ['Home', '/dashboard', 'Dashboard'],
  ['Header', '/header', 'Header'],
  ['Footer', '/footer', 'Footer'],
  ['Sliders', '/sliders', 'Sliders'],
  ['Pages', '/pages', 'Pages'],
  ['Albums', '/albums', 'Albums'],
  ['Photos', '/photos', 'Photos'],
  ['Events', '/events', 'Events'],
  ['Resources', '/resources', 'Resources'],
  ['Testimonials', '/testimonials', 'Testimonials'],
  ['Redirects', '/redirects', 'Redirects'],
  ['Popups', '/popups', 'Popups'],
  ['FAQs', '/faqs', 'FAQs'],
  ['Newsletter Signups', '/newsletter-signups', 'Newsletter Signups'],
  ['Media Library', '/media', 'Media Library'],
  ['Themes', '/themes', 'Themes'],
  ['Theme Settings', '/theme-settings', 'Theme Settings'],
  ['Menu Items', '/menu-items', 'Menu Items'],
  ['SEO Setting', '/seo-setting', 'Default SEO Settings'],
  ['Sitemap Entries', '/sitemap-entries', 'Sitemap Entries'],
  ['Custom Forms', '/custom-forms', 'Custom Forms'],
  ['Staff Members', '/staff-members', 'Staff Members'],
  ['Departments', '/departments', 'Departments'],
  ['Users', '/users', 'Users'],
  ['Roles', '/roles', 'Roles'],
  ['Security', '/security-settings', 'Security Settings'],
  ['Audit Log', '/audit-log', 'Audit Log'],
  ['Trash', '/trash', 'Trash'],
  ['Invoices', '/invoices', 'Invoices'],
  ['Plans', '/plans', 'Plans'],
  ['Notices', '/notices', 'Notices'],
  ['Notifications', '/notifications', 'Notifications'],
  ['Site Settings', '/site-settings', 'Site Settings'],
];

/** closeForm presses Escape on a record's form and says Yes to leaving it. */
async function closeForm(page, form) {
  await page.keyboard.press('Escape');
  await confirmYes(page, 'Are you sure to cancel?');
  await form.waitFor({ state: 'detached' });
}

/** noMotion turns transitions off, so axe reads colours as they end rather than mid-fade. */
const noMotion = () =>
  document.addEventListener('DOMContentLoaded', () => {
    const style = document.createElement('style');
    style.textContent = '*, *::before, *::after { transition: none !important; animation-duration: 0s !important; }';
    document.head.append(style);
  });

/** go moves client-side (the router follows popstate), so the app boots once per mode. */
async function go(page, path) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
  }, path);
}

/** settle waits for the screen's title and for its loaders to go. */
async function settle(page, title) {
  if (title) await page.locator('h1.page-title', { hasText: title }).first().waitFor();
  await page
    .waitForFunction(() => !document.querySelector('.amplify-loader, [role="status"][aria-label="Loading"], .amplify-placeholder'), null, { timeout: 8_000 })
    .catch(() => {});
  await page.waitForTimeout(150);
}

/** audit runs axe's WCAG 2.1 A/AA rules on the page and returns serious and critical findings. */
async function audit(page) {
  await withAxe(page);
  return page.evaluate(async (tags) => {
    const { violations } = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => ({ rule: v.id, impact: v.impact, target: n.target.join(' '), summary: (n.failureSummary ?? '').split('\n').slice(1, 2).join(' ').trim() })));
  }, WCAG);
}

/** focusInside tells whether the focused element is inside the topmost dialog. */
const focusInside = (page) =>
  page.evaluate(() => {
    const dialogs = document.querySelectorAll('[role="dialog"][aria-modal="true"]');
    const top = dialogs[dialogs.length - 1];
    return Boolean(top && top.contains(document.activeElement));
  });

const focusedText = (page) => page.evaluate(() => (document.activeElement?.textContent ?? '').trim());

const results = { screens: 0, findings: [], titles: [] };

async function auditMode(page, mode) {
  const pages = (await call('GET', '/pages')).result;
  const ids = {
    // The demo's Home page has the most sections for the sections editor.
    page: (pages.find((p) => p.title === 'Home') ?? pages[0])?.id,
    form: (await call('GET', '/custom-forms')).result[0]?.id,
  };
  assert.ok(ids.page && ids.form, 'the demo tenant has a page and a custom form');
  await page.addInitScript((m) => window.localStorage.setItem('colorMode', m), mode);
  await page.addInitScript(noMotion);

  let t0 = Date.now();
  const check = async (screen, title) => {
    if (process.env.A11Y_TIMING) console.log(`${mode} ${screen}: ${Date.now() - t0} ms`);
    const found = await audit(page);
    t0 = Date.now();
    results.screens++;
    for (const f of found) results.findings.push({ mode, screen, ...f });
    if (title) results.titles.push({ mode, screen, title, doc: await page.title() });
  };

  await page.goto('/login');
  await page.getByRole('heading', { name: 'Admin Login' }).waitFor();
  await check('Login');
  await loginAndWait(page);
  assert.equal(await page.evaluate(() => window.localStorage.getItem('colorMode')), mode);
  await settle(page, 'Dashboard');

  // The sidebar collapsed to its monograms, then back.
  await page.getByRole('button', { name: 'Collapse sidebar' }).click();
  await page.getByRole('button', { name: 'Expand sidebar' }).waitFor();
  await check('Collapsed sidebar');
  await page.getByRole('button', { name: 'Expand sidebar' }).click();
  await page.getByRole('button', { name: 'Collapse sidebar' }).waitFor();

  // Every sidebar link, clicked as a user would.
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [label, path, title] of LINKS) {
    await nav.getByRole('link', { name: label, exact: true }).click();
    await page.waitForURL(`**${path}`);
    await settle(page, title);
    await check(label, title);
    if (path === '/menu-items') {
      // The menu builder's item panel, opened from a row.
      await page.locator('button.menu-label').first().click();
      await page.getByRole('region', { name: 'Edit menu item' }).waitFor();
      await check('Menu item panel');
    }
  }

  // Screens reached from inside others.
  const extra = [
    ['My Profile', '/my-profile', 'My Profile'],
    ['Page editor and sections', `/pages/${ids.page}`, 'Edit Page'],
    ['Create Page', '/pages/create', 'Create Page'],
    ['Form builder (create)', '/custom-forms/create', 'Create Custom Form'],
    ['Form builder (edit)', `/custom-forms/${ids.form}`, 'Edit Custom Form'],
    ['Form submissions', `/custom-forms/${ids.form}/submissions`, 'Form Submissions'],
    ['Not found', '/no-such-screen', 'Page not found'],
  ];
  for (const [screen, path, title] of extra) {
    await go(page, path);
    await settle(page, title);
    if (path === `/pages/${ids.page}`) await page.locator('section.section-card').first().waitFor();
    await check(screen, title);
    if (path === '/my-profile') {
      // Two-factor set-up: the QR code, the key as text and the code field (a key waiting for
      // confirmation changes nothing until confirmed).
      const section = page.getByRole('region', { name: 'Two-factor sign-in' });
      await section.getByRole('button', { name: 'Set up' }).click();
      await section.getByRole('img', { name: 'QR code of your two-factor key' }).waitFor();
      await check('Two-factor set-up');
      await section.getByRole('button', { name: 'Cancel' }).click();
    }
    if (path === `/custom-forms/${ids.form}`) {
      await page.getByRole('tab', { name: 'Preview/Test' }).click();
      await page.getByRole('form', { name: /^Preview of / }).waitFor();
      await settle(page);
      await check('Form preview');
    }
  }

  // Dialogs: a record's create and edit forms, the media picker over one, Add Page, the
  // notification panel and the command palette.
  await go(page, '/notices');
  await settle(page, 'Notices');
  await page.getByRole('button', { name: 'Add Notice' }).click();
  const form = page.getByRole('dialog').filter({ has: page.locator('form') });
  await form.waitFor();
  await settle(page);
  await check('Create record dialog');
  await form.getByRole('button', { name: 'Select image' }).click();
  const chooser = page.getByRole('dialog', { name: /^Choose an image/ });
  await chooser.waitFor();
  await settle(page);
  await check('Media picker dialog');
  await page.keyboard.press('Escape');
  await chooser.waitFor({ state: 'detached' });
  await page.keyboard.press('Escape');
  await page.getByRole('dialog', { name: 'Please confirm' }).waitFor();
  await check('Confirmation dialog');
  await confirmYes(page, 'Are you sure to cancel?');
  await form.waitFor({ state: 'detached' });

  await go(page, '/faqs');
  await settle(page, 'FAQs');
  await page.getByRole('button', { name: 'Edit', exact: true }).first().click();
  await form.waitFor();
  await settle(page);
  await check('Edit record dialog');
  await closeForm(page, form);

  await go(page, '/pages');
  await settle(page, 'Pages');
  await page.getByRole('button', { name: 'Add Page' }).click();
  const addPage = page.getByRole('dialog', { name: 'Add Page' });
  await addPage.waitFor();
  await check('Add Page dialog');
  await page.keyboard.press('Escape');
  await addPage.waitFor({ state: 'detached' });

  await page.getByRole('button', { name: /^Notifications/ }).click();
  const bell = page.getByRole('dialog', { name: 'Notifications' });
  await bell.waitFor();
  await check('Notification panel');
  await page.keyboard.press('Escape');
  await bell.waitFor({ state: 'detached' });

  await page.keyboard.press('Control+/');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await palette.waitFor();
  await page.getByRole('listbox', { name: 'Results' }).waitFor();
  await check('Command palette');
  await page.keyboard.press('Escape');
  await palette.waitFor({ state: 'detached' });
}

describe('accessibility (issue 20)', () => {
  for (const mode of ['light', 'dark']) {
    test(`every screen in ${mode} mode: axe WCAG 2.1 A/AA`, { timeout: 120_000 }, async () => {
      await withPage((page) => auditMode(page, mode));
    });
  }

  test('every screen names itself in document.title', () => {
    assert.ok(results.titles.length > 0, 'the screens were visited');
    for (const { screen, title, doc } of results.titles) {
      assert.ok(doc === title || doc.startsWith(`${title} | `), `${screen}: document.title is "${doc}", wanted "${title}"`);
    }
    const distinct = new Set(results.titles.map((t) => t.doc));
    const perMode = new Set(results.titles.map((t) => t.screen)).size;
    // Edit and Create Page differ, and so on: one title per screen.
    assert.equal(distinct.size, perMode, 'each screen has its own title');
  });

  test('a modal keeps focus inside, closes on Escape and gives focus back', async () => {
    await withPage(async (page) => {
      await loginAndWait(page);
      await go(page, '/notices');
      await settle(page, 'Notices');
      const opener = page.getByRole('button', { name: 'Add Notice' });
      await opener.focus();
      await page.keyboard.press('Enter');
      const form = page.getByRole('dialog').filter({ has: page.locator('form') });
      await form.waitFor();
      await page.waitForFunction(() => document.querySelector('[role="dialog"]')?.contains(document.activeElement));
      // Tab well past the number of controls: focus cycles and never leaves.
      const count = await form.evaluate((d) => d.querySelectorAll('a[href], button, input, select, textarea, [tabindex]').length);
      for (let i = 0; i < count + 5; i++) {
        await page.keyboard.press('Tab');
        assert.ok(await focusInside(page), `Tab ${i + 1} left the dialog (focus on "${await focusedText(page)}")`);
      }
      for (let i = 0; i < count + 5; i++) {
        await page.keyboard.press('Shift+Tab');
        assert.ok(await focusInside(page), `Shift+Tab ${i + 1} left the dialog (focus on "${await focusedText(page)}")`);
      }
      await page.keyboard.press('Escape');
      const ask = page.getByRole('dialog', { name: 'Please confirm' });
      await ask.waitFor();
      assert.ok(await focusInside(page), 'focus moved into the confirmation');
      await ask.getByRole('button', { name: 'Yes' }).click();
      await form.waitFor({ state: 'detached' });
      assert.equal(await focusedText(page), 'Add Notice', 'focus went back to the opener');

      // The notification panel too (a modal with a single link), opened by its button.
      const bellButton = page.getByRole('button', { name: /^Notifications/ });
      await bellButton.click();
      const bell = page.getByRole('dialog', { name: 'Notifications' });
      await bell.waitFor();
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press(i % 2 ? 'Shift+Tab' : 'Tab');
        assert.ok(await focusInside(page), 'focus stays in the notification panel');
      }
      await page.keyboard.press('Escape');
      await bell.waitFor({ state: 'detached' });
      assert.ok(await bellButton.evaluate((el) => el === document.activeElement), 'focus went back to the bell');
    });
  });

  test('no serious or critical finding', () => {
    // Counted as axe counts violations: a rule failing on a screen in a mode (its elements apart).
    const violations = new Map(results.findings.map((f) => [`${f.mode} ${f.screen} ${f.rule}`, f.impact]));
    const critical = [...violations.values()].filter((i) => i === 'critical').length;
    const serious = violations.size - critical;
    const criticalNodes = results.findings.filter((f) => f.impact === 'critical').length;
    const modes = new Set(results.findings.map((f) => f.mode));
    console.log(`a11y: ${results.screens / 2} screens x 2 modes, critical ${critical}, serious ${serious} (elements: critical ${criticalNodes}, serious ${results.findings.length - criticalNodes})`);
    // One line per distinct finding, with the screens and modes it shows on.
    const grouped = new Map();
    for (const f of results.findings) {
      const key = `${f.rule} (${f.impact}) at ${f.target}${f.summary ? ` — ${f.summary}` : ''}`;
      const g = grouped.get(key) ?? new Set();
      g.add(`${f.screen}/${f.mode}`);
      grouped.set(key, g);
    }
    const lines = [...grouped].map(([k, where]) => `${k}\n    on ${[...where].slice(0, 6).join(', ')}${where.size > 6 ? ` and ${where.size - 6} more` : ''}`);
    if (lines.length) console.log(lines.join('\n'));
    assert.equal(results.findings.length, 0, `${lines.length} distinct findings in ${[...modes].join(' and ')} mode`);
  });
});
