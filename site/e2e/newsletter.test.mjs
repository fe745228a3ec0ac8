// Browser test of the newsletter (issue 33): a footer signup on the website → the confirmation
// mail in the dev server's mailbox (E2E_MAILBOX_URL) → its page's button confirms → staff preview
// a newsletter (the saved one from its row, unsaved edits from its form: HTML in a sandboxed
// frame, the text part by a toggle) and send it from the panel's Newsletters screen → its row
// shows the send's progress and, read again on its own, that it is sent → the mail arrives with
// one-click List-Unsubscribe headers → a POST to that link unsubscribes → Newsletter Signups shows
// it and the newsletter's counts show the unsubscribe.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { adminToken, apiCall, axeViolations, confirmYes, loginAndWait, useBrowser } from './helpers.mjs';
import { SITE } from './website-theme.mjs';

const RUN = Date.now().toString(36);
const MAILBOX = (process.env.E2E_MAILBOX_URL ?? 'http://127.0.0.1:8025').replace(/\/$/, '');
const READER = `reader-${RUN}@example.org`;
const SUBJECT = `News ${RUN}`;
const PANEL = new URL(process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080').origin;

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

    const { result } = await call('POST', '/newsletters', { subject: SUBJECT, content: `<p>Hello from the panel ${RUN}</p><script>window.top.hacked = 1</script>` });
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto(`${PANEL}/newsletters?search=${encodeURIComponent(SUBJECT)}`);
      const row = page.getByRole('row').filter({ hasText: SUBJECT });

      // The saved newsletter, as a subscriber gets it: HTML in a sandboxed frame, the text part by the toggle.
      await row.getByRole('button', { name: 'Preview', exact: true }).click();
      const preview = page.getByRole('dialog', { name: 'Newsletter preview' });
      const frame = preview.locator('iframe');
      await frame.waitFor();
      assert.equal(await frame.getAttribute('sandbox'), '', 'the frame runs nothing');
      assert.equal(await frame.getAttribute('title'), `Preview of the newsletter “${SUBJECT}”`);
      await preview.frameLocator('iframe').getByText(`Hello from the panel ${RUN}`).waitFor();
      await preview.frameLocator('iframe').getByRole('link', { name: 'Unsubscribe' }).waitFor();
      assert.equal(await page.evaluate(() => window.hacked), undefined, 'no script of the content ran');
      await preview.getByRole('button', { name: 'Plain text' }).click();
      assert.equal(await preview.getByRole('button', { name: 'Plain text' }).getAttribute('aria-pressed'), 'true');
      const text = await preview.locator('pre').innerText();
      assert.ok(text.includes(`Hello from the panel ${RUN}`) && /Unsubscribe: \S+\/newsletter\/unsubscribe\?token=preview/.test(text), text);
      assert.deepEqual(await axeViolations(page, '.modal'), [], 'the preview passes axe');
      await preview.getByRole('button', { name: 'Close' }).click();
      await preview.waitFor({ state: 'detached' });

      // Unsaved edits preview from the form, and stay unsaved.
      await row.getByRole('button', { name: 'Edit', exact: true }).click();
      const form = page.getByRole('form', { name: 'Edit Newsletter' });
      await form.getByLabel(/^Subject/).fill(`${SUBJECT} (draft)`);
      await form.getByRole('button', { name: 'Preview', exact: true }).click();
      const draft = page.getByRole('dialog', { name: 'Newsletter preview' });
      await draft.getByText('nothing is saved until you press Save').waitFor();
      await draft.getByText(`${SUBJECT} (draft)`, { exact: true }).waitFor();
      await draft.frameLocator('iframe').getByText(`Hello from the panel ${RUN}`).waitFor();
      await draft.getByRole('button', { name: 'Close' }).click();
      await draft.waitFor({ state: 'detached' });
      await form.getByRole('button', { name: 'Cancel' }).click();
      await confirmYes(page, 'Are you sure to cancel?');
      assert.equal((await call('GET', `/newsletters/${result.id}`)).result.subject, SUBJECT, 'a preview saves nothing');

      await row.getByRole('button', { name: 'Send', exact: true }).click();
      await confirmYes(page, 'to every confirmed subscriber');
      // The row shows the send under way ("Sending: n of N" over a progress bar), or, if the job
      // was quicker, that it is sent; read again every few seconds, it ends sent without a reload.
      const sending = row.getByRole('progressbar', { name: `Sending progress of “${SUBJECT}”` });
      await sending.or(row.getByRole('cell', { name: 'sent', exact: true })).first().waitFor();
      if (await sending.isVisible()) {
        assert.match(await sending.getAttribute('aria-valuetext'), /^Sending: [\d,]+ of [\d,]+$/);
        assert.match(await row.innerText(), /Sending: [\d,]+ of [\d,]+/);
      }
      await row.getByRole('cell', { name: 'sent', exact: true }).waitFor({ timeout: 100_000 });
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
    // The unsubscribe through this newsletter's link is counted on it, once.
    assert.equal(sent.result.unsubscribedCount, 1, JSON.stringify(sent.result));
    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto(`${PANEL}/newsletter-signups?search=${encodeURIComponent(READER)}`);
      await page.getByRole('row').filter({ hasText: READER }).getByText('unsubscribed').waitFor();
      // The newsletter's final counts: in its row, and listed in its preview.
      await page.goto(`${PANEL}/newsletters?search=${encodeURIComponent(SUBJECT)}`);
      const row = page.getByRole('row').filter({ hasText: SUBJECT });
      await row.waitFor();
      const headers = await page.getByRole('columnheader').allInnerTexts();
      const cells = await row.getByRole('cell').allInnerTexts();
      const column = (label) => cells[headers.findIndex((h) => h.replace(/[▲▼↕]/g, '').trim() === label)];
      assert.equal(column('Unsubscribed'), '1', JSON.stringify({ headers, cells }));
      assert.equal(column('Bounced'), '0');
      assert.equal(column('Sent'), String(sent.result.sentCount));
      await row.getByRole('button', { name: 'Preview', exact: true }).click();
      const counts = page.getByRole('dialog', { name: 'Newsletter preview' }).getByRole('list', { name: 'Counts' });
      await counts.getByText('Unsubscribed: 1', { exact: true }).waitFor();
      await counts.getByText(`Sent: ${sent.result.sentCount.toLocaleString('en-US')}`, { exact: true }).waitFor();
    });
  });
});
