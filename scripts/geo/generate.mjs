// README: regenerates shared/geo/data/ (the embedded countries/states/cities
// catalogue used by github.com/campuscms/panel/shared/geo) from the npm package
// country-state-city (data derived from dr5hn/countries-states-cities-database).
//
//   node scripts/geo/generate.mjs            # from the repository root
//
// Needs Node >= 18 and the `npm` client (it runs `npm pack` into a temporary
// directory and reads the tarball itself, so no node_modules and no `tar`
// binary are needed). The output is deterministic: running it twice with the
// same package version yields byte-identical files. Commit the result; Go
// builds never run this script. To move to a newer data release, change
// PKG_VERSION, run the script, run `go test ./shared/geo/`, and review the
// diff: city ids are positional (see below), so a new release may renumber them.
//
// Output (all in shared/geo/data/):
//   countries.json.gz  [{"id":"US","name":"United States","phoneCode":"1","flag":"🇺🇸"}, ...]
//                      sorted by name; phoneCode as in the source minus a leading "+".
//   states.json.gz     {"US":[["CA","California"], ...], ...}  country id -> [isoCode, name]
//                      sorted by name; the state id is "{countryId}-{isoCode}".
//   cities.json.gz     {"US-CA":["Acton", ...], ...}  state id -> names sorted by name;
//                      the city id is "{stateId}-{n}", n = 1-based position in that list.
//   SOURCE.json        package, version, tarball integrity, licences, counts.
// Latitude/longitude, currencies and time zones are dropped to keep the files small.
//
// "Sorted by name" means: compare names with accents removed (NFD, marks
// stripped) and lower-cased, by UTF-16 code units; ties broken by the raw name.
// This is deliberately ICU/locale independent so that ids do not change with
// the Node version.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync, constants as zc } from 'node:zlib';

const PKG_NAME = 'country-state-city';
const PKG_VERSION = '3.2.1';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outDir = join(repoRoot, 'shared', 'geo', 'data');

