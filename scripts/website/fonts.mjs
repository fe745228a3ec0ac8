// Copies the open fallback of each of the panel's twelve font choices (shared/website/fonts.json)
// from its @fontsource package (site/node_modules) into shared/website/assets/fonts, latin
// subset, weights 400 and 700 where the family has them. The website embeds and self-hosts them:
// no visitor ever fetches a font from a third party. The website tries each font installed first
// (fonts.json "local": the font's real full and PostScript names, then its metric-compatible
// twins) and downloads these only where it is missing; "metrics" and "fallbackMetrics" (units per
// em, ascent, descent, line gap, average width; from @capsizecss/metrics) give the downloaded
// face the system font's line metrics and width (shared/website/style.go). --check also checks
// that every choice names its local fonts and, for a fallback of other proportions, its own.
//   node scripts/website/fonts.mjs          copy
//   node scripts/website/fonts.mjs --check  fail if the committed files differ from the packages
import { readFileSync, writeFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fonts = JSON.parse(readFileSync(join(root, 'shared/website/fonts.json'), 'utf8'));
const out = join(root, 'shared/website/assets/fonts');
const check = process.argv.includes('--check');
mkdirSync(out, { recursive: true });
const wanted = new Set();
let differ = 0;
for (const { package: pkg } of Object.values(fonts)) {
  for (const weight of [400, 700]) {
    const src = join(root, 'site/node_modules/@fontsource', pkg, 'files', `${pkg}-latin-${weight}-normal.woff2`);
    if (!existsSync(src)) continue;
    const name = `${pkg}-${weight}.woff2`;
    if (wanted.has(name)) continue;
    wanted.add(name);
    const bytes = readFileSync(src);
    const dst = join(out, name);
    if (check) {
      if (!existsSync(dst) || !readFileSync(dst).equals(bytes)) {
        console.error(`fonts: ${name} differs from @fontsource/${pkg}`);
        differ++;
      }
    } else {
      writeFileSync(dst, bytes);
    }
  }
}
for (const [name, f] of Object.entries(fonts)) {
  if (!f.local?.['400']?.length || f.local['400'][0] !== name) {
    console.error(`fonts: ${name} does not try itself first (local["400"])`);
    differ++;
  }
  if (!f.metric && !f.fallbackLocal?.['400']?.length) {
    console.error(`fonts: ${name}'s fallback ${f.fallback} is not metric-compatible and names no local font of its own`);
    differ++;
  }
  for (const m of [f.metrics, f.fallbackMetrics]) {
    if (m && !(m.unitsPerEm > 0 && m.ascent > 0 && m.descent <= 0 && m.lineGap >= 0 && m.xWidthAvg > 0)) {
      console.error(`fonts: ${name}: metrics ${JSON.stringify(m)} are not a font's`);
      differ++;
    }
  }
}
for (const f of readdirSync(out)) {
  if (!wanted.has(f)) {
    console.error(`fonts: ${f} is not a fallback of fonts.json`);
    differ++;
  }
}
if (differ) process.exit(1);
console.log(`fonts: ${wanted.size} files ${check ? 'match' : 'copied'}`);
