// Browser test of form notifications (issue 33): a form with notification addresses and an
// auto-reply, posted on the website with JavaScript off, mails each address (every field and a
// link to the submission in the panel, Reply-To the visitor) and the visitor (the auto-reply),
// as the local mailbox (E2E_MAILBOX_URL, the dev server's own) receives them.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { BASE_URL, adminToken, apiCall, useBrowser } from './helpers.mjs';
import { SITE } from './website-theme.mjs';

const RUN = Date.now().toString(36);
const MAILBOX = (process.env.E2E_MAILBOX_URL ?? 'http://127.0.0.1:8025').replace(/\/$/, '');
const OFFICE = `office-${RUN}@example.org`;
const VISITOR = `visitor-${RUN}@example.org`;

let token;
let formId;
const call = (method, path, body) => apiCall(method, path, body, token);

const withPage = useBrowser({
  beforeAll: async () => {
    token = await adminToken();
  },
});
after(async () => {
  if (formId) await call('DELETE', `/custom-forms/${formId}`).catch(() => {});
});

/** recipients are the addresses a mailbox message went to. */
const recipients = (m) => (m.to ?? []).map((a) => String(a.address ?? a).toLowerCase());

/** mailTo polls the mailbox (the worker sends every few seconds) until a mail to address arrives. */
async function mailTo(address, timeoutMs = 25_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${MAILBOX}/email`);
    assert.equal(res.status, 200, 'mailbox answers');
    const found = (await res.json()).find((m) => recipients(m).includes(address));
    if (found) return found;
    if (Date.now() > deadline) assert.fail(`no mail to ${address} in the mailbox after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const header = (m, name) => {
  const v = m.headers?.[name];
  return Array.isArray(v) ? v[0] : (v ?? '');
};

describe('form notifications', () => {
  test('a form posted on the website without JavaScript mails its notify address and the visitor', async () => {
    const fields = [
      { id: 'NEW_1', label: 'Name', fieldType: 'text', required: true },
      { id: 'NEW_2', label: 'Email', fieldType: 'email', required: true },
      { id: 'NEW_3', label: 'Message', fieldType: 'textarea', required: true },
    ];
    const { result } = await call('POST', '/custom-forms', {
      name: `Enquiries ${RUN}`,
      image: '',
      status: true,
      fields: JSON.stringify(fields),
      notifyEmails: [OFFICE],
      autoReplySubject: `Thanks for your enquiry ${RUN}`,
      autoReplyMessage: 'We have your message and answer within two working days.',
    });
    formId = result.id;
    assert.deepEqual(result.notifyEmails, [OFFICE]);

    const message = `Hello <b>from</b> the website ${RUN}`;
    await withPage(
      async (page) => {
        await page.goto(`${SITE}/forms/${formId}`);
        const form = page.locator('form.cms-form');
        await form.getByLabel('Name').fill(`Visitor ${RUN}`);
        assert.equal(await form.getByLabel('Email').getAttribute('type'), 'email');
        await form.getByLabel('Email').fill(VISITOR);
        await form.getByLabel('Message').fill(message);
        await form.getByRole('button', { name: 'Submit' }).click();
        await page.getByText('Thank you! Your response has been submitted.').waitFor();
        assert.equal(await page.evaluate(() => document.documentElement.classList.contains('js')), false, 'JavaScript really off');
      },
      { javaScriptEnabled: false },
    );

    const { result: subs } = await call('GET', `/custom-form-submissions?formId=${formId}&limit=5`);
    assert.equal(subs.length, 1, 'the submission is stored');

    const note = await mailTo(OFFICE);
    assert.equal(note.subject, `New submission: Enquiries ${RUN}`);
    assert.match(header(note, 'reply-to'), new RegExp(VISITOR.replace(/[.]/g, '\\.')));
    for (const want of [`Name:\nVisitor ${RUN}`, `Email:\n${VISITOR}`, `Message:\n${message}`]) assert.ok(note.text.includes(want), `notification text has ${JSON.stringify(want)}:\n${note.text}`);
    assert.ok(note.html.includes('Hello &lt;b&gt;from&lt;/b&gt;'), 'the visitor\'s markup is escaped in the HTML part');
    const link = `${BASE_URL}/custom-forms/${formId}/submissions?submission=${subs[0].id}`;
    assert.ok(note.text.includes(link), `notification links to the submission in the panel (${link}):\n${note.text}`);

    const reply = await mailTo(VISITOR);
    assert.equal(reply.subject, `Thanks for your enquiry ${RUN}`);
    assert.ok(reply.text.includes('We have your message and answer within two working days.'));
    assert.ok(!reply.text.includes(message), 'the auto-reply does not echo what the visitor wrote');
    assert.equal(header(reply, 'auto-submitted'), 'auto-replied');

    // The link opens the form's submissions in the panel.
    await withPage(async (page) => {
      const { loginAndWait } = await import('./helpers.mjs');
      await loginAndWait(page);
      await page.goto(link);
      await page.getByText(message).waitFor();
    });
  });
});
