import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PanelStack, PanelStackProps } from '../lib/panel-stack';
import { functionGroups, loadRouteTable, repoRoot, RouteTable } from '../lib/routes';
import { IMAGING_FUNCTION } from '../lib/imaging';
import { SCHEDULE_FUNCTION } from '../lib/schedule';
import { MAIL_EVENTS_FUNCTION, MAIL_FUNCTION } from '../lib/mail';
import { WPIMPORT_FUNCTION } from '../lib/wpimport';

/** cdkContext is cdk.json's context, so tests synthesize with the same feature flags as `cdk synth`. */
export function cdkContext(): Record<string, unknown> {
  const ctx = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'cdk.json'), 'utf8')).context;
  // The CLI turns asset metadata on (sam local reads it to find each function's code).
  return { ...ctx, 'aws:cdk:enable-asset-metadata': true };
}

/**
 * placeholderAssets makes a functions dir with a dummy bootstrap per group (the website's
 * and the schedule job's, imaging function's, mail functions' and WordPress import's included) and a one-file SPA, so the unit tests need neither the Go build nor the SPA build.
 */
export function placeholderAssets(routes: RouteTable): { functionsDir: string; spaDir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-infra-'));
  const functionsDir = path.join(dir, 'functions');
  for (const g of [...functionGroups(routes), SCHEDULE_FUNCTION, IMAGING_FUNCTION, MAIL_FUNCTION, MAIL_EVENTS_FUNCTION, WPIMPORT_FUNCTION]) {
    fs.mkdirSync(path.join(functionsDir, g), { recursive: true });
    fs.writeFileSync(path.join(functionsDir, g, 'bootstrap'), `placeholder ${g}\n`);
  }
  const spaDir = path.join(dir, 'dist');
  fs.mkdirSync(path.join(spaDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(spaDir, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(spaDir, 'assets', 'index-abc123.js'), 'console.log(1)');
  return { functionsDir, spaDir };
}

/** makeStack builds the stack as bin/app.ts does, with placeholder assets and overrides. */
export function makeStack(
  overrides: Partial<PanelStackProps> = {},
  opts: { routes?: RouteTable; env?: boolean } = {},
): { app: App; stack: PanelStack; routes: RouteTable } {
  const routes = opts.routes ?? loadRouteTable();
  const app = new App({ context: cdkContext() });
  const stack = new PanelStack(app, 'Test', {
    env: opts.env === false ? undefined : { account: '123456789012', region: 'eu-west-1' },
    routes,
    ...placeholderAssets(routes),
    production: false,
    ...overrides,
  });
  return { app, stack, routes };
}

let defaultStack: { made: ReturnType<typeof makeStack>; json: Record<string, unknown> } | undefined;

/**
 * makeDefaultStack is makeStack() with no overrides and its template, synthesized once for every
 * test file that reads it (they run in one process: test/all.ts). Each caller gets its own copy
 * of the template, so a test that sorts an array in place can't change another's.
 */
export function makeDefaultStack(): ReturnType<typeof makeStack> & { t: Template } {
  if (!defaultStack) {
    const made = makeStack();
    defaultStack = { made, json: Template.fromStack(made.stack).toJSON() };
  }
  return { ...defaultStack.made, t: Template.fromJSON(structuredClone(defaultStack.json)) };
}
