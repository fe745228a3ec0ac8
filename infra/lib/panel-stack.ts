import * as path from 'node:path';
import { Annotations, Aws, CfnOutput, CfnResource, Duration, RemovalPolicy, Stack, StackProps, Validations } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { Api, FunctionSizing, GroupFunction } from './api';
import { Data } from './data';
import { AccessLogs } from './logs';
import { Media, PendingUploads, TRASH_PREFIX } from './media';
import { RouteTable } from './routes';
import { CustomDomain, Site } from './site';
import { acknowledgeNagFindings } from './nag';
import { Website } from './website';
import { Schedule } from './schedule';
import { Imaging, IMAGING_PREFIX } from './imaging';
import { Mail } from './mail';
import { EXPORT_OBJECT, importGroup, UPLOADS_PREFIX, WordPressImport } from './wpimport';

/** TableAccess is what a group does with the table. */
export type TableAccess = 'read' | 'readwrite';
/** MediaAccess is what a group does with media objects (presign POST = PutObject). */
export type MediaAccess = 'none' | 'readwrite';

/** GroupAccess is one group's data needs; the stack turns it into exactly those IAM actions. */
export interface GroupAccess {
  readonly table: TableAccess;
  readonly media: MediaAccess;
  /**
   * writes are the partitions (by their suffix after T#{tenant}#) this group may write besides
   * its collections; every group is denied writes to the ones in GUARDED_PARTITIONS it does not
   * list. Reads cannot be narrowed this way: every group's guard reads sessions and users.
   */
  readonly writes?: readonly string[];
}

/**
 * GUARDED_PARTITIONS are the partitions holding credentials: sessions, the lockout counters,
 * username markers and user records (password hashes). IAM can tell them apart only because
 * their partition key ends in a fixed suffix (T#{tenant}#SESSION, ...): dynamodb:LeadingKeys
 * with a wildcard for the tenant. It cannot narrow by sort key or by attribute name in a way
 * that survives transactions, and every key starts with the tenant, so the rest of the table is
 * one grant per group.
 */
export const GUARDED_PARTITIONS: Readonly<Record<string, string>> = {
  SESSION: 'T#*#SESSION',
  CHALLENGE: 'T#*#CHALLENGE',
  LOGIN: 'T#*#LOGIN#*',
  USERNAME: 'T#*#USERNAME',
  users: 'T#*#users',
};

/**
 * DEFAULT_ACCESS: groups read and write their tenant's items and never touch media objects.
 * public and website get it too, though all they write is the visitors' submissions (form
 * submissions, newsletter signups and their address markers, rate-limit windows) and the
 * counters that move with them. IAM cannot narrow that honestly: the counters live in the
 * tenant's root partition T#{tenant}, beside its details, menu and settings, and a
 * dynamodb:LeadingKeys pattern that admits T#{tenant} (T#*) admits every partition, since * also
 * matches "#". So they get the same grant, with the credential partitions denied like every
 * group but auth and access; what they write is bounded by their code (shared/public).
 */
export const DEFAULT_ACCESS: GroupAccess = { table: 'readwrite', media: 'none' };

/**
 * GROUP_ACCESS: design owns media (presign, head/read first bytes, move to the trash); auth writes sessions,
 * lockout counters, usernames and users (login, profile); access writes users and their
 * username markers (the users collection).
 */
export const GROUP_ACCESS: Readonly<Record<string, GroupAccess>> = {
  design: { table: 'readwrite', media: 'readwrite' },
  auth: { table: 'readwrite', media: 'none', writes: ['SESSION', 'CHALLENGE', 'LOGIN', 'USERNAME', 'users'] },
  access: { table: 'readwrite', media: 'none', writes: ['USERNAME', 'users'] },
  // The trash restores users (with their username markers) and moves media files back.
  trash: { table: 'readwrite', media: 'readwrite', writes: ['USERNAME', 'users'] },
};

// No Scan: the store never scans (DESIGN §3). Transactions need the per-item actions.
// DescribeTable: guregu/dynamo reads the key schema when it works out paging keys.
const TABLE_READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:DescribeTable', 'dynamodb:ConditionCheckItem'];
// No BatchWriteItem: the store never batch-writes; its writes are single items or transactions.
const TABLE_WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'];
// GetObject covers HeadObject; PutObject is what a presigned POST is signed for.
const MEDIA_RW = ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'];

