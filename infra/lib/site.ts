import * as fs from 'node:fs';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';

/** CustomDomain serves the site on a name of ours (certificate in us-east-1, as CloudFront needs). */
export interface CustomDomain {
  readonly domainName: string;
  readonly certificateArn: string;
}

/** SiteProps configure the SPA bucket and the CloudFront distribution in front of everything. */
export interface SiteProps {
  readonly production: boolean;
  /** spaDir is the built SPA (site/dist); its config.json, if any, is replaced by runtimeConfig. */
  readonly spaDir: string;
  /** runtimeConfig is written as /config.json, read by the SPA at start-up. */
  readonly runtimeConfig: Readonly<Record<string, unknown>>;
  /** apiHost is the HTTP API's execute-api host name. */
  readonly apiHost: string;
  /**
   * apiOriginHeaders are added by CloudFront to every request it forwards to the API (the origin
   * secret the functions check, so the execute-api address is useless without CloudFront).
   */
  readonly apiOriginHeaders?: Readonly<Record<string, string>>;
  /**
   * publicApiPath is the base path of the public website API (/api/v1/public), cached at the
   * edge keyed by tenant header and host; unset means no such behaviour.
   */
  readonly publicApiPath?: string;
  /** media is the media bucket, addressed by name (see MediaProps.bucketName for why). */
  readonly media: { readonly bucketName: string; readonly regionalDomainName: string };
  /** contentSecurityPolicy of the SPA; must keep object-src/base-uri/frame-ancestors 'none'. */
  readonly contentSecurityPolicy: string;
  readonly customDomain?: CustomDomain;
  readonly accessLogs?: s3.IBucket;
  readonly priceClass?: cloudfront.PriceClass;
}

/**
 * SharedEdge is what the website distribution reuses from the panel's, so each rule has one
 * definition: the origin access control (media bucket), the media cache and header policies,
 * the API's header policy, the visitor's origin request policy and host function and, when there
 * is a public API, its cache policy.
 * Policies and origin access controls are account-level objects any distribution may attach.
 */
export interface SharedEdge {
  readonly originAccessControl: cloudfront.IOriginAccessControl;
  readonly mediaCachePolicy: cloudfront.ICachePolicy;
  readonly mediaHeadersPolicy: cloudfront.IResponseHeadersPolicy;
  readonly apiHeadersPolicy: cloudfront.IResponseHeadersPolicy;
  /** visitorOrigin forwards the viewer's address and the body's type to the origin. */
  readonly visitorOrigin: cloudfront.IOriginRequestPolicy;
  /** siteHost copies the viewer's Host into X-Site-Host. */
  readonly siteHost: cloudfront.IFunction;
  readonly publicApi?: {
    readonly cachePolicy: cloudfront.ICachePolicy;
  };
}

/** HSTS_MAX_AGE is two years, the preload-list minimum and above the one year we require. */
export const HSTS_MAX_AGE = Duration.days(730);

/**
 * SPA_FALLBACK rewrites history routes (no file extension in the last segment) to the SPA shell.
 * It runs only on the default behaviour, so /api/* and /media/* 404s stay 404s; a distribution-
 * wide custom error response would have turned them into 200 index.html.
 */
export const SPA_FALLBACK = `function handler(event) {
  var req = event.request;
  var uri = req.uri;
  if (uri.lastIndexOf('.') <= uri.lastIndexOf('/')) {
    req.uri = '/index.html';
  }
  return req;
}`;

/**
 * SITE_HOST copies the viewer's Host into X-Site-Host on the public API and on the websites
 * (lib/website.ts): API Gateway needs its own Host, so the viewer's travels under another name,
 * and the cache key uses it (a host resolves to a tenant). Whatever a viewer sent as X-Site-Host
 * is overwritten.
 */
export const SITE_HOST = `function handler(event) {
  var req = event.request;
  var host = req.headers.host ? req.headers.host.value : '';
  req.headers['x-site-host'] = { value: host };
  return req;
}`;

/** PUBLIC_TTL bounds how long CloudFront keeps a public answer: the origin's max-age (30 s) rules below it. */
export const PUBLIC_TTL = { min: Duration.seconds(0), default: Duration.seconds(30), max: Duration.seconds(60) };

/**
 * Site is the SPA bucket and the CloudFront distribution: default → SPA, /api/* → HTTP API
 * (uncached, all viewer headers but Host), /media/* → media bucket (nosniff, CSP sandbox).
 */
export class Site extends Construct {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  /** runtimeConfig is what /config.json holds. */
  readonly runtimeConfig: Readonly<Record<string, unknown>>;
  /** origin is https://{the distribution's domain}, i.e. the SPA's origin. */
  readonly origin: string;
  /** edge is what the website distribution shares with this one. */
  readonly edge: SharedEdge;

