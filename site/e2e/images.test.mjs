// Browser tests of images sized for every screen (issue 23): the Media Library's grid moves only
// the small copies the server made at upload, and the demo website, on a phone, loads the copy
// that fits the viewport, never the original. Both read the demo's images, whose copies the
// local server makes in the background after seeding (waited for first).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BASE_URL, adminToken, apiCall, loginAndWait, useBrowser } from './helpers.mjs';

const PORT = new URL(BASE_URL).port || '80';
const SITE = `http://demo.localhost:${PORT}`;

let images = [];
const withPage = useBrowser({
  timeout: 20_000,
  beforeAll: async () => {
    const token = await adminToken();
    // The demo's images get their copies in the background: wait until every one lists them.
    for (let i = 0; i < 60; i++) {
      images = (await apiCall('GET', '/media?mediaType=IMAGE&limit=100', undefined, token)).result;
      if (images.length > 0 && images.every((it) => it.variants?.length)) return;
      await new Promise((r) => setTimeout(r, 1000));
    }
    assert.fail('the demo images never got their sized copies');
  },
});

/** imageResponses collects every image the page fetches from the media prefix, with its bytes;
 * settled() waits for the bodies of those answered so far (each is read after its response). */
function imageResponses(page) {
  const seen = [];
  const reading = [];
  page.on('response', (res) => {
    if (!new URL(res.url()).pathname.startsWith('/media/') || res.request().resourceType() !== 'image') return;
    reading.push(res.body().catch(() => Buffer.alloc(0)).then((body) => {
      seen.push({ path: new URL(res.url()).pathname, bytes: body.length, status: res.status() });
    }));
  });
  seen.settled = () => Promise.all(reading);
  return seen;
}

describe('images sized for every screen', () => {
  test('the Media Library grid transfers only thumbnails', async () => {
    await withPage(async (page) => {
      const seen = imageResponses(page);
      await loginAndWait(page);
      await page.getByRole('link', { name: 'Media Library' }).click();
      await page.waitForURL('**/media');
      const cards = page.locator('.media-card img.media-thumb');
      await cards.first().waitFor();
      const shown = await cards.count();
      await page.waitForFunction(
        (n) => [...document.querySelectorAll('.media-card img.media-thumb')].filter((i) => i.complete && i.naturalWidth > 0).length === n,
        shown,
      );
      await seen.settled();
      const thumbs = seen.filter((r) => r.status === 200);
      assert.ok(thumbs.length >= shown, `${thumbs.length} images fetched for ${shown} cards`);
      const originals = thumbs.filter((r) => !r.path.endsWith('/w/thumb'));
      assert.deepEqual(originals, [], 'the grid fetched originals');
      const sent = thumbs.reduce((n, r) => n + r.bytes, 0);
      const byRef = new Map(images.map((it) => [it.fileUrl.split('/')[0], it]));
      const before = thumbs.reduce((n, r) => n + (byRef.get(r.path.split('/')[3])?.fileSize ?? 0), 0);
      console.log(`media grid: ${thumbs.length} images, ${sent} bytes sent; their originals would be ${before} bytes (${(before / Math.max(sent, 1)).toFixed(1)}×)`);
      assert.ok(sent < before / 2, `thumbnails (${sent} bytes) are not much smaller than the originals (${before} bytes)`);
    });
  });

  test('the website on a phone loads the copy that fits the viewport, never the original', async () => {
    await withPage(
      async (page) => {
        const seen = imageResponses(page);
        await page.goto(SITE + '/');
        await page.waitForLoadState('networkidle');
        const hero = page.locator('.slide img').first();
        await hero.waitFor();
        const current = await hero.evaluate((img) => new URL(img.currentSrc).pathname);
        // At most 390 CSS pixels at device pixel ratio 1: the 480-pixel copy (copies 1.5 times apart).
        assert.match(current, /\/w\/480\.jpg$/, `the hero loaded ${current}`);
        const { width, height } = await hero.evaluate((img) => ({ width: img.getAttribute('width'), height: img.getAttribute('height') }));
        assert.ok(width && height, 'the hero has width and height (no layout shift)');
        const preload = await page.locator('link[rel="preload"][as="image"]').getAttribute('imagesrcset');
        assert.match(preload ?? '', /\/w\/640\.jpg 640w/, 'the hero is preloaded with its srcset');
        await seen.settled();
        const originals = seen.filter((r) => !r.path.includes('/w/'));
        assert.deepEqual(originals, [], 'the page fetched originals');
        const sent = seen.reduce((n, r) => n + r.bytes, 0);
        console.log(`demo home on a phone: ${seen.length} images, ${sent} bytes`);
      },
      { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 },
    );
  });
});