/** PanelStackProps are the deployment's settings (from cdk.json context in bin/app.ts). */
export interface PanelStackProps extends StackProps {
  readonly routes: RouteTable;
  /** functionsDir holds <group>/bootstrap for every group. */
  readonly functionsDir: string;
  /** spaDir is the built SPA. */
  readonly spaDir: string;
  readonly production: boolean;
  /** defaultTenant goes into the SPA's config.json. */
  readonly defaultTenant?: string;
  readonly customDomain?: CustomDomain;
  /** pendingUploads: what the media lifecycle rule expires (default prefix uploads/, 1 day). */
  readonly pendingUploads?: PendingUploads;
  readonly logLevel?: string;
  readonly logRetention?: logs.RetentionDays;
  readonly throttle?: { readonly rateLimit: number; readonly burstLimit: number };
  readonly access?: Readonly<Record<string, GroupAccess>>;
  readonly sizing?: Readonly<Record<string, FunctionSizing>>;
  /**
   * extraEnvironment is added to every function; only for local runs (sam local with
   * AWS_ENDPOINT_URL pointing at moto/LocalStack). Never set it for a deploy.
   */
  readonly extraEnvironment?: Readonly<Record<string, string>>;
  /**
   * panelUrl is the panel's own address, used in links in mail that lead staff to the panel (a
   * form submission's notification, a password reset): PANEL_URL of every function. Defaults to
   * https://{customDomain}; unset without one (mail then carries no panel link, and a reset link
   * takes the request's validated host).
   */
  readonly panelUrl?: string;
  /** mediaBucketName overrides the derived {stack}-media-{account}-{region}. */
  readonly mediaBucketName?: string;
  /**
   * mailDomain is the domain mail is sent from (no-reply@{mailDomain}); SES verifies it by the
   * DKIM records printed as outputs. Unset: the stack sends no mail (each is listed as failed).
   */
  readonly mailDomain?: string;
}

/** PanelStack composes data, media, API, site and websites, and holds every grant between them. */
export class PanelStack extends Stack {
  readonly data: Data;
  readonly media: Media;
  readonly api: Api;
  readonly site: Site;
  /** website is the institutions' websites' distribution; unset when routes.json names no website group. */
  readonly website?: Website;
  readonly logs: AccessLogs;
  /** imaging makes the resized copies of uploaded images (the media bucket's events call it). */
  readonly imaging: Imaging;
  /** mail sends the outbox through SES and keeps the tenants' suppression lists. */
  readonly mail: Mail;
  /**
   * wordpressImport runs WordPress imports from its queue; unset when no group serves
   * /wordpress-imports (the Import screen's calls, which start them).
   */
  readonly wordpressImport?: WordPressImport;

