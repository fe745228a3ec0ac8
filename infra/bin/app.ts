#!/usr/bin/env node
// The CDK app: `npx cdk synth` from the repository root (cdk.json). Settings come from context
// (cdk.json or -c key=value): production, defaultTenant, domainName, certificateArn, mailDomain, panelUrl, nag.
import * as path from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { defaultPaths, PanelStack } from '../lib/panel-stack';
import { loadRouteTable, repoRoot } from '../lib/routes';

const app = new App();
const ctx = (k: string): string | undefined => {
  const v = app.node.tryGetContext(k);
  return v === undefined || v === null || v === '' ? undefined : String(v);
};
const root = repoRoot();
const paths = defaultPaths(root);
const domainName = ctx('domainName');
const certificateArn = ctx('certificateArn');
if ((domainName === undefined) !== (certificateArn === undefined)) {
  throw new Error('context: set both domainName and certificateArn, or neither');
}

new PanelStack(app, ctx('stackName') ?? 'CampusCmsPanel', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  description: 'campuscms multi-tenant website content admin panel',
  routes: loadRouteTable(),
  functionsDir: ctx('functionsDir') ? path.resolve(ctx('functionsDir')!) : paths.functionsDir,
  spaDir: ctx('spaDir') ? path.resolve(ctx('spaDir')!) : paths.spaDir,
  production: ctx('production') === 'true',
  defaultTenant: ctx('defaultTenant'),
  customDomain: domainName && certificateArn ? { domainName, certificateArn } : undefined,
  logLevel: ctx('logLevel'),
  // The domain mail is sent from (no-reply@{mailDomain}); its DKIM records are printed as outputs.
  mailDomain: ctx('mailDomain'),
  // The panel's address in mail links (default https://{domainName}).
  panelUrl: ctx('panelUrl'),
  // sam local only: `-c localEndpoint=http://host.docker.internal:4566` declares AWS_ENDPOINT_URL
  // in the template so samconfig's env_vars can set it (sam overrides declared variables only).
  extraEnvironment: ctx('localEndpoint') ? { AWS_ENDPOINT_URL: ctx('localEndpoint')! } : undefined,
});

// cdk-nag runs on every synth (set -c nag=false to skip while iterating).
if (ctx('nag') !== 'false') {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
}
