// Browser test of scheduled publishing against a running server (E2E_BASE_URL): schedule a page
// for the next minute in the page editor, see it Scheduled and absent from the public API and the
// website, then see it go live on both at that minute (public reads check the dates themselves),
// and the job move its stored state to live as the scheduler (versioned). Run the server with a
// short SCHEDULE_INTERVAL (e.g. 5s) so the job's part takes seconds rather than a minute.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BASE_URL, TENANT, adminToken, apiCall, loginAndWait, useBrowser } from './helpers.mjs';

const RUN = Date.now().toString(36);
const PORT = new URL(BASE_URL).port || '80';
const SITE = `http://${TENANT}.localhost:${PORT}`;
const PUBLIC = `${BASE_URL}/api/v1/public`;
const withPage = useBrowser({ timeout: 20_000 });

/** publicStatus is the public API's answer for a page slug (no cache in between, like the origin). */
async function publicStatus(slug) {
  const res = await fetch(`${PUBLIC}/pages/${slug}?t=${Date.now()}`, { headers: { 'X-Tenant-Id': TENANT } });
  return res.status;
}

/** nextMinute is the start of the next whole minute at least 20 s away (time to fill and save). */
function nextMinute() {
  const at = new Date(Math.ceil((Date.now() + 20_000) / 60_000) * 60_000);
  return at;
}

describe('scheduled publishing', () => {
  test('a page scheduled for the next minute goes live on the public API and the website at that minute', { timeout: 150_000 }, async () => {
    const token = await adminToken();
    const slug = `open-day-${RUN}`;
    const created = await apiCall('POST', '/pages', { title: `Open day ${RUN}`, slug, description: 'Scheduled by the browser test' }, token);
    const id = created.result.id;
    const at = nextMinute();

    await withPage(async (page) => {
      await loginAndWait(page);
      await page.goto(`/pages/${id}`);
      await page.getByRole('form', { name: 'Edit Page' }).waitFor();
      // datetime-local edits in the browser's own zone: format the instant there.
      const local = await page.evaluate((ms) => {
        const d = new Date(ms);
        const p = (n) => String(n).padStart(2, '0');
        return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
      }, at.getTime());
      await page.getByLabel('Publish at', { exact: true }).fill(local);
      const chip = page.locator('.page-switches .schedule-chip');
      assert.equal(await chip.textContent(), 'Scheduled');
      const saved = page.waitForResponse((r) => r.url().endsWith(`/pages/${id}`) && r.request().method() === 'PATCH');
      await page.getByRole('button', { name: 'Save', exact: true }).last().click();
      const res = await saved;
      assert.equal(res.status(), 200);
      const body = await res.json();
      assert.equal(body.result.publishAt, at.toISOString().replace('.000Z', 'Z'));
      assert.equal(body.result.schedule, 'scheduled');

      // Before the minute: hidden from the public API and the website.
      assert.ok(Date.now() < at.getTime() - 2_000, 'the save took too long to check the before state');
      assert.equal(await publicStatus(slug), 404);
      const before = await page.goto(`${SITE}/${slug}?t=${Date.now()}`);
      assert.equal(before.status(), 404);

      // The list shows it Scheduled too.
      await page.goto('/pages');
      await page.getByRole('row').filter({ hasText: `Open day ${RUN}` }).locator('.schedule-chip', { hasText: 'Scheduled' }).waitFor();

      // At the minute: both front doors show it (polled every 250 ms; no job involved).
      await new Promise((r) => setTimeout(r, Math.max(0, at.getTime() - Date.now())));
      let status = 0;
      while (Date.now() < at.getTime() + 5_000) {
        status = await publicStatus(slug);
        if (status === 200) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      assert.equal(status, 200, 'the public API did not show the page at its minute');
      const liveAfter = Date.now() - at.getTime();
      assert.ok(liveAfter < 5_000, `live ${liveAfter} ms after the minute`);
      const after = await page.goto(`${SITE}/${slug}?t=${Date.now()}`);
      assert.equal(after.status(), 200);
      await page.getByRole('heading', { name: `Open day ${RUN}` }).first().waitFor();

      // The job moves the stored state (every SCHEDULE_INTERVAL): a new version by the scheduler.
      let rec;
      const deadline = Date.now() + 75_000;
      do {
        await new Promise((r) => setTimeout(r, 1_000));
        rec = (await apiCall('GET', `/pages/${id}`, undefined, token)).result;
      } while (rec.schedule !== 'live' && Date.now() < deadline);
      assert.equal(rec.schedule, 'live', 'the job did not move the stored state');
      const versions = await apiCall('GET', `/pages/${id}/versions`, undefined, token);
      assert.equal(versions.result[0].byName, 'scheduler');
      assert.deepEqual(versions.result[0].changed, ['schedule']);

      await page.goto(`/pages/${id}`);
      await page.getByRole('form', { name: 'Edit Page' }).waitFor();
      assert.equal(await page.locator('.page-switches .schedule-chip').textContent(), 'Live');
    });
  });
});
