// Browser test of the newsletter (issue 33): a footer signup on the website → the confirmation
// mail in the dev server's mailbox (E2E_MAILBOX_URL) → its page's button confirms → staff send a
// newsletter from the panel's Newsletters screen → the mail arrives with one-click
// List-Unsubscribe headers → a POST to that link unsubscribes → Newsletter Signups shows it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { adminToken, apiCall, axeViolations, confirmYes, loginAndWait, useBrowser } from './helpers.mjs';
import { SITE } from './website-theme.mjs';

const RUN = Date.now().toString(36);
const MAILBOX = (process.env.E2E_MAILBOX_URL ?? 'http://127.0.0.1:8025').replace(/\/$/, '');
const READER = `reader-${RUN}@example.org`;
const SUBJECT = `News ${RUN}`;

let token;
const call = (method, path, body) => apiCall(method, path, body, token);
const withPage = useBrowser({
  timeout: 40_000,
  beforeAll: async () => {
    token = await adminToken();
  },
});

const recipients = (m) => (m.to ?? []).map((a) => String(a.address ?? a).toLowerCase());
const header = (m, name) => {
  const v = m.headers?.[name];
  return Array.isArray(v) ? v[0] : (v ?? '');
};

/** mailTo polls the mailbox until a mail to address whose subject matches arrives. */
// 100 s: a send step that fails once (a busy machine) is retried by the schedule job after a minute.
async function mailTo(address, subject, timeoutMs = 100_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${MAILBOX}/email`);
    assert.equal(res.status, 200, 'mailbox answers');
    const found = (await res.json()).find((m) => recipients(m).includes(address) && subject.test(m.subject));
    if (found) return found;
    if (Date.now() > deadline) assert.fail(`no mail to ${address} matching ${subject} after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('newsletter', () => {
  test('signup → confirm → send → one-click unsubscribe', async () => {
    await call('PATCH', '/footer', { showNewsletterSignup: true });
    await withPage(async (page) => {
      await page.goto(`${SITE}/faqs`); // the home page opens a popup over the footer
      await page.locator('#newsletter-email').fill(READER);
      await page.locator('form.newsletter').getByRole('button', { name: 'Subscribe' }).click();
      await page.getByText('Thanks for subscribing!').waitFor();

      const confirmation = await mailTo(READER, /^Confirm your subscription/);
      const link = confirmation.text.match(/https?:\/\/\S+\/newsletter\/confirm\?token=[\w%-]+/)?.[0];
      assert.ok(link, `confirmation link in:\n${confirmation.text}`);
      await page.goto(link);
      await page.getByText('mail programs open links').waitFor();
      assert.deepEqual(await axeViolations(page, 'body'), [], 'the confirmation page passes axe');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByText('Your subscription is confirmed. Thank you!').waitFor();
    });

    const { result } = await call('POST', '/newsletters', { subject: SUBJECT, content: `<p>Hello from the panel ${RUN}</p>` });
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto(`${new URL(process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080').origin}/newsletters?search=${encodeURIComponent(SUBJECT)}`);
      const row = page.getByRole('row').filter({ hasText: SUBJECT });
      await row.getByRole('button', { name: 'Send', exact: true }).click();
      await confirmYes(page, 'to every confirmed subscriber');
    });

    const news = await mailTo(READER, new RegExp(`^${SUBJECT}$`));
    assert.ok(news.text.includes(`Hello from the panel ${RUN}`));
    const unsubscribe = header(news, 'list-unsubscribe').replace(/^<|>$/g, '');
    assert.match(unsubscribe, /\/newsletter\/unsubscribe\?token=/);
    assert.equal(header(news, 'list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
    // The GET page only offers a button; then the one-click POST a mail client sends (RFC 8058),
    // made from the browser, which resolves *.localhost (Node does not).
    await withPage(async (page) => {
      await page.goto(unsubscribe);
      await page.getByRole('button', { name: 'Unsubscribe' }).waitFor();
      const status = await page.evaluate(async (url) => (await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' })).status, unsubscribe);
      assert.equal(status, 200);
    });

    // The job marks the newsletter sent at its next step, once no one is left (a run every 5 s here).
    let sent;
    for (const until = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 1_000))) {
      sent = await call('GET', `/newsletters/${result.id}`);
      if (sent.result.state === 'sent' || Date.now() > until) break;
    }
    assert.equal(sent.result.state, 'sent');
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto(`${new URL(process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080').origin}/newsletter-signups?search=${encodeURIComponent(READER)}`);
      await page.getByRole('row').filter({ hasText: READER }).getByText('unsubscribed').waitFor();
    });
  });
});
