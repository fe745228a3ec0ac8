import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import * as vm from 'node:vm';
import { Template } from 'aws-cdk-lib/assertions';
import { PanelStack } from '../lib/panel-stack';
import { functionGroups, loadRouteTable, parseRouteTable, routeKeys, RouteTable } from '../lib/routes';
import { SITE_HOST, SPA_FALLBACK } from '../lib/site';
import { makeDefaultStack, makeStack, placeholderAssets, cdkContext } from './helpers';
import { importGroup } from '../lib/wpimport';
import { App } from 'aws-cdk-lib';

type Res = { Type: string; Properties: Record<string, any>; [k: string]: any };

function resources(t: Template, type: string): Record<string, Res> {
  return t.findResources(type) as Record<string, Res>;
}

/** functionOfRoute follows route → integration → function logical id. */
function functionOfRoute(t: Template, routeKey: string): string {
  const routes = Object.values(resources(t, 'AWS::ApiGatewayV2::Route')).filter((r) => r.Properties.RouteKey === routeKey);
  assert.equal(routes.length, 1, `exactly one route ${routeKey}`);
  const target = routes[0].Properties.Target;
  const integrationId: string = target['Fn::Join'][1][1].Ref;
  const integ = resources(t, 'AWS::ApiGatewayV2::Integration')[integrationId];
  assert.equal(integ.Properties.IntegrationType, 'AWS_PROXY');
  assert.equal(integ.Properties.PayloadFormatVersion, '2.0');
  return integ.Properties.IntegrationUri['Fn::GetAtt'][0];
}

/** groupFunctions maps group → function logical id (by the description the Api construct writes). */
function groupFunctions(t: Template): Map<string, string> {
  const out = new Map<string, string>();
  for (const [id, fn] of Object.entries(resources(t, 'AWS::Lambda::Function'))) {
    const m = /^campuscms ([a-z0-9-]+):/.exec(fn.Properties.Description ?? '');
    if (m) out.set(m[1], id);
  }
  return out;
}

// A bigger table than today's routes.json proves new groups need no CDK change.
const WIDE: RouteTable = parseRouteTable({
  basePath: '/api/v1/tenant',
  groups: {
    auth: ['auth', 'misc'],
    design: ['media', 'themes', 'theme-settings'],
    settings: ['notices', 'notifications'],
    // Group names that could collide with other construct ids in the stack.
    access: ['users', 'roles'],
    api: ['apis'],
    site: ['sites'],
  },
});