  constructor(scope: Construct, id: string, props: PanelStackProps) {
    super(scope, id, props);
    const logRetention = props.logRetention ?? (props.production ? logs.RetentionDays.THREE_MONTHS : logs.RetentionDays.TWO_WEEKS);

    this.logs = new AccessLogs(this, 'AccessLogs', { production: props.production, retentionDays: props.production ? 365 : 30 });
    this.data = new Data(this, 'Data', { production: props.production });

    // The HTTP API's execute-api address cannot be switched off (disableExecuteApiEndpoint):
    // CloudFront's /api/* origin is that very address, and the alternative, a custom API
    // domain, needs a certificate and DNS this stack does not own. So CloudFront adds a secret
    // header and the functions refuse requests without it (api.RequireOrigin): the raw address
    // answers 403 to everyone else, who would otherwise skip CloudFront's headers and logs.
    // The value lives in Secrets Manager and reaches CloudFront and the functions as dynamic
    // references resolved at deploy time, never in the template.
    const originSecret = new secretsmanager.Secret(this, 'OriginSecret', {
      description: 'campuscms: header CloudFront adds to API requests; the functions require it',
      generateSecretString: { excludePunctuation: true, passwordLength: 48 },
    });
    const originSecretValue = originSecret.secretValue.unsafeUnwrap();

    const mediaBucketName = props.mediaBucketName ?? `${bucketSafe(this.stackName)}-media-${Aws.ACCOUNT_ID}-${Aws.REGION}`;
    const mediaRegionalDomain = `${mediaBucketName}.s3.${Aws.REGION}.${Aws.URL_SUFFIX}`;

    const panelUrl = props.panelUrl ?? (props.customDomain ? `https://${props.customDomain.domainName}` : undefined);
    const panelEnv: Record<string, string> = panelUrl ? { PANEL_URL: panelUrl.replace(/\/+$/, '') } : {};
    this.api = new Api(this, 'Api', {
      routes: props.routes,
      functionsDir: props.functionsDir,
      production: props.production,
      logRetention,
      throttle: props.throttle ?? { rateLimit: 100, burstLimit: 200 },
      sizing: props.sizing,
      environment: {
        TABLE_NAME: this.data.table.tableName,
        MEDIA_BUCKET: mediaBucketName,
        OBJECT_URL_PREFIX: '/media/',
        LOG_LEVEL: props.logLevel ?? 'INFO',
        ORIGIN_SECRET: originSecretValue,
        ...panelEnv,
        ...props.extraEnvironment,
      },
    });

    this.site = new Site(this, 'Site', {
      production: props.production,
      spaDir: props.spaDir,
      apiHost: this.api.endpointHost(),
      apiOriginHeaders: { 'X-Origin-Verify': originSecretValue },
      publicApiPath: props.routes.basePaths?.public,
      media: { bucketName: mediaBucketName, regionalDomainName: mediaRegionalDomain },
      customDomain: props.customDomain,
      accessLogs: this.logs.bucket,
      runtimeConfig: { defaultTenant: props.defaultTenant ?? '', apiBase: props.routes.basePath },
      contentSecurityPolicy: [
        "default-src 'self'",
        "script-src 'self'",
        // react-hot-toast and component libraries inject <style> elements.
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        // Presigned POST uploads go straight to the media bucket (DESIGN §5).
        `connect-src 'self' https://${mediaRegionalDomain}`,
        "form-action 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
      ].join('; '),
    });
    Validations.of(originSecret).acknowledge({
      id: 'AwsSolutions::AwsSolutions-SMG4',
      reason:
        'The origin secret is a shared header value between CloudFront and the functions, both set from it at deploy; ' +
        'rotating it means redeploying the stack (which re-resolves it), not a rotation Lambda.',
    });
    Annotations.of(this.site).acknowledgeWarning(
      '@aws-cdk/aws-cloudfront-origins:updateImportedBucketPolicyOac',
      'The media bucket is referenced by name to break the CORS cycle; PanelStack adds its OAC bucket policy itself.',
    );

    if (props.routes.website) {
      this.website = new Website(this, 'Website', {
        apiHost: this.api.endpointHost(),
        apiOriginHeaders: { 'X-Origin-Verify': originSecretValue },
        publicApiPath: props.routes.basePaths?.public,
        media: { regionalDomainName: mediaRegionalDomain },
        edge: this.site.edge,
      });
    }

    this.media = new Media(this, 'Media', {
      production: props.production,
      bucketName: mediaBucketName,
      allowedOrigins: [this.site.origin],
      pendingUploads: props.pendingUploads ?? { prefix: 'uploads/', expireAfter: Duration.days(1) },
      accessLogs: this.logs.bucket,
    });

    new Schedule(this, 'Schedule', { functionsDir: props.functionsDir, table: this.data.table, indexArns: this.data.indexArns(), production: props.production, logRetention, environment: { TABLE_NAME: this.data.table.tableName, LOG_LEVEL: props.logLevel ?? 'INFO', ...panelEnv, ...props.extraEnvironment } });

    const dueIndexArn = this.data.indexArns().find((a) => a.endsWith('/GSI3'));
    if (!dueIndexArn) throw new Error('PanelStack: the table has no GSI3 (the mail outbox due index)');
    this.mail = new Mail(this, 'Mail', {
      functionsDir: props.functionsDir,
      table: this.data.table,
      dueIndexArn,
      mailDomain: props.mailDomain,
      production: props.production,
      logRetention,
      environment: { TABLE_NAME: this.data.table.tableName, LOG_LEVEL: props.logLevel ?? 'INFO', ...props.extraEnvironment },
      credentialPartitions: Object.values(GUARDED_PARTITIONS),
    });

    // No Bucket ⇄ Function cycle: the notification is its own custom resource (after the bucket,
    // the function and S3's invoke permission), not a property of the bucket, and the function
    // names the bucket by its fixed name.
    this.imaging = new Imaging(this, 'Imaging', {
      functionsDir: props.functionsDir,
      bucket: this.media.bucket,
      production: props.production,
      logRetention,
      environment: { TABLE_NAME: this.data.table.tableName, MEDIA_BUCKET: mediaBucketName, LOG_LEVEL: props.logLevel ?? 'INFO', ...props.extraEnvironment },
    });

    const importStarter = importGroup(props.routes);
    if (importStarter) {
      this.wordpressImport = new WordPressImport(this, 'WordPressImport', {
        functionsDir: props.functionsDir,
        production: props.production,
        logRetention,
        environment: {
          TABLE_NAME: this.data.table.tableName,
          MEDIA_BUCKET: mediaBucketName,
          OBJECT_URL_PREFIX: '/media/',
          LOG_LEVEL: props.logLevel ?? 'INFO',
          ...panelEnv,
          ...props.extraEnvironment,
        },
      });
    }

    // --- grants (only here) ---
    // CloudFront may read confirmed media only (media/*), not pending uploads: the panel's
    // distribution and the websites' (one statement, both distributions as source).
    const readers = [distributionArn(this.site.distribution), ...(this.website ? [this.website.distributionArn] : [])];
    this.media.bucket.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'CloudFrontReadsMedia',
        principals: [new iam.ServicePrincipal('cloudfront.amazonaws.com')],
        actions: ['s3:GetObject'],
        resources: [this.media.bucket.arnForObjects('media/*')],
        conditions: { StringEquals: { 'AWS:SourceArn': readers.length === 1 ? readers[0] : readers } },
      }),
    );
    this.grantImaging();
    this.grantTwoFactorKey();
    const access = { ...GROUP_ACCESS, ...props.access };
    const pending = props.pendingUploads ?? { prefix: 'uploads/', expireAfter: Duration.days(1) };
    for (const gf of this.api.functions.values()) {
      this.grantGroup(gf, access[gf.group] ?? DEFAULT_ACCESS, pending.prefix);
      // Any group may write mail to the outbox with its own transaction, then nudge the queue.
      this.mail.grantNudge(gf.fn, gf.role);
    }
    if (this.wordpressImport && importStarter) {
      const starter = this.api.functions.get(importStarter);
      if (!starter) throw new Error(`PanelStack: no function for group ${importStarter}`);
      this.grantWordPressImport(this.wordpressImport, starter);
    }

    acknowledgeNagFindings({
      stack: this,
      httpApi: this.api.httpApi,
      distribution: this.site.distribution,
      siteBucket: this.site.bucket,
      customDomain: props.customDomain !== undefined,
      websiteDistribution: this.website?.distribution,
    });

    new CfnOutput(this, 'SiteUrl', { value: this.site.origin, description: 'The panel (CloudFront)' });
    new CfnOutput(this, 'DistributionId', { value: this.site.distribution.distributionId });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName, description: 'TABLE_NAME for cmsctl' });
    new CfnOutput(this, 'MediaBucketName', { value: this.media.bucket.bucketName });
    new CfnOutput(this, 'SiteBucketName', { value: this.site.bucket.bucketName });
    new CfnOutput(this, 'AccessLogsBucketName', { value: this.logs.bucket.bucketName });
    new CfnOutput(this, 'ApiEndpoint', { value: this.api.httpApi.apiEndpoint, description: 'Direct API endpoint (use the SiteUrl /api/ path)' });
    if (this.website) {
      new CfnOutput(this, 'WebsiteDistributionId', {
        value: this.website.distribution.ref,
        description: 'WEBSITE_DISTRIBUTION_ID for cmsctl tenant set-domains (the websites, multi-tenant)',
      });
      new CfnOutput(this, 'WebsiteConnectionGroupId', {
        value: this.website.connectionGroup.attrId,
        description: 'WEBSITE_CONNECTION_GROUP_ID for cmsctl tenant set-domains',
      });
      new CfnOutput(this, 'WebsiteRoutingEndpoint', {
        value: this.website.connectionGroup.attrRoutingEndpoint,
        description: "Institutions' website host names are CNAMEs to this",
      });
    }
  }

  /**
   * grantImaging: the image-variant function reads an original (HeadObject and GetObject both
   * need s3:GetObject), writes its variants beside it and deletes them when the record left
   * meanwhile, all under media/ only; no ListBucket (a missing original answers 403, which the
   * deriver reads as gone). On the table it reads the media record and sets its variants with
   * one conditional UpdateItem: no index, no transaction.
   */
  private grantImaging(): void {
    const role = this.imaging.role;
    role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'MediaObjects',
        actions: MEDIA_RW,
        resources: [this.media.bucket.arnForObjects(`${IMAGING_PREFIX}*`)],
      }),
    );
    role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'Table',
        actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        resources: [this.data.table.tableArn],
      }),
    );
    // Like every group but auth and access: no writes to the credential partitions.
    role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'NoCredentialWrites',
        effect: iam.Effect.DENY,
        actions: TABLE_WRITE,
        resources: [this.data.table.tableArn],
        conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': Object.values(GUARDED_PARTITIONS) } },
      }),
    );
    const bucketId = this.resolve((this.media.bucket.node.defaultChild as CfnResource).logicalId) as string;
    Validations.of(role).acknowledge({
      id: `AwsSolutions::AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${IMAGING_PREFIX}*]`,
      reason:
        `Object keys under ${IMAGING_PREFIX} are {tenant}/{ulid}/{name} (originals) and {tenant}/{ulid}/w/{width}.{ext} (variants), ` +
        'created at run time; the imaging function reads originals and writes or deletes their variants.',
    });
  }

  /**
   * grantTwoFactorKey: the users' two-factor keys are sealed by a KMS key (shared/secrets) that
   * only the auth group may use, for Encrypt and Decrypt with an encryption context naming the
   * tenant and the user. The key is kept when the stack goes (without it every user's two-factor
   * sign-in is lost) and rotates yearly (KMS keeps the old material to decrypt).
   */
  private grantTwoFactorKey(): void {
    const key = new kms.Key(this, 'TwoFactorKey', {
      description: 'campuscms: seals users\' two-factor sign-in keys (auth group only)',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const auth = this.api.functions.get('auth');
    if (!auth) throw new Error('PanelStack: the route table has no auth group');
    auth.fn.addEnvironment('KMS_KEY_ID', key.keyArn);
    auth.role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'TwoFactorKey',
        actions: ['kms:Encrypt', 'kms:Decrypt'],
        resources: [key.keyArn],
        conditions: { StringEquals: { 'kms:EncryptionContext:purpose': 'totp' } },
      }),
    );
  }

  /**
   * grantWordPressImport: the group serving /wordpress-imports presigns the export's upload
   * (PutObject: a presigned POST is the signer's own write), checks its first bytes (GetObject
   * covers HeadObject) and sends the job to the queue; only objects named export.xml under
   * uploads/, uploads/{tenant}/{jobId}/export.xml. The import function reads the export and
   * adds each attachment through the upload's path (put under uploads/, checked, copied
   * or rewritten into media/, the upload deleted), so Get/Put/Delete on those two prefixes: no
   * trash/, no ListBucket (its missing objects answer 403, which the media library reads as
   * missing). On the table it has an API group's default grant: it writes pages, notices, media
   * records, the menu and redirects through the engine, never a credential partition.
   */
  private grantWordPressImport(wi: WordPressImport, starter: GroupFunction): void {
    wi.grantStart(starter.fn, starter.role);
    const exports = this.media.bucket.arnForObjects(`${UPLOADS_PREFIX}*/${EXPORT_OBJECT}`);
    starter.role.addToPolicy(
      new iam.PolicyStatement({ sid: 'WordPressExports', actions: ['s3:GetObject', 's3:PutObject'], resources: [exports] }),
    );
    this.grantTable(wi.role, DEFAULT_ACCESS);
    wi.role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'MediaObjects',
        actions: MEDIA_RW,
        resources: [this.media.bucket.arnForObjects('media/*'), this.media.bucket.arnForObjects(`${UPLOADS_PREFIX}*`)],
      }),
    );
    const bucketId = this.resolve((this.media.bucket.node.defaultChild as CfnResource).logicalId) as string;
    Validations.of(starter.role).acknowledge({
      id: `AwsSolutions::AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${UPLOADS_PREFIX}*/${EXPORT_OBJECT}]`,
      reason:
        `WordPress exports are uploaded to ${UPLOADS_PREFIX}{tenant}/{jobId}/${EXPORT_OBJECT}, a key made per import at run time; ` +
        `the ${starter.group} group presigns that upload and reads its first bytes, and may touch no other object.`,
    });
    for (const p of ['media/', UPLOADS_PREFIX]) {
      Validations.of(wi.role).acknowledge({
        id: `AwsSolutions::AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${p}*]`,
        reason:
          `Object keys under ${p} are {tenant}/{ulid}/{name}, created at run time; the WordPress import reads the export ` +
          'and adds each attachment through the upload path (put, check, copy into media/, delete the upload).',
      });
    }
  }

  /**
   * grantTable gives a role a group's table access: the read (and write) actions on the table and
   * its indexes, and a deny on writes to the credential partitions the access does not list.
   */
  private grantTable(role: iam.Role, access: GroupAccess): void {
    const actions = access.table === 'readwrite' ? [...TABLE_READ, ...TABLE_WRITE] : TABLE_READ;
    role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'Table',
        actions,
        resources: [this.data.table.tableArn, ...this.data.indexArns()],
      }),
    );
    const denied = Object.entries(GUARDED_PARTITIONS)
      .filter(([name]) => !(access.writes ?? []).includes(name))
      .map(([, pattern]) => pattern);
    if (access.table === 'readwrite' && denied.length > 0) {
      role.addToPolicy(
        new iam.PolicyStatement({
          sid: 'NoCredentialWrites',
          effect: iam.Effect.DENY,
          actions: TABLE_WRITE,
          resources: [this.data.table.tableArn],
          conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': denied } },
        }),
      );
    }
  }

  private grantGroup(gf: GroupFunction, access: GroupAccess, pendingPrefix: string | undefined): void {
    this.grantTable(gf.role, access);
    if (access.media === 'readwrite') {
      gf.role.addToPolicy(
        new iam.PolicyStatement({
          sid: 'MediaObjects',
          actions: MEDIA_RW,
          resources: [
            this.media.bucket.arnForObjects('media/*'),
            this.media.bucket.arnForObjects(`${TRASH_PREFIX}*`),
            ...(pendingPrefix ? [this.media.bucket.arnForObjects(`${pendingPrefix}*`)] : []),
          ],
        }),
      );
      // Without s3:ListBucket, S3 answers a HEAD of a missing upload with 403 instead of 404.
      // Scoped to the two prefixes the group works in. (The confirm step also reads a 403 as
      // "not uploaded", in case S3 does not count a prefix-scoped grant for that check.)
      gf.role.addToPolicy(
        new iam.PolicyStatement({
          sid: 'MediaListPrefixes',
          actions: ['s3:ListBucket'],
          resources: [this.media.bucket.bucketArn],
          conditions: { StringLike: { 's3:prefix': ['media/*', `${TRASH_PREFIX}*`, ...(pendingPrefix ? [`${pendingPrefix}*`] : [])] } },
        }),
      );
      const bucketId = this.resolve((this.media.bucket.node.defaultChild as CfnResource).logicalId) as string;
      const prefixes = ['media/', TRASH_PREFIX, ...(pendingPrefix ? [pendingPrefix] : [])];
      for (const p of prefixes) {
        Validations.of(gf.role).acknowledge({
          id: `AwsSolutions::AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${p}*]`,
          reason:
            `Object keys under ${p} are {tenant}/{ulid}/{name}, created at run time; the ${gf.group} group presigns ` +
            'uploads, reads, copies and deletes them. Tenant isolation is enforced by the key builders (DESIGN §3, §5).',
        });
      }
    }
  }
}

/** bucketSafe lowercases a stack name into something valid inside a bucket name. */
export function bucketSafe(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9-]/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '').slice(0, 20);
}

function distributionArn(d: cloudfront.IDistribution): string {
  return `arn:${Aws.PARTITION}:cloudfront::${Aws.ACCOUNT_ID}:distribution/${d.distributionId}`;
}

/** defaultPaths are the repo-relative locations the app uses. */
export function defaultPaths(root: string): { functionsDir: string; spaDir: string } {
  return { functionsDir: path.join(root, 'build', 'functions'), spaDir: path.join(root, 'site', 'dist') };
}
