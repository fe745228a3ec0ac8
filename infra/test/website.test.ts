import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { Template } from 'aws-cdk-lib/assertions';
import { loadRouteTable, parseRouteTable } from '../lib/routes';
import { SITE_HOST } from '../lib/site';
import { makeDefaultStack, makeStack } from './helpers';

type Res = { Type: string; Properties: Record<string, any>; [k: string]: any };

function resources(t: Template, type: string): Record<string, Res> {
  return t.findResources(type) as Record<string, Res>;
}

// Managed-CachingOptimized: AWS's policy that keys on the path alone (no header, cookie or query).
const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';

// The brief's policy, spelled out here so that a change in lib/website.ts is a visible decision.
const CSP =
  "default-src 'self'; img-src 'self' data: https:; style-src 'self' 'unsafe-inline'; script-src 'self'; frame-src https:; " +
  "font-src 'self'; form-action 'self'; base-uri 'self'; object-src 'none'; frame-ancestors 'self'";

describe('website (routes.json names a website group)', () => {
  const { routes, t } = makeDefaultStack();
  const fns = resources(t, 'AWS::Lambda::Function');
  const dists = resources(t, 'AWS::CloudFront::Distribution');
  const [websiteId, website] = Object.entries(dists).find(([, d]) => d.Properties.DistributionConfig.ConnectionMode)!;
  const panel = Object.values(dists).find((d) => !d.Properties.DistributionConfig.ConnectionMode)!.Properties.DistributionConfig;
  const dist = website.Properties.DistributionConfig;
  const behaviour = (p: string) => dist.CacheBehaviors.find((b: any) => b.PathPattern === p);
  const originOf = (b: any) => dist.Origins.find((o: any) => o.Id === b.TargetOriginId);
  const cachePolicy = (b: any) => resources(t, 'AWS::CloudFront::CachePolicy')[b.CachePolicyId.Ref].Properties.CachePolicyConfig;
  const headersOf = (b: any) =>
    resources(t, 'AWS::CloudFront::ResponseHeadersPolicy')[b.ResponseHeadersPolicyId.Ref].Properties.ResponseHeadersPolicyConfig;

  it('is the group routes.json names, and owns no prefix', () => {
    assert.equal(routes.website, 'website');
    assert.ok(!(routes.website! in routes.groups));
  });

  const websiteFn = Object.entries(fns).find(([, f]) => /^campuscms website:/.test(f.Properties.Description ?? ''));

  it('has its own function: provided.al2023 on arm64, the default sizing, the shared environment', () => {
    assert.ok(websiteFn, 'a function described "campuscms website: ..."');
    const p = websiteFn![1].Properties;
    assert.equal(p.Runtime, 'provided.al2023');
    assert.deepEqual(p.Architectures, ['arm64']);
    assert.equal(p.Handler, 'bootstrap');
    assert.equal(p.MemorySize, 256);
    assert.equal(p.Timeout, 10);
    assert.ok(p.Environment.Variables.ORIGIN_SECRET, 'it requires the origin secret like the API groups');
    assert.match(JSON.stringify(p.Role), /ApiGroupWebsiteRole/, 'its own role');
  });

  it('answers the HTTP API $default route, and only that one', () => {
    const routesTo = Object.values(resources(t, 'AWS::ApiGatewayV2::Route')).filter((r) => {
      const integ = resources(t, 'AWS::ApiGatewayV2::Integration')[r.Properties.Target['Fn::Join'][1][1].Ref];
      return integ.Properties.IntegrationUri['Fn::GetAtt'][0] === websiteFn![0];
    });
    assert.deepEqual(
      routesTo.map((r) => r.Properties.RouteKey),
      ['$default'],
    );
  });

  it('is one multi-tenant (tenant-only) distribution without the settings only standard ones take', () => {
    assert.equal(Object.keys(dists).length, 2, 'the panel and the websites');
    assert.equal(dist.ConnectionMode, 'tenant-only');
    assert.equal(dist.Enabled, true);
    for (const k of ['Aliases', 'CNAMEs', 'PriceClass', 'IPV6Enabled', 'ViewerCertificate', 'Staging', 'ContinuousDeploymentPolicyId']) {
      assert.equal(dist[k], undefined, `${k} belongs to tenants/connection groups or is refused in tenant-only mode`);
    }
    assert.equal(panel.ConnectionMode, undefined, 'the panel stays a standard distribution');
  });

  it('has the public API first, then assets and media', () => {
    assert.deepEqual(
      dist.CacheBehaviors.map((b: any) => b.PathPattern),
      ['api/v1/public/*', 'assets/*', 'media/*'],
    );
  });

  it('default → the website Lambda through the API origin with the origin secret, every method', () => {
    const b = dist.DefaultCacheBehavior;
    const o = originOf(b);
    assert.match(JSON.stringify(o.DomainName), /HttpApi.*execute-api/);
    assert.equal(o.CustomOriginConfig.OriginProtocolPolicy, 'https-only');
    assert.deepEqual(o.CustomOriginConfig.OriginSSLProtocols, ['TLSv1.2']);
    const secret = o.OriginCustomHeaders.find((h: any) => h.HeaderName === 'X-Origin-Verify');
    const panelApi = panel.Origins.find((x: any) => JSON.stringify(x.DomainName).includes('execute-api'));
    assert.deepEqual(secret.HeaderValue, panelApi.OriginCustomHeaders[0].HeaderValue, 'the same secret as the panel');
    assert.match(JSON.stringify(secret.HeaderValue), /resolve:secretsmanager/);
    assert.deepEqual([...b.AllowedMethods].sort(), ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'], 'forms POST');
    assert.deepEqual([...b.CachedMethods].sort(), ['GET', 'HEAD']);
    assert.equal(b.ViewerProtocolPolicy, 'redirect-to-https');
  });

  it('caches pages per host and query, for as long as the page says (nothing without Cache-Control)', () => {
    const b = dist.DefaultCacheBehavior;
    const cp = cachePolicy(b);
    const key = cp.ParametersInCacheKeyAndForwardedToOrigin;
    assert.deepEqual(key.HeadersConfig.Headers, ['X-Site-Host']);
    assert.equal(key.QueryStringsConfig.QueryStringBehavior, 'all');
    assert.equal(key.CookiesConfig.CookieBehavior, 'none');
    assert.equal(cp.MinTTL, 0);
    assert.equal(cp.DefaultTTL, 0);
    assert.ok(cp.MaxTTL >= 60, 'max-age=30 plus stale-while-revalidate=30 fits');
    const orp = resources(t, 'AWS::CloudFront::OriginRequestPolicy')[b.OriginRequestPolicyId.Ref].Properties.OriginRequestPolicyConfig;
    assert.ok(orp.HeadersConfig.Headers.includes('CloudFront-Viewer-Address'), 'the client address for the rate limit');
    assert.ok(orp.HeadersConfig.Headers.includes('Content-Type'), "a form post's body type");
    for (const h of ['User-Agent', 'DNT', 'Sec-GPC']) {
      assert.ok(orp.HeadersConfig.Headers.includes(h), `${h}: a page view from a bot, or asking not to be tracked, is not counted`);
    }
    assert.ok(!orp.HeadersConfig.Headers.map((h: string) => h.toLowerCase()).includes('host'), 'API Gateway needs its own Host');
  });

  it('sets X-Site-Host from the viewer Host with the same code as the panel', () => {
    const b = dist.DefaultCacheBehavior;
    assert.equal(b.FunctionAssociations.length, 1);
    assert.equal(b.FunctionAssociations[0].EventType, 'viewer-request');
    const fn = resources(t, 'AWS::CloudFront::Function')[b.FunctionAssociations[0].FunctionARN['Fn::GetAtt'][0]];
    assert.equal(fn.Properties.FunctionCode, SITE_HOST);
  });

  it('shares the one host function and visitor policy with the panel distribution', () => {
    const fns = Object.values(resources(t, 'AWS::CloudFront::Function')).filter((f: any) => f.Properties.FunctionCode === SITE_HOST);
    assert.equal(fns.length, 1, 'one SITE_HOST function for both distributions');
    const visitor = Object.values(resources(t, 'AWS::CloudFront::OriginRequestPolicy')).filter((p: any) =>
      p.Properties.OriginRequestPolicyConfig.HeadersConfig.Headers?.includes('CloudFront-Viewer-Address'),
    );
    assert.equal(visitor.length, 1, 'one origin request policy forwarding the viewer address');
  });

  it('sends the security headers: the CSP, HSTS (own hosts only), nosniff, referrer policy, same-origin frames', () => {
    const h = headersOf(dist.DefaultCacheBehavior).SecurityHeadersConfig;
    assert.equal(h.ContentSecurityPolicy.ContentSecurityPolicy, CSP);
    assert.equal(h.ContentSecurityPolicy.Override, true);
    assert.ok(h.StrictTransportSecurity.AccessControlMaxAgeSec >= 31536000);
    assert.equal(h.StrictTransportSecurity.IncludeSubdomains, false, "an institution's other subdomains are not ours to bind");
    assert.equal(h.ContentTypeOptions.Override, true);
    assert.equal(h.ReferrerPolicy.ReferrerPolicy, 'strict-origin-when-cross-origin');
    assert.equal(h.FrameOptions.FrameOption, 'SAMEORIGIN');
  });

  it('assets/* → the same origin, cached by path alone: no host in the key, nothing else forwarded', () => {
    const b = behaviour('assets/*');
    assert.equal(b.TargetOriginId, dist.DefaultCacheBehavior.TargetOriginId);
    assert.equal(b.CachePolicyId, CACHING_OPTIMIZED);
    assert.equal(b.OriginRequestPolicyId, undefined);
    assert.equal(b.FunctionAssociations, undefined, 'no X-Site-Host: assets are shared by every tenant');
    assert.deepEqual([...b.AllowedMethods].sort(), ['GET', 'HEAD']);
    assert.equal(headersOf(b).SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy, CSP);
  });

  it('api/v1/public/* → the API exactly as on the panel', () => {
    const b = behaviour('api/v1/public/*');
    const p = panel.CacheBehaviors.find((x: any) => x.PathPattern === 'api/v1/public/*');
    assert.equal(b.TargetOriginId, dist.DefaultCacheBehavior.TargetOriginId);
    for (const k of ['CachePolicyId', 'OriginRequestPolicyId', 'ResponseHeadersPolicyId', 'AllowedMethods', 'ViewerProtocolPolicy']) {
      assert.deepEqual(b[k], p[k], k);
    }
    assert.equal(b.FunctionAssociations[0].EventType, 'viewer-request');
  });

  it('media/* → the media bucket through the shared origin access control and media policies', () => {
    const b = behaviour('media/*');
    const o = originOf(b);
    const p = panel.CacheBehaviors.find((x: any) => x.PathPattern === 'media/*');
    const panelMedia = panel.Origins.find((x: any) => x.Id === p.TargetOriginId);
    assert.match(JSON.stringify(o.DomainName), /-media-.*\.s3\./);
    assert.deepEqual(o.OriginAccessControlId, panelMedia.OriginAccessControlId);
    assert.deepEqual(o.S3OriginConfig, { OriginAccessIdentity: '' }, 'no legacy OAI');
    assert.deepEqual(b.CachePolicyId, p.CachePolicyId);
    assert.deepEqual(b.ResponseHeadersPolicyId, p.ResponseHeadersPolicyId, 'nosniff + CSP sandbox');
    assert.deepEqual([...b.AllowedMethods].sort(), ['GET', 'HEAD']);
  });

  it('lets both distributions, and only them, read media/*', () => {
    const stmts = Object.values(resources(t, 'AWS::S3::BucketPolicy')).flatMap((p) => p.Properties.PolicyDocument.Statement);
    const cf = stmts.filter((s: any) => s.Sid === 'CloudFrontReadsMedia');
    assert.equal(cf.length, 1);
    const sources = cf[0].Condition.StringEquals['AWS:SourceArn'];
    assert.equal(sources.length, 2);
    assert.ok(sources.some((a: any) => JSON.stringify(a).includes(`"Ref":"${websiteId}"`)), 'the websites distribution');
    assert.ok(sources.every((a: any) => JSON.stringify(a).includes(':distribution/')));
  });

  it('has its own connection group, IPv6 on, and outputs what cmsctl and the institutions need', () => {
    const groups = resources(t, 'AWS::CloudFront::ConnectionGroup');
    assert.equal(Object.keys(groups).length, 1);
    const [groupId, group] = Object.entries(groups)[0];
    assert.equal(group.Properties.Enabled, true);
    assert.equal(group.Properties.Ipv6Enabled, true);
    const outs = t.findOutputs('*');
    assert.deepEqual(outs.WebsiteDistributionId.Value, { Ref: websiteId });
    assert.deepEqual(outs.WebsiteConnectionGroupId.Value, { 'Fn::GetAtt': [groupId, 'Id'] });
    assert.deepEqual(outs.WebsiteRoutingEndpoint.Value, { 'Fn::GetAtt': [groupId, 'RoutingEndpoint'] });
  });
});

describe('without a website group', () => {
  const base = loadRouteTable();
  const { stack } = makeStack({}, { routes: { ...base, website: undefined } });
  const t = Template.fromStack(stack);

  it('deploys no website function, $default route, multi-tenant distribution or outputs', () => {
    assert.ok(!Object.values(resources(t, 'AWS::Lambda::Function')).some((f) => /^campuscms website:/.test(f.Properties.Description ?? '')));
    assert.ok(!Object.values(resources(t, 'AWS::ApiGatewayV2::Route')).some((r) => r.Properties.RouteKey === '$default'));
    t.resourceCountIs('AWS::CloudFront::Distribution', 1);
    t.resourceCountIs('AWS::CloudFront::ConnectionGroup', 0);
    assert.equal(t.findOutputs('WebsiteDistributionId').WebsiteDistributionId, undefined);
  });
});

describe('route table: the website key', () => {
  const groups = { auth: ['auth'], public: ['faqs'] };
  it('accepts a group name that owns no prefix', () => {
    assert.equal(parseRouteTable({ basePath: '/api/v1/tenant', website: 'website', groups }).website, 'website');
  });
  it('refuses a website that is also a group, or not a group name', () => {
    assert.throws(() => parseRouteTable({ basePath: '/api/v1/tenant', website: 'public', groups }), /also in groups/);
    assert.throws(() => parseRouteTable({ basePath: '/api/v1/tenant', website: 'Web Site', groups }), /website "Web Site" must match/);
    assert.throws(() => parseRouteTable({ basePath: '/api/v1/tenant', website: 7, groups }), /website 7 must match/);
    assert.throws(() => parseRouteTable({ basePath: '/api/v1/tenant', basePaths: { website: '/x' }, website: 'website', groups }), /not a group/);
  });
});