  constructor(scope: Construct, id: string, props: SiteProps) {
    super(scope, id);
    this.runtimeConfig = props.runtimeConfig;
    for (const d of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
      if (!props.contentSecurityPolicy.includes(d)) throw new Error(`Site: contentSecurityPolicy must contain ${d}`);
    }
    if (!fs.existsSync(`${props.spaDir}/index.html`)) {
      throw new Error(`Site: ${props.spaDir}/index.html is missing; run \`npm run build --prefix site\` first`);
    }

    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: props.accessLogs ? 'site-bucket/' : undefined,
      // The SPA is a build output: redeploying restores it, so nothing to keep.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: false,
    });

    const hsts = { accessControlMaxAge: HSTS_MAX_AGE, includeSubdomains: true, override: true };
    const referrerPolicy = { referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true };
    const spaHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SpaHeaders', {
      comment: 'SPA: CSP, HSTS, nosniff, frame deny, referrer policy',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: props.contentSecurityPolicy, override: true },
        strictTransportSecurity: hsts,
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy,
      },
    });
    const mediaHeaders = new cloudfront.ResponseHeadersPolicy(this, 'MediaHeaders', {
      comment: 'Media: nosniff + CSP sandbox so uploaded SVG/HTML cannot run script on our origin',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: 'sandbox', override: true },
        contentTypeOptions: { override: true },
        strictTransportSecurity: hsts,
        referrerPolicy,
      },
    });
    const apiHeaders = new cloudfront.ResponseHeadersPolicy(this, 'ApiHeaders', {
      comment: 'API: nosniff, HSTS, frame deny; JSON only, never cached',
      securityHeadersBehavior: {
        contentTypeOptions: { override: true },
        strictTransportSecurity: hsts,
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy,
      },
      customHeadersBehavior: {
        customHeaders: [{ header: 'Cache-Control', value: 'no-store', override: false }],
      },
    });

    // Deleting a media record must end access to the file soon: edges keep a copy 5 minutes at
    // most, whatever Cache-Control an object carries (objects promoted before this change say
    // "immutable, one year"). Paths are unguessable ULIDs, so a short TTL costs little.
    const mediaCache = new cloudfront.CachePolicy(this, 'MediaCache', {
      comment: 'Media: at most 5 minutes at the edge, so deleted files stop being served',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.minutes(5),
      maxTtl: Duration.minutes(5),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const oac = new cloudfront.S3OriginAccessControl(this, 'OriginAccessControl', {
      description: 'campuscms: CloudFront reads the site and media buckets',
    });
    // The media bucket is referenced by name, not by construct, to avoid the CORS cycle; its
    // bucket policy for this distribution is added by the stack (grants live in the stack).
    const mediaRef = s3.Bucket.fromBucketAttributes(this, 'MediaBucketRef', {
      bucketName: props.media.bucketName,
      bucketRegionalDomainName: props.media.regionalDomainName,
    });
    const spaFallback = new cloudfront.Function(this, 'SpaFallback', {
      code: cloudfront.FunctionCode.fromInline(SPA_FALLBACK),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: 'History routes to /index.html (default behaviour only)',
    });

    const apiOrigin = new origins.HttpOrigin(props.apiHost, {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
      customHeaders: { ...props.apiOriginHeaders },
    });
    // What the public API and the websites' pages need of a visitor: the host as X-Site-Host (a
    // viewer-request function: API Gateway needs its own Host) and, beside the cache key, the
    // viewer's address for the submissions' rate limit (set by CloudFront, not the viewer), the
    // body's type, and what decides whether a page view is counted: the user agent (bots are
    // not; without it CloudFront sends its own) and the visitor's DNT and Sec-GPC. One
    // definition each, attached by both distributions.
    const originRequestPolicy = new cloudfront.OriginRequestPolicy(this, 'PublicApiOrigin', {
      comment: 'Public API and websites: viewer address, content type, user agent and DNT/GPC to the origin',
      headerBehavior: cloudfront.OriginRequestHeaderBehavior.allowList('CloudFront-Viewer-Address', 'Content-Type', 'User-Agent', 'DNT', 'Sec-GPC'),
      queryStringBehavior: cloudfront.OriginRequestQueryStringBehavior.all(),
      cookieBehavior: cloudfront.OriginRequestCookieBehavior.none(),
    });
    const siteHost = new cloudfront.Function(this, 'SiteHost', {
      code: cloudfront.FunctionCode.fromInline(SITE_HOST),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: 'Public API and websites: the viewer Host as X-Site-Host (cache key, tenant by host)',
    });
    const publicBehaviours: Record<string, cloudfront.BehaviorOptions> = {};
    let publicApi: SharedEdge['publicApi'];
    if (props.publicApiPath) {
      // The website API is cached: keyed by tenant header, host and query string (page, limit,
      // when, department), for as long as the origin's Cache-Control says (30 s, at most 60 s),
      // so a popular site costs a few Lambda calls a minute and an edit shows within a minute.
      const cachePolicy = new cloudfront.CachePolicy(this, 'PublicApiCache', {
        comment: 'Public website API: keyed by X-Tenant-Id, host (X-Site-Host) and query',
        minTtl: PUBLIC_TTL.min,
        defaultTtl: PUBLIC_TTL.default,
        maxTtl: PUBLIC_TTL.max,
        headerBehavior: cloudfront.CacheHeaderBehavior.allowList('X-Tenant-Id', 'X-Site-Host'),
        queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
        cookieBehavior: cloudfront.CacheCookieBehavior.none(),
        enableAcceptEncodingGzip: true,
        enableAcceptEncodingBrotli: true,
      });
      publicApi = { cachePolicy };
      publicBehaviours[`${props.publicApiPath.replace(/^\//, '')}/*`] = {
        origin: apiOrigin,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
        cachedMethods: cloudfront.CachedMethods.CACHE_GET_HEAD_OPTIONS,
        cachePolicy,
        originRequestPolicy,
        responseHeadersPolicy: apiHeaders,
        compress: true,
        functionAssociations: [{ function: siteHost, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      };
    }

    const certificate = props.customDomain
      ? acm.Certificate.fromCertificateArn(this, 'Certificate', props.customDomain.certificateArn)
      : undefined;
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'campuscms panel',
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: props.priceClass ?? cloudfront.PriceClass.PRICE_CLASS_100,
      domainNames: props.customDomain ? [props.customDomain.domainName] : undefined,
      certificate,
      // Only a certificate of ours can raise the viewer TLS floor (see the CFR4 acknowledgment).
      minimumProtocolVersion: certificate ? cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021 : undefined,
      enableLogging: props.accessLogs !== undefined,
      logBucket: props.accessLogs,
      logFilePrefix: props.accessLogs ? 'cloudfront/' : undefined,
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket, { originAccessControl: oac }),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: spaHeaders,
        compress: true,
        functionAssociations: [{ function: spaFallback, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        // First: CloudFront matches behaviours in order, and api/* would take the public API too.
        ...publicBehaviours,
        'api/*': {
          origin: apiOrigin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          // Every viewer header (X-Tenant-Id, Authorization, ...) but Host, which must be
          // the execute-api host for API Gateway to route the request.
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: apiHeaders,
          compress: true,
        },
        'media/*': {
          origin: origins.S3BucketOrigin.withOriginAccessControl(mediaRef, { originAccessControl: oac }),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: mediaCache,
          responseHeadersPolicy: mediaHeaders,
          compress: true,
        },
      },
    });
    this.origin = `https://${props.customDomain?.domainName ?? this.distribution.distributionDomainName}`;
    this.edge = {
      originAccessControl: oac,
      mediaCachePolicy: mediaCache,
      mediaHeadersPolicy: mediaHeaders,
      apiHeadersPolicy: apiHeaders,
      visitorOrigin: originRequestPolicy,
      siteHost,
      publicApi,
    };

    // Hashed assets are immutable; the shell (index.html) and config.json must be revalidated
    // so a deploy is visible at once. prune: false keeps the previous build's assets for tabs
    // still running it.
    const assets = new s3deploy.BucketDeployment(this, 'DeployAssets', {
      destinationBucket: this.bucket,
      sources: [s3deploy.Source.asset(props.spaDir, { exclude: ['index.html', 'config.json'] })],
      cacheControl: [s3deploy.CacheControl.fromString('public, max-age=31536000, immutable')],
      prune: false,
      memoryLimit: 256,
    });
    const shell = new s3deploy.BucketDeployment(this, 'DeployShell', {
      destinationBucket: this.bucket,
      sources: [
        s3deploy.Source.asset(props.spaDir, { exclude: ['*', '!index.html'] }),
        s3deploy.Source.jsonData('config.json', props.runtimeConfig),
      ],
      cacheControl: [s3deploy.CacheControl.fromString('no-cache')],
      prune: false,
      memoryLimit: 256,
    });
    // The shell goes last, so it never points at assets not uploaded yet.
    shell.node.addDependency(assets);
  }
}
