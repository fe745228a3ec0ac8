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
}

/** Default location of the route table, relative to the repository root. */
export const ROUTES_FILE = path.join('shared', 'routes', 'routes.json');

const GROUP_RE = /^[a-z][a-z0-9-]{0,30}$/;
const PREFIX_RE = /^[a-z0-9][a-z0-9-]*$/;

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
 * prefixes are single path segments, and no prefix has two owners.
 */
export function parseRouteTable(raw: unknown, source = 'routes.json'): RouteTable {
  const fail = (msg: string): never => {
    throw new Error(`${source}: ${msg}`);
  };
  if (typeof raw !== 'object' || raw === null) fail('not an object');
  const obj = raw as Record<string, unknown>;
  const basePath = obj.basePath;
  if (typeof basePath !== 'string' || !/^(\/[a-z0-9-]+)+$/.test(basePath)) fail(`basePath ${JSON.stringify(basePath)} is not like /api/v1/tenant`);
  const groups = obj.groups;
  if (typeof groups !== 'object' || groups === null || Array.isArray(groups)) fail('groups is not an object');
  const owner = new Map<string, string>();
  const out: Record<string, string[]> = {};
  for (const [group, prefixes] of Object.entries(groups as Record<string, unknown>)) {
    if (!GROUP_RE.test(group)) fail(`group name ${JSON.stringify(group)} must match ${GROUP_RE}`);
    if (!Array.isArray(prefixes) || prefixes.length === 0) fail(`group ${group} lists no prefixes`);
    for (const p of prefixes as unknown[]) {
      if (typeof p !== 'string' || !PREFIX_RE.test(p)) fail(`group ${group}: prefix ${JSON.stringify(p)} must be one path segment matching ${PREFIX_RE}`);
      const prev = owner.get(p as string);
      if (prev) fail(`prefix ${p} is owned by both ${prev} and ${group}`);
      owner.set(p as string, group);
    }
    out[group] = [...(prefixes as string[])];
  }
  if (owner.size === 0) fail('no groups');
  return { basePath: basePath as string, groups: out };
}

/** loadRouteTable reads and validates the route table file. */
export function loadRouteTable(file = path.join(repoRoot(), ROUTES_FILE)): RouteTable {
  return parseRouteTable(JSON.parse(fs.readFileSync(file, 'utf8')), file);
}

/** routeKeys lists the HTTP API route keys a group owns: the bare prefix and everything under it. */
export function routeKeys(table: RouteTable, group: string): string[] {
  return (table.groups[group] ?? []).flatMap((p) => [`ANY ${table.basePath}/${p}`, `ANY ${table.basePath}/${p}/{proxy+}`]);
}
