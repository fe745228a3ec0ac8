import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * RouteTable is shared/routes/routes.json: the single declaration of which resource group
 * (one Lambda each) owns which path prefixes under basePath. The Go local server reads the
 * same file, so adding a group there needs no change here.
 */
export interface RouteTable {
  readonly basePath: string;
  readonly groups: Readonly<Record<string, readonly string[]>>;
  /** basePaths overrides basePath for some groups (the public website API: /api/v1/public). */
  readonly basePaths?: Readonly<Record<string, string>>;
  /**
   * website is the group that renders the institutions' websites: it owns no prefix but every
   * path on a website host (the HTTP API's $default route). Unset: no website is deployed.
   */
  readonly website?: string;
}

/** basePathFor is the base path of a group's routes, as Go's routes.Table.BasePathFor. */
export function basePathFor(table: RouteTable, group: string): string {
  return table.basePaths?.[group] ?? table.basePath;
}

/** Default location of the route table, relative to the repository root. */
export const ROUTES_FILE = path.join('shared', 'routes', 'routes.json');

const GROUP_RE = /^[a-z][a-z0-9-]{0,30}$/;
const PREFIX_RE = /^[a-z0-9][a-z0-9.-]*$/;
const BASE_RE = /^(\/[a-z0-9-]+)+$/;

/** repoRoot finds the repository root (the directory holding shared/routes/routes.json). */
export function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    if (fs.existsSync(path.join(dir, ROUTES_FILE))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('routes: cannot find the repository root (no shared/routes/routes.json above infra/)');
    dir = parent;
  }
}

/**
 * parseRouteTable validates the table: group names are usable as construct ids and file names,
 * prefixes are single path segments (sitemap.xml included), and no path (base + prefix) has two
 * owners: the public API's /faqs and the staff API's /faqs live under different bases.
 */
export function parseRouteTable(raw: unknown, source = 'routes.json'): RouteTable {
  const fail = (msg: string): never => {
    throw new Error(`${source}: ${msg}`);
  };
  if (typeof raw !== 'object' || raw === null) fail('not an object');
  const obj = raw as Record<string, unknown>;
  const basePath = obj.basePath;
  if (typeof basePath !== 'string' || !BASE_RE.test(basePath)) fail(`basePath ${JSON.stringify(basePath)} is not like /api/v1/tenant`);
  const groups = obj.groups;
  if (typeof groups !== 'object' || groups === null || Array.isArray(groups)) fail('groups is not an object');
  const basePaths: Record<string, string> = {};
  if (obj.basePaths !== undefined) {
    if (typeof obj.basePaths !== 'object' || obj.basePaths === null || Array.isArray(obj.basePaths)) fail('basePaths is not an object');
    for (const [group, base] of Object.entries(obj.basePaths as Record<string, unknown>)) {
      if (!(group in (groups as object))) fail(`basePaths names ${group}, which is not a group`);
      if (typeof base !== 'string' || !BASE_RE.test(base)) fail(`basePaths.${group} ${JSON.stringify(base)} is not like /api/v1/public`);
      basePaths[group] = base as string;
    }
  }
  const owner = new Map<string, string>();
  const out: Record<string, string[]> = {};
  for (const [group, prefixes] of Object.entries(groups as Record<string, unknown>)) {
    if (!GROUP_RE.test(group)) fail(`group name ${JSON.stringify(group)} must match ${GROUP_RE}`);
    if (!Array.isArray(prefixes) || prefixes.length === 0) fail(`group ${group} lists no prefixes`);
    for (const p of prefixes as unknown[]) {
      if (typeof p !== 'string' || !PREFIX_RE.test(p)) fail(`group ${group}: prefix ${JSON.stringify(p)} must be one path segment matching ${PREFIX_RE}`);
      const full = `${basePaths[group] ?? basePath}/${p}`;
      const prev = owner.get(full);
      if (prev) fail(`prefix ${p} is owned by both ${prev} and ${group}`);
      owner.set(full, group);
    }
    out[group] = [...(prefixes as string[])];
  }
  if (owner.size === 0) fail('no groups');
  let website: string | undefined;
  if (obj.website !== undefined) {
    // Like Go's routes.Load: a group name (construct id, functions/ folder) that owns no prefix,
    // since every path it would own is already the $default route's.
    if (typeof obj.website !== 'string' || !GROUP_RE.test(obj.website)) fail(`website ${JSON.stringify(obj.website)} must match ${GROUP_RE}`);
    if ((obj.website as string) in out) fail(`website ${obj.website} is also in groups; the website group owns no prefixes`);
    website = obj.website as string;
  }
  return { basePath: basePath as string, groups: out, basePaths, website };
}

/** functionGroups lists every group that is a Lambda: the API groups, then the website if any. */
export function functionGroups(table: RouteTable): string[] {
  return [...Object.keys(table.groups), ...(table.website ? [table.website] : [])];
}

/** loadRouteTable reads and validates the route table file. */
export function loadRouteTable(file = path.join(repoRoot(), ROUTES_FILE)): RouteTable {
  return parseRouteTable(JSON.parse(fs.readFileSync(file, 'utf8')), file);
}

/** routeKeys lists the HTTP API route keys a group owns: the bare prefix and everything under it. */
export function routeKeys(table: RouteTable, group: string): string[] {
  const base = basePathFor(table, group);
  return (table.groups[group] ?? []).flatMap((p) => [`ANY ${base}/${p}`, `ANY ${base}/${p}/{proxy+}`]);
}
