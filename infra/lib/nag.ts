import { Stack, Token, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { IConstruct } from 'constructs';

/**
 * NagScope is what acknowledgeNagFindings needs from the stack: the constructs that carry a
 * finding we accept.
 */
export interface NagScope {
  readonly stack: Stack;
  readonly httpApi: IConstruct;
  readonly distribution: IConstruct;
  readonly siteBucket: s3.Bucket;
  readonly customDomain: boolean;
  /** websiteDistribution is the websites' multi-tenant distribution, when there is one. */
  readonly websiteDistribution?: IConstruct;
}

/** ack records one accepted cdk-nag (AwsSolutions) finding with its reason. */
function ack(scope: IConstruct, rule: string, reason: string): void {
  Validations.of(scope).acknowledge({ id: `AwsSolutions::AwsSolutions-${rule}`, reason });
}

/**
 * acknowledgeNagFindings records, each with its reason, the cdk-nag AwsSolutions findings we
 * accept. Everything else must be fixed, not acknowledged: synth fails on an unacknowledged error.
 */
export function acknowledgeNagFindings(s: NagScope): void {
  ack(
    s.httpApi,
    'APIG4',
    'Authorization is enforced in the group Lambdas: every route except login/tenant-info checks the bearer ' +
      "token against the tenant's session item in DynamoDB and the caller's permission codes (DESIGN §4). " +
      'Login and tenant-info must be reachable without a token, and an API Gateway authorizer would repeat the same lookup.',
  );
  ack(
    s.distribution,
    'CFR1',
    'No geo restriction: tenants are institutions whose staff sign in from anywhere; nothing here is region-licensed.',
  );
  ack(
    s.distribution,
    'CFR2',
    'No WAF web ACL by default (a fixed monthly cost per ACL): the API throttles at the stage and the auth group ' +
      'rate-limits failed logins per user (429 after 5 in 15 min). Attach a web ACL to the distribution where required.',
  );
  if (!s.customDomain) {
    ack(
      s.distribution,
      'CFR4',
      'Without a custom domain the distribution uses the default *.cloudfront.net certificate, whose security policy ' +
        'CloudFront fixes at TLSv1; set the domainName and certificateArn context values to get TLSv1.2_2021.',
    );
  }

  if (s.websiteDistribution) acknowledgeWebsiteFindings(s.websiteDistribution);

  // S3 bucket notifications (the media bucket → the imaging function) are set by a singleton
  // custom-resource Lambda owned by aws-cdk-lib, created once per stack.
  const notifier = s.stack.node.children.find((c) => c.node.id.startsWith('BucketNotificationsHandler'));
  if (notifier) {
    ack(
      notifier,
      'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      "CDK-managed BucketNotifications handler (sets the media bucket's event notifications during deploys only): " +
        'the role is created by aws-cdk-lib with the basic execution policy for its own logs; not configurable.',
    );
  }

  // BucketDeployment's handler is a singleton Lambda owned by aws-cdk-lib, created once per stack.
  const deployer = s.stack.node.children.find((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'));
  if (deployer) {
    const why = 'CDK-managed BucketDeployment handler (uploads the SPA during deploys only): ';
    ack(deployer, 'L1', why + 'its runtime is pinned by aws-cdk-lib and moves forward when aws-cdk-lib is upgraded.');
    ack(
      deployer,
      'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      why + 'the role is created by aws-cdk-lib with the basic execution policy for its own logs; not configurable.',
    );
    // cdk-nag prints unresolved pseudo parameters as <AWS::X>; with an env they are literals.
    const region = Token.isUnresolved(s.stack.region) ? '<AWS::Region>' : s.stack.region;
    const partition = Token.isUnresolved(s.stack.partition) ? '<AWS::Partition>' : s.stack.partition;
    const account = Token.isUnresolved(s.stack.account) ? '<AWS::AccountId>' : s.stack.account;
    const siteBucketId = s.stack.resolve((s.siteBucket.node.defaultChild as s3.CfnBucket).logicalId) as string;
    const wildcards: Array<[string, string]> = [
      ['Action::s3:GetObject*', 'reads the staged SPA zip from the CDK asset bucket'],
      ['Action::s3:GetBucket*', 'reads the asset and site bucket settings when copying'],
      ['Action::s3:List*', 'lists the site bucket to sync (and would prune) objects'],
      ['Action::s3:DeleteObject*', 'replaces objects in the site bucket'],
      ['Action::s3:Abort*', 'aborts its own failed multipart uploads to the site bucket'],
      [`Resource::arn:${partition}:s3:::cdk-hnb659fds-assets-${account}-${region}/*`, 'asset object keys are content hashes unknown until synth'],
      [`Resource::<${siteBucketId}.Arn>/*`, 'writes every key of the SPA build into the site bucket, which holds nothing else'],
    ];
    for (const [finding, reason] of wildcards) {
      ack(deployer, `IAM5[${finding}]`, why + reason + '; grant generated by aws-cdk-lib (grantRead/grantReadWrite).');
    }
  }
}

/**
 * acknowledgeWebsiteFindings records the findings on the websites' multi-tenant distribution
 * (lib/website.ts): the settings cdk-nag looks for on a distribution belong, in tenant-only
 * mode, to the distribution tenants or are not offered at all.
 */
function acknowledgeWebsiteFindings(d: IConstruct): void {
  ack(
    d,
    'CFR1',
    "No geo restriction: an institution's website is for whoever looks it up, from anywhere. A distribution tenant " +
      'can set its own restriction (Customizations.GeoRestrictions) if one institution needs it.',
  );
  ack(
    d,
    'CFR2',
    'No WAF web ACL by default (a fixed monthly cost per ACL): pages are cached at the edge, the HTTP API throttles ' +
      'at the stage, and form and newsletter posts are rate-limited per client address in DynamoDB. Attach a WAF v2 ' +
      'web ACL to the distribution, or to one tenant, where required.',
  );
  ack(
    d,
    'CFR3',
    'No legacy S3 access logging on the multi-tenant distribution: SaaS Manager distributions are not given the ' +
      'Logging setting here, and CloudFront standard logging v2 (CloudWatch Logs delivery) must be created in ' +
      'us-east-1, outside this regional stack. Each request that reaches the origin is in the HTTP API access log ' +
      "and the website function's log group.",
  );
  ack(
    d,
    'CFR4',
    'A tenant-only distribution has no host name and no viewer certificate of its own: each distribution tenant ' +
      'presents its CloudFront-managed ACM certificate for its domains (requested by cmsctl tenant set-domains), ' +
      'and cdk-nag, which checks only the distribution, cannot see those.',
  );
}