for (const [name, routes] of [['routes.json', loadRouteTable()], ['wider table', WIDE]] as const) {
  describe(`API from ${name}`, () => {
    const { stack } = makeStack({}, { routes });
    const t = Template.fromStack(stack);
    const fns = groupFunctions(t);

    it('has one function per group, the website included', () => {
      assert.deepEqual([...fns.keys()].sort(), functionGroups(routes).sort());
    });

    it('routes every prefix (bare and {proxy+}) to its group function, $default to the website, and nothing else', () => {
      const expected = Object.keys(routes.groups).flatMap((g) => routeKeys(routes, g).map((k) => [k, g] as const));
      if (routes.website) expected.push(['$default', routes.website]);
      for (const [key, group] of expected) {
        assert.equal(functionOfRoute(t, key), fns.get(group), `${key} → ${group}`);
      }
      const all = Object.values(resources(t, 'AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey);
      assert.deepEqual(all.sort(), expected.map(([k]) => k).sort());
    });

    it('runs every group function on provided.al2023 arm64 with env, sizing and log retention', () => {
      for (const [group, id] of fns) {
        const p = resources(t, 'AWS::Lambda::Function')[id].Properties;
        assert.equal(p.Runtime, 'provided.al2023', group);
        assert.deepEqual(p.Architectures, ['arm64'], group);
        assert.equal(p.Handler, 'bootstrap', group);
        assert.ok(p.MemorySize >= 256 && p.MemorySize <= 1024, `${group} memory ${p.MemorySize}`);
        assert.ok(p.Timeout >= 5 && p.Timeout <= 29, `${group} timeout ${p.Timeout} under API Gateway's 30 s`);
        // MAIL_QUEUE_URL: every group may nudge the mail queue after a commit (infra/test/mail.test.ts).
        // WPIMPORT_QUEUE_URL: the group serving /wordpress-imports starts imports (infra/test/wpimport.test.ts).
        const env = ['LOG_LEVEL', 'MAIL_QUEUE_URL', 'MEDIA_BUCKET', 'OBJECT_URL_PREFIX', 'ORIGIN_SECRET', 'TABLE_NAME', ...(group === 'auth' ? ['KMS_KEY_ID'] : []), ...(group === importGroup(routes) ? ['WPIMPORT_QUEUE_URL'] : [])];
        assert.deepEqual(Object.keys(p.Environment.Variables).sort(), env.sort());
        const lg = resources(t, 'AWS::Logs::LogGroup')[p.LoggingConfig.LogGroup.Ref];
        assert.ok(lg.Properties.RetentionInDays > 0, `${group} log retention`);
      }
    });

    it('grants each function only the actions its group uses', () => {
      const policies = Object.values(resources(t, 'AWS::IAM::Policy'));
      for (const [group, id] of fns) {
        const roleId = resources(t, 'AWS::Lambda::Function')[id].Properties.Role['Fn::GetAtt'][0];
        const stmts = policies.filter((p) => p.Properties.Roles.some((r: any) => r.Ref === roleId)).flatMap((p) => p.Properties.PolicyDocument.Statement);
        const allows = stmts.filter((s: any) => s.Effect === 'Allow');
        const actions = allows.flatMap((s: any) => [s.Action].flat());
        assert.ok(!actions.includes('dynamodb:Scan'), `${group} must not Scan`);
        assert.ok(!actions.includes('dynamodb:BatchWriteItem'), `${group} must not batch-write`);
        assert.ok(actions.every((a: string) => !a.includes('*')), `${group} has no wildcard action: ${actions}`);
        const s3 = actions.filter((a: string) => a.startsWith('s3:'));
        if (group === 'design' || group === 'trash') {
          assert.deepEqual(s3.sort(), ['s3:DeleteObject', 's3:GetObject', 's3:ListBucket', 's3:PutObject']);
          const list = allows.find((s: any) => s.Action === 's3:ListBucket');
          assert.deepEqual(list.Condition.StringLike['s3:prefix'].sort(), ['media/*', 'trash/*', 'uploads/*'], 'ListBucket only under its prefixes');
        } else if (group === importGroup(routes)) {
          // Presigns the WordPress export's upload and reads its first bytes (uploads/*/export.xml only).
          assert.deepEqual(s3.sort(), ['s3:GetObject', 's3:PutObject']);
        } else assert.deepEqual(s3, [], `${group} has no bucket access`);
        // Credentials: only auth writes sessions and lockout counters; only auth and access
        // write users and username markers. Everyone else is denied, by partition suffix.
        const deny = stmts.find((s: any) => s.Effect === 'Deny' && s.Sid === 'NoCredentialWrites');
        const mayWrite: Record<string, string[]> = {
          auth: ['SESSION', 'CHALLENGE', 'LOGIN', 'USERNAME', 'users'],
          access: ['USERNAME', 'users'],
          trash: ['USERNAME', 'users'],
        };
        const expected = Object.entries({ SESSION: 'T#*#SESSION', CHALLENGE: 'T#*#CHALLENGE', LOGIN: 'T#*#LOGIN#*', USERNAME: 'T#*#USERNAME', users: 'T#*#users' })
          .filter(([k]) => !(mayWrite[group] ?? []).includes(k))
          .map(([, v]) => v);
        if (expected.length === 0) assert.equal(deny, undefined, `${group} writes every guarded partition`);
        else {
          assert.ok(deny, `${group} has no credential-write deny`);
          assert.deepEqual([deny.Action].flat().sort(), ['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
          assert.deepEqual(deny.Condition['ForAnyValue:StringLike']['dynamodb:LeadingKeys'].sort(), expected.sort());
        }
        for (const s of stmts) for (const r of [s.Resource].flat()) assert.notEqual(r, '*', `${group} has a * resource`);
        // Two-factor keys: only auth may use the KMS key, only for totp-bound secrets.
        const kmsActions = actions.filter((a: string) => a.startsWith('kms:'));
        const env = resources(t, 'AWS::Lambda::Function')[id].Properties.Environment.Variables;
        if (group === 'auth') {
          assert.deepEqual(kmsActions.sort(), ['kms:Decrypt', 'kms:Encrypt']);
          const st = allows.find((s: any) => s.Sid === 'TwoFactorKey');
          assert.deepEqual(st.Condition, { StringEquals: { 'kms:EncryptionContext:purpose': 'totp' } });
          assert.ok(env.KMS_KEY_ID, 'auth knows its key');
        } else {
          assert.deepEqual(kmsActions, [], `${group} may not use the two-factor key`);
          assert.equal(env.KMS_KEY_ID, undefined, `${group} does not know the key`);
        }
      }
    });

    it('keeps the two-factor key: rotated yearly, retained when the stack goes', () => {
      const keys = Object.values(resources(t, 'AWS::KMS::Key'));
      assert.equal(keys.length, 1);
      assert.equal(keys[0].Properties.EnableKeyRotation, true);
      assert.equal(keys[0].DeletionPolicy, 'Retain');
    });
  });
}

describe('stack', () => {
  const { stack, routes, t } = makeDefaultStack();

  it('has no IAM statement allowing * on *', () => {
    const docs = [
      ...Object.values(resources(t, 'AWS::IAM::Policy')).map((p) => p.Properties.PolicyDocument),
      ...Object.values(resources(t, 'AWS::IAM::Role')).flatMap((r) => (r.Properties.Policies ?? []).map((p: any) => p.PolicyDocument)),
    ];
    for (const doc of docs) {
      for (const s of doc.Statement) {
        const acts = [s.Action].flat();
        const res = [s.Resource].flat();
        assert.ok(!(acts.some((a: string) => a === '*' || a.endsWith(':*')) && res.includes('*')), JSON.stringify(s));
      }
    }
  });

  it('has the single table: keys, GSI1-3, TTL, on-demand, PITR, encryption', () => {
    t.resourceCountIs('AWS::DynamoDB::Table', 1);
    t.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
      GlobalSecondaryIndexes: ['GSI1', 'GSI2', 'GSI3'].map((n) => ({
        IndexName: n,
        KeySchema: [
          { AttributeName: `${n}PK`, KeyType: 'HASH' },
          { AttributeName: `${n}SK`, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    });
  });

  it('grants the API exactly the table and its three index ARNs', () => {
    const policies = t.findResources('AWS::IAM::Policy');
    const text = JSON.stringify(policies);
    for (const n of ['GSI1', 'GSI2', 'GSI3']) assert.ok(text.includes(`/index/${n}`), `no grant on ${n}`);
    assert.ok(!text.includes('/index/*'), 'a wildcard index grant');
  });

  it('protects the table from deletion in production only', () => {
    const prod = Template.fromStack(makeStack({ production: true }).stack);
    prod.hasResource('AWS::DynamoDB::Table', { Properties: { DeletionProtectionEnabled: true }, DeletionPolicy: 'Retain' });
    t.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Delete' });
  });

  it('blocks public access and denies non-TLS requests on every bucket', () => {
    const buckets = resources(t, 'AWS::S3::Bucket');
    assert.ok(Object.keys(buckets).length >= 3);
    for (const [id, b] of Object.entries(buckets)) {
      assert.deepEqual(b.Properties.PublicAccessBlockConfiguration, {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      }, id);
      assert.ok(b.Properties.BucketEncryption, `${id} encrypted`);
      const policy = Object.values(resources(t, 'AWS::S3::BucketPolicy')).find((p) => p.Properties.Bucket.Ref === id);
      assert.ok(policy, `${id} has a policy`);
      assert.ok(
        policy!.Properties.PolicyDocument.Statement.some((s: any) => s.Effect === 'Deny' && s.Condition?.Bool?.['aws:SecureTransport'] === 'false'),
        `${id} is TLS only`,
      );
    }
  });

  it('gives the media bucket POST CORS for the SPA origin and expires unconfirmed uploads', () => {
    const media = Object.values(resources(t, 'AWS::S3::Bucket')).find((b) => b.Properties.CorsConfiguration);
    assert.ok(media);
    const cors = media!.Properties.CorsConfiguration.CorsRules;
    assert.equal(cors.length, 1);
    assert.deepEqual(cors[0].AllowedMethods, ['POST']);
    assert.equal(cors[0].AllowedOrigins.length, 1);
    const origin = JSON.stringify(cors[0].AllowedOrigins[0]);
    assert.match(origin, /https:\/\//);
    assert.match(origin, /Distribution.*DomainName/, 'the CORS origin is the distribution');
    const rule = media!.Properties.LifecycleConfiguration.Rules.find((r: any) => r.Id === 'expire-unconfirmed-uploads');
    assert.equal(rule.Prefix, 'uploads/');
    assert.equal(rule.ExpirationInDays, 1);
    assert.equal(rule.Status, 'Enabled');
    // Files in the trash (never served) go a day after their 30 days there.
    const trash = media!.Properties.LifecycleConfiguration.Rules.find((r: any) => r.Id === 'expire-trashed-media');
    assert.equal(trash.Prefix, 'trash/');
    assert.equal(trash.ExpirationInDays, 31);
  });

  it('lets CloudFront read media/* only, from this distribution', () => {
    const stmts = Object.values(resources(t, 'AWS::S3::BucketPolicy')).flatMap((p) => p.Properties.PolicyDocument.Statement);
    const cf = stmts.filter((s: any) => s.Sid === 'CloudFrontReadsMedia');
    assert.equal(cf.length, 1);
    assert.equal(cf[0].Action, 's3:GetObject');
    assert.match(JSON.stringify(cf[0].Resource), /\/media\/\*/);
    assert.match(JSON.stringify(cf[0].Condition), /AWS:SourceArn.*distribution/);
  });

  it('throttles the API stage and logs its access', () => {
    t.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
    });
    const stage = Object.values(resources(t, 'AWS::ApiGatewayV2::Stage'))[0];
    assert.ok(stage.Properties.AccessLogSettings.DestinationArn);
    for (const [id, lg] of Object.entries(resources(t, 'AWS::Logs::LogGroup'))) {
      assert.ok(lg.Properties.RetentionInDays > 0, `${id} retention`);
    }
  });

  describe('CloudFront', () => {
    // The panel's distribution; the websites' multi-tenant one is tested in website.test.ts.
    const dist = Object.values(resources(t, 'AWS::CloudFront::Distribution')).find((d) => !d.Properties.DistributionConfig.ConnectionMode)!
      .Properties.DistributionConfig;
    const policies = resources(t, 'AWS::CloudFront::ResponseHeadersPolicy');
    const policyOf = (b: any) => policies[b.ResponseHeadersPolicyId.Ref].Properties.ResponseHeadersPolicyConfig;
    const behaviour = (p: string) => dist.CacheBehaviors.find((b: any) => b.PathPattern === p);
    const originOf = (b: any) => dist.Origins.find((o: any) => o.Id === b.TargetOriginId);

    it('has exactly the four behaviours, the public API before api/*, and no distribution-wide error pages', () => {
      assert.deepEqual(dist.CacheBehaviors.map((b: any) => b.PathPattern), ['api/v1/public/*', 'api/*', 'media/*']);
      assert.equal(dist.CustomErrorResponses, undefined, 'error pages would turn API/media 404s into index.html 200s');
      assert.equal(dist.DefaultRootObject, 'index.html');
    });

    it('default → SPA bucket via OAC, history fallback function, SPA security headers', () => {
      const b = dist.DefaultCacheBehavior;
      const o = originOf(b);
      assert.ok(o.S3OriginConfig && o.OriginAccessControlId);
      assert.match(JSON.stringify(o.DomainName), /SiteBucket/);
      assert.equal(b.ViewerProtocolPolicy, 'redirect-to-https');
      assert.equal(b.FunctionAssociations.length, 1);
      assert.equal(b.FunctionAssociations[0].EventType, 'viewer-request');
      const h = policyOf(b).SecurityHeadersConfig;
      const csp = JSON.stringify(h.ContentSecurityPolicy.ContentSecurityPolicy);
      for (const d of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "default-src 'self'"]) assert.ok(csp.includes(d), d);
      assert.ok(h.StrictTransportSecurity.AccessControlMaxAgeSec >= 31536000);
      assert.ok(h.ReferrerPolicy.ReferrerPolicy);
      assert.equal(h.ContentTypeOptions.Override, true);
      assert.equal(h.FrameOptions.FrameOption, 'DENY');
    });

    it('api/* → HTTP API, uncached, all viewer headers but Host', () => {
      const b = behaviour('api/*');
      const o = originOf(b);
      assert.equal(o.CustomOriginConfig.OriginProtocolPolicy, 'https-only');
      assert.match(JSON.stringify(o.DomainName), /HttpApi.*execute-api/);
      assert.equal(b.CachePolicyId, '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', 'Managed-CachingDisabled');
      assert.equal(b.OriginRequestPolicyId, 'b689b0a8-53d0-40ab-baf2-68738e2966ac', 'Managed-AllViewerExceptHostHeader');
      assert.deepEqual(b.AllowedMethods.sort(), ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
      assert.equal(b.FunctionAssociations, undefined, 'no SPA fallback on the API');
      // The execute-api address stays on (it is this origin), guarded by a secret header that
      // CloudFront adds and every function requires (ORIGIN_SECRET), from Secrets Manager.
      const hdr = (o.OriginCustomHeaders ?? []).find((h: any) => h.HeaderName === 'X-Origin-Verify');
      assert.ok(hdr, 'CloudFront adds X-Origin-Verify');
      assert.match(JSON.stringify(hdr.HeaderValue), /resolve:secretsmanager/);
      for (const fn of Object.values(resources(t, 'AWS::Lambda::Function'))) {
        if (!/^campuscms /.test(fn.Properties.Description ?? '')) continue;
        assert.deepEqual(fn.Properties.Environment.Variables.ORIGIN_SECRET, hdr.HeaderValue, 'functions check the same secret');
      }
      const h = policyOf(b).SecurityHeadersConfig;
      assert.equal(h.ContentTypeOptions.Override, true);
      assert.ok(h.StrictTransportSecurity.AccessControlMaxAgeSec >= 31536000);
    });

    it('api/v1/public/* → HTTP API, cached by tenant header, host and query, short TTLs from the origin', () => {
      const b = behaviour('api/v1/public/*');
      assert.equal(originOf(b).Id, originOf(behaviour('api/*')).Id, 'same HTTP API origin');
      const cache = resources(t, 'AWS::CloudFront::CachePolicy')[b.CachePolicyId.Ref].Properties.CachePolicyConfig;
      const key = cache.ParametersInCacheKeyAndForwardedToOrigin;
      assert.deepEqual(key.HeadersConfig.Headers.sort(), ['X-Site-Host', 'X-Tenant-Id']);
      assert.equal(key.QueryStringsConfig.QueryStringBehavior, 'all');
      assert.equal(key.CookiesConfig.CookieBehavior, 'none');
      assert.ok(cache.MaxTTL <= 60 && cache.DefaultTTL <= 30 && cache.MinTTL === 0, 'an edit shows within a minute');
      const orp = resources(t, 'AWS::CloudFront::OriginRequestPolicy')[b.OriginRequestPolicyId.Ref].Properties.OriginRequestPolicyConfig;
      assert.ok(orp.HeadersConfig.Headers.includes('CloudFront-Viewer-Address'), 'viewer address for the rate limit');
      assert.ok(!orp.HeadersConfig.Headers.map((h: string) => h.toLowerCase()).includes('host'), 'API Gateway needs its own Host');
      assert.deepEqual(b.AllowedMethods.sort(), ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
      assert.equal(b.FunctionAssociations.length, 1);
      assert.equal(b.FunctionAssociations[0].EventType, 'viewer-request');
    });

    it('the site-host function copies the viewer Host into X-Site-Host, overwriting a forged one', () => {
      const ctx = vm.createContext({});
      vm.runInContext(SITE_HOST, ctx);
      const out = (ctx as any).handler({ request: { headers: { host: { value: 'www.school.example' }, 'x-site-host': { value: 'forged.example' } } } });
      assert.equal(out.headers['x-site-host'].value, 'www.school.example');
    });

    it('media/* → media bucket via OAC with nosniff and CSP sandbox', () => {
      const b = behaviour('media/*');
      const o = originOf(b);
      assert.ok(o.S3OriginConfig && o.OriginAccessControlId);
      assert.match(JSON.stringify(o.DomainName), /-media-.*\.s3\./);
      assert.deepEqual(b.AllowedMethods.sort(), ['GET', 'HEAD']);
      assert.equal(b.FunctionAssociations, undefined);
      const h = policyOf(b).SecurityHeadersConfig;
      assert.equal(h.ContentSecurityPolicy.ContentSecurityPolicy, 'sandbox');
      assert.equal(h.ContentTypeOptions.Override, true);
      // A deleted file stops being served within 5 minutes, whatever its Cache-Control says.
      const cp = resources(t, 'AWS::CloudFront::CachePolicy')[b.CachePolicyId.Ref].Properties.CachePolicyConfig;
      assert.ok(cp.MaxTTL <= 300 && cp.DefaultTTL <= 300, `media cache TTLs ${cp.DefaultTTL}/${cp.MaxTTL}`);
    });

    it('SPA fallback rewrites history routes only', () => {
      const run = (uri: string): string => {
        const ctx = vm.createContext({});
        vm.runInContext(SPA_FALLBACK, ctx);
        return (ctx as any).handler({ request: { uri } }).uri;
      };
      for (const u of ['/', '/dashboard', '/pages/01HX', '/custom-forms/1/submissions']) assert.equal(run(u), '/index.html', u);
      for (const u of ['/assets/index-abc.js', '/config.json', '/favicon.ico', '/index.html']) assert.equal(run(u), u, u);
    });

    it('deploys the SPA and a runtime config.json', () => {
      const deployments = Object.values(t.findResources('Custom::CDKBucketDeployment')) as Res[];
      assert.equal(deployments.length, 2);
      const shell = deployments.find((d) => JSON.stringify(d.Properties).includes('no-cache'));
      assert.ok(shell, 'shell deployment with no-cache');
      assert.equal(shell!.Properties.SourceObjectKeys.length, 2, 'index.html + config.json');
      assert.deepEqual(stack.site.runtimeConfig, { defaultTenant: '', apiBase: routes.basePath });
    });
  });

  it('gives sam local what it needs: the bootstrap asset path on every group function', () => {
    for (const id of groupFunctions(t).values()) {
      const fn = resources(t, 'AWS::Lambda::Function')[id];
      assert.equal(fn.Metadata['aws:asset:property'], 'Code');
      assert.ok(fn.Metadata['aws:asset:path'], `${id} asset path`);
    }
  });

  it('outputs the URL, the table and the bucket names', () => {
    const outs = Object.keys(t.findOutputs('*'));
    for (const o of ['SiteUrl', 'TableName', 'MediaBucketName', 'SiteBucketName']) assert.ok(outs.includes(o), o);
  });

  it('fails clearly when a bootstrap is missing', () => {
    const routes = loadRouteTable();
    const assets = placeholderAssets(routes);
    const app = new App({ context: cdkContext() });
    assert.throws(
      () => new PanelStack(app, 'Missing', { routes, ...assets, functionsDir: '/nonexistent', production: false }),
      /bootstrap is missing; run infra\/scripts\/build-functions\.sh/,
    );
  });

  it('rejects a route table with a prefix owned twice', () => {
    assert.throws(() => parseRouteTable({ basePath: '/api/v1/tenant', groups: { a: ['x'], b: ['x'] } }), /owned by both/);
    // The same prefix under two bases is two routes; a basePaths entry must name a group.
    const two = parseRouteTable({ basePath: '/api/v1/tenant', basePaths: { b: '/api/v1/public' }, groups: { a: ['x'], b: ['x', 'sitemap.xml'] } });
    assert.deepEqual(routeKeys(two, 'b'), ['ANY /api/v1/public/x', 'ANY /api/v1/public/x/{proxy+}', 'ANY /api/v1/public/sitemap.xml', 'ANY /api/v1/public/sitemap.xml/{proxy+}']);
    assert.throws(() => parseRouteTable({ basePath: '/api/v1/tenant', basePaths: { c: '/api/v1/public' }, groups: { a: ['x'] } }), /not a group/);
  });
});