// readTarEntries returns the regular files of an uncompressed (ustar) tar
// archive as a Map of path -> Buffer.
function readTarEntries(tar) {
  const files = new Map();
  let longName = null;
  for (let off = 0; off + 512 <= tar.length; ) {
    const hdr = tar.subarray(off, off + 512);
    if (hdr.every((b) => b === 0)) break;
    const str = (a, b) => hdr.subarray(a, b).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(str(124, 136).trim() || '0', 8);
    const type = String.fromCharCode(hdr[156] || 48);
    const prefix = str(345, 500);
    let name = longName ?? (prefix ? `${prefix}/${str(0, 100)}` : str(0, 100));
    longName = null;
    const body = tar.subarray(off + 512, off + 512 + size);
    if (type === 'L') longName = body.toString('utf8').replace(/\0.*$/s, '');
    else if (type === '0' || type === '\0') files.set(name, Buffer.from(body));
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

function fetchPackage() {
  const dir = mkdtempSync(join(tmpdir(), 'geo-gen-'));
  try {
    const out = execFileSync(
      'npm',
      ['pack', `${PKG_NAME}@${PKG_VERSION}`, '--json', '--silent', '--pack-destination', dir],
      { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], shell: process.platform === 'win32' },
    );
    const info = JSON.parse(out)[0];
    const tgzName = info?.filename ?? readdirSync(dir).find((f) => f.endsWith('.tgz'));
    const tgz = readFileSync(join(dir, tgzName));
    const integrity = 'sha512-' + createHash('sha512').update(tgz).digest('base64');
    if (info?.integrity && info.integrity !== integrity) {
      throw new Error(`integrity mismatch: npm says ${info.integrity}, file is ${integrity}`);
    }
    const files = readTarEntries(gunzipSync(tgz));
    const get = (p) => {
      const b = files.get(`package/${p}`);
      if (!b) throw new Error(`${PKG_NAME}@${PKG_VERSION}: missing package/${p}`);
      return b;
    };
    const pkgJSON = JSON.parse(get('package.json').toString('utf8'));
    if (pkgJSON.name !== PKG_NAME || pkgJSON.version !== PKG_VERSION) {
      throw new Error(`unexpected package ${pkgJSON.name}@${pkgJSON.version}`);
    }
    const json = (p) => JSON.parse(get(p).toString('utf8'));
    return {
      integrity,
      license: pkgJSON.license,
      countries: json('lib/assets/country.json'),
      states: json('lib/assets/state.json'),
      cities: json('lib/assets/city.json'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const sortKey = (s) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const cmpUnits = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const byName = (a, b) => cmpUnits(sortKey(a), sortKey(b)) || cmpUnits(a, b);
const clean = (s) => String(s ?? '').replace(/\s+/g, ' ').trim();

function build(src) {
  const countries = src.countries
    .map((c) => {
      const o = { id: clean(c.isoCode).toUpperCase(), name: clean(c.name), phoneCode: clean(c.phonecode).replace(/^\+/, '') };
      const flag = clean(c.flag);
      if (flag) o.flag = flag;
      return o;
    })
    .sort((a, b) => byName(a.name, b.name) || cmpUnits(a.id, b.id));
  const countryIds = new Set();
  for (const c of countries) {
    if (!/^[A-Z]{2}$/.test(c.id) || !c.name) throw new Error(`bad country ${JSON.stringify(c)}`);
    if (countryIds.has(c.id)) throw new Error(`duplicate country ${c.id}`);
    countryIds.add(c.id);
  }

  const states = {}; // countryId -> [[iso, name]]
  const stateIds = new Set();
  for (const s of src.states) {
    const cid = clean(s.countryCode).toUpperCase();
    const iso = clean(s.isoCode).toUpperCase();
    const name = clean(s.name);
    const id = `${cid}-${iso}`;
    if (!countryIds.has(cid)) throw new Error(`state ${id}: unknown country`);
    if (!iso || !name) throw new Error(`bad state ${JSON.stringify(s)}`);
    if (stateIds.has(id)) throw new Error(`duplicate state ${id}`);
    stateIds.add(id);
    (states[cid] ??= []).push([iso, name]);
  }
  const statesOut = {};
  for (const cid of Object.keys(states).sort(cmpUnits)) {
    statesOut[cid] = states[cid].sort((a, b) => byName(a[1], b[1]) || cmpUnits(a[0], b[0]));
  }

  // city.json rows: [name, countryCode, stateCode, latitude, longitude]
  const cities = {}; // stateId -> Set(names)
  let skipped = 0;
  for (const row of src.cities) {
    const name = clean(row[0]);
    const sid = `${clean(row[1]).toUpperCase()}-${clean(row[2]).toUpperCase()}`;
    if (!name || !stateIds.has(sid)) { skipped++; continue; }
    (cities[sid] ??= new Set()).add(name); // exact duplicates collapse
  }
  const citiesOut = {};
  let cityCount = 0;
  for (const sid of Object.keys(cities).sort(cmpUnits)) {
    citiesOut[sid] = [...cities[sid]].sort(byName);
    cityCount += citiesOut[sid].length;
  }
  return { countries, states: statesOut, cities: citiesOut, counts: { countries: countries.length, states: stateIds.size, cities: cityCount, citiesSkipped: skipped } };
}

const gz = (obj) => gzipSync(Buffer.from(JSON.stringify(obj), 'utf8'), { level: zc.Z_BEST_COMPRESSION });

const src = fetchPackage();
const out = build(src);
mkdirSync(outDir, { recursive: true });
const written = {
  'countries.json.gz': gz(out.countries),
  'states.json.gz': gz(out.states),
  'cities.json.gz': gz(out.cities),
};
for (const [f, b] of Object.entries(written)) writeFileSync(join(outDir, f), b);
const source = {
  package: PKG_NAME,
  version: PKG_VERSION,
  integrity: src.integrity,
  packageLicense: src.license,
  upstream: 'https://github.com/dr5hn/countries-states-cities-database',
  upstreamLicense: 'ODbL-1.0',
  generator: 'scripts/geo/generate.mjs',
  counts: out.counts,
};
writeFileSync(join(outDir, 'SOURCE.json'), JSON.stringify(source, null, 2) + '\n');
for (const [f, b] of Object.entries(written)) console.log(`${f}\t${b.length} bytes`);
console.log(JSON.stringify(out.counts));
