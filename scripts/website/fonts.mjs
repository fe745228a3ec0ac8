// Copies the open fallback of each of the panel's twelve font choices (shared/website/fonts.json)
// from its @fontsource package (site/node_modules) into shared/website/assets/fonts, latin
// subset, weights 400 and 700 where the family has them. The website embeds and self-hosts them:
// no visitor ever fetches a font from a third party.
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
for (const f of readdirSync(out)) {
  if (!wanted.has(f)) {
    console.error(`fonts: ${f} is not a fallback of fonts.json`);
    differ++;
  }
}
if (differ) process.exit(1);
console.log(`fonts: ${wanted.size} files ${check ? 'match' : 'copied'}`);
