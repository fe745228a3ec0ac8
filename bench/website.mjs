// Measures the public website (shared/website) of the demo tenant in each theme, for the home
// page, a page with sections (/about) and a list (/events): bytes transferred (HTML+CSS and JS
// gzipped, fonts as served), Lighthouse's four scores with mobile emulation, and axe-core's
// serious/critical violations. Prints figures and whether each goal is met; never fails on a
// missed goal. Run through bench/website.sh, which starts the dev server.
//   BASE_URL=http://127.0.0.1:PORT DEMO_ADMIN_PASSWORD=... node bench/website.mjs
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const requireBench = createRequire(join(here, 'package.json'));
const requireSite = createRequire(join(here, '..', 'site', 'package.json'));
const { chromium } = requireSite('playwright-core');

const BASE = (process.env.BASE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const PORT = new URL(BASE).port || '80';
const SITE = `http://${process.env.TENANT ?? 'demo'}.localhost:${PORT}`;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const THEMES = (process.env.THEMES ?? 'classic,modern,campus,minimal,vibrant').split(',');
const PAGES = [['home', '/'], ['sections', '/about'], ['events', '/events']];
const DEBUG_PORT = Number(process.env.DEBUG_PORT ?? 9339);
const GOALS = { htmlCss: 60 * 1024, js: 15 * 1024, perf: 95 };

async function api(method, path, body, token) {
  const res = await fetch(`${BASE}/api/v1/tenant${path}`, {
    method,
    headers: { 'X-Tenant-Id': 'demo', 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} -> ${res.status} ${text}`);
  return JSON.parse(text);
}

function optional(name) {
  try {
    return requireBench.resolve(name);
  } catch {
    return null;
  }
}

const kB = (n) => (n / 1024).toFixed(1);

async function main() {
  const token = (await api('POST', '/auth/login', { username: process.env.DEMO_ADMIN_USERNAME ?? 'admin', password: process.env.DEMO_ADMIN_PASSWORD })).result.token;
  // The demo's images get their sized copies in the background after seeding: measure the site
  // as visitors see it once they exist.
  for (let i = 0; i < 60; i++) {
    const images = (await api('GET', '/media?mediaType=IMAGE&limit=100', undefined, token)).result;
    if (images.every((it) => it.variants?.length)) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  const axePath = optional('axe-core/axe.min.js');
  let lighthouse = null;
  let lhWhyNot = '';
  if (optional('lighthouse')) {
    try {
      lighthouse = (await import(requireBench.resolve('lighthouse'))).default;
    } catch (err) {
      lhWhyNot = `lighthouse failed to load: ${err.message}`;
    }
  } else lhWhyNot = 'lighthouse is not installed (npm ci --prefix bench)';
  if (!axePath) console.log('axe-core is not installed (npm ci --prefix bench): no accessibility audit.');
  if (!lighthouse) console.log(`No Lighthouse scores: ${lhWhyNot}.`);

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', `--remote-debugging-port=${DEBUG_PORT}`],
  });
  const rows = [];
  const findings = [];
  try {
    for (const theme of THEMES) {
      await api('PATCH', '/theme-settings', { themeId: theme }, token);
      for (const [kind, path] of PAGES) {
        const url = SITE + path;
        const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true });
        const page = await context.newPage();
        const bytes = { htmlCss: 0, js: 0, fonts: 0 };
        const pending = [];
        page.on('response', (res) => {
          const type = res.request().resourceType();
          if (!['document', 'stylesheet', 'script', 'font'].includes(type) || res.status() !== 200) return;
          pending.push(res.body().then((b) => {
            if (type === 'font') bytes.fonts += b.length;
            else if (type === 'script') bytes.js += gzipSync(b, { level: 9 }).length;
            else bytes.htmlCss += gzipSync(b, { level: 9 }).length;
          }).catch(() => {}));
        });
        await page.goto(url, { waitUntil: 'load' });
        await Promise.all(pending);
        let axe = null;
        if (axePath) {
          await page.addScriptTag({ path: axePath });
          const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')), count: v.nodes.length })));
          axe = violations.length;
          for (const v of violations) findings.push(`${theme} ${path}: axe ${v.impact} ${v.id} ×${v.count} at ${v.nodes.join(' | ')}`);
        }
        await context.close();
        let lh = null;
        if (lighthouse) {
          try {
            const out = await lighthouse(url, { port: DEBUG_PORT, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] });
            const c = out.lhr.categories;
            const au = out.lhr.audits;
            lh = { perf: c.performance.score, a11y: c.accessibility.score, bp: c['best-practices'].score, seo: c.seo.score,
              lcp: au['largest-contentful-paint'].numericValue, cls: au['cumulative-layout-shift'].numericValue };
            if (c.performance.score * 100 < GOALS.perf) {
              const lcpEl = au['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.selector ?? '?';
              const slow = Object.values(au).filter((a) => a.details?.type === 'opportunity' && (a.details.overallSavingsMs ?? 0) > 100).map((a) => `${a.id} ~${Math.round(a.details.overallSavingsMs)}ms`);
              findings.push(`${theme} ${path}: perf ${Math.round(c.performance.score * 100)}: LCP ${(lh.lcp / 1000).toFixed(1)}s (${lcpEl}), CLS ${lh.cls.toFixed(3)}${slow.length ? `; ${slow.join(', ')}` : ''}`);
            }
            for (const [id, a] of Object.entries(out.lhr.audits)) {
              if (a.score !== null && a.score < 1 && ['accessibility', 'best-practices', 'seo'].some((k) => out.lhr.categories[k].auditRefs.some((r) => r.id === id && r.weight > 0))) {
                findings.push(`${theme} ${path}: lighthouse ${id} (${a.title})`);
              }
            }
          } catch (err) {
            findings.push(`${theme} ${path}: lighthouse failed: ${err.message}`);
          }
        }
        rows.push({ theme, kind, path, ...bytes, axe, lh });
        process.stderr.write('.');
      }
    }
  } finally {
    await api('PATCH', '/theme-settings', { themeId: 'classic' }, token).catch(() => {});
    await browser.close();
  }
  process.stderr.write('\n');

  const pct = (s) => (s === null || s === undefined ? '  -' : String(Math.round(s * 100)).padStart(3));
  console.log('theme    page      HTML+CSS gz   JS gz  fonts   perf a11y  bp  seo  axe(serious+critical)');
  let ok = { bytes: true, js: true, lh: lighthouse ? true : null, axe: axePath ? true : null };
  for (const r of rows) {
    console.log(`${r.theme.padEnd(8)} ${r.kind.padEnd(9)} ${kB(r.htmlCss).padStart(8)} kB ${kB(r.js).padStart(5)} kB ${kB(r.fonts).padStart(5)} kB ${pct(r.lh?.perf)}  ${pct(r.lh?.a11y)} ${pct(r.lh?.bp)} ${pct(r.lh?.seo)}  ${r.axe ?? '-'}`);
    if (r.htmlCss > GOALS.htmlCss) ok.bytes = false;
    if (r.js > GOALS.js) ok.js = false;
    if (r.lh && (r.lh.perf * 100 < GOALS.perf || r.lh.a11y < 1 || r.lh.bp < 1 || r.lh.seo < 1)) ok.lh = false;
    if (r.axe) ok.axe = false;
  }
  const say = (v) => (v === null ? 'not measured' : v ? 'met' : 'MISSED');
  console.log(`\nGoals: HTML+CSS <= 60 kB gz: ${say(ok.bytes)}; script <= 15 kB gz: ${say(ok.js)}; Lighthouse perf >= 95 and a11y/best-practices/SEO = 100: ${say(ok.lh)}; axe 0 serious/critical: ${say(ok.axe)}`);
  if (findings.length) console.log(`\nFindings:\n  ${[...new Set(findings)].join('\n  ')}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
