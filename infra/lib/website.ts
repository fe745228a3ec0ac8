import { Aws, Duration, Stack } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { Construct } from 'constructs';
import { HSTS_MAX_AGE, SharedEdge } from './site';

/** WebsiteProps configure the institutions' websites at the edge. */
export interface WebsiteProps {
  /** apiHost is the HTTP API's execute-api host name: the website Lambda is its $default route. */
  readonly apiHost: string;
  /** apiOriginHeaders are added to every request to the API (the origin secret, as on the panel). */
  readonly apiOriginHeaders?: Readonly<Record<string, string>>;
  /** publicApiPath is the public website API's base path (/api/v1/public); unset: no such behaviour. */
  readonly publicApiPath?: string;
  /** media is the media bucket's regional host name (addressed by name, as in the panel's Site). */
  readonly media: { readonly regionalDomainName: string };
  /** edge holds the policies and origin access control shared with the panel's distribution. */
  readonly edge: SharedEdge;
}

/**
 * WEBSITE_CSP: pages, theme CSS, fonts and the small script come from the site itself; images
 * and embeds (video, maps) may come from any https address because editors paste them; custom
 * CSS is an inline <style>, hence 'unsafe-inline' for styles only. Forms post to the site.
 */
export const WEBSITE_CSP = [
  "default-src 'self'",
  "img-src 'self' data: https:",
  "style-src 'self' 'unsafe-inline'",
  "script-src 'self'",
  'frame-src https:',
  "font-src 'self'",
  "form-action 'self'",
  "base-uri 'self'",
  "object-src 'none'",
  "frame-ancestors 'self'",
].join('; ');

/**
 * HTML_TTL: the website Lambda says how long a page may be kept (max-age=30 with
 * stale-while-revalidate, previews private, no-store), so CloudFront follows it from 0 up; an
 * answer without Cache-Control (an API Gateway error, say) is not cached at all, and a header
 * asking for more than a day (a mistake) is cut to a day.
 */
export const HTML_TTL = { min: Duration.seconds(0), default: Duration.seconds(0), max: Duration.days(1) };

/** MANAGED_CACHING_OPTIMIZED is the id of AWS's Managed-CachingOptimized cache policy. */
const MANAGED_CACHING_OPTIMIZED = cloudfront.CachePolicy.CACHING_OPTIMIZED.cachePolicyId;

const API_ORIGIN = 'api';
const MEDIA_ORIGIN = 'media';
const ALL_METHODS = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'];

/**
 * Website is the one multi-tenant CloudFront distribution (SaaS Manager, connection mode
 * tenant-only) in front of every institution's website, and the connection group whose routing
 * endpoint the institutions' DNS names point at. Distribution tenants (one per institution, with
 * its domains and a CloudFront-managed certificate) are not stack resources: cmsctl tenant
 * set-domains creates and updates them (shared/tenants/distribution.go), as institutions come
 * and go without a deploy.
 *
 * Behaviours: default → the website Lambda (the HTTP API's $default route), cached per host and
 * query for as long as the page says; /assets/* → the same origin, cached by path only (hashed,
 * immutable files shared by every tenant); /api/v1/public/* → the public API as on the panel;
 * /media/* → the media bucket through origin access control.
 *
 * It is an L1 CfnDistribution: aws-cdk-lib 2.276's Distribution construct has no connection
 * mode and always writes IPV6Enabled, which a multi-tenant distribution refuses (IPv6 belongs
 * to the connection group), so overriding its output would be the fragile way round.
 */
export class Website extends Construct {
  readonly distribution: cloudfront.CfnDistribution;
  readonly connectionGroup: cloudfront.CfnConnectionGroup;
  /** distributionArn is what the media bucket policy names as AWS:SourceArn. */
  readonly distributionArn: string;

  constructor(scope: Construct, id: string, props: WebsiteProps) {
    super(scope, id);

    const headers = new cloudfront.ResponseHeadersPolicy(this, 'Headers', {
      comment: 'Websites: CSP, HSTS, nosniff, same-origin framing, referrer policy',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: WEBSITE_CSP, override: true },
        // No includeSubdomains: the hosts are the institutions' own names, and HSTS on their apex
        // would bind every other subdomain they run (intranets, mail portals) to HTTPS.
        strictTransportSecurity: { accessControlMaxAge: HSTS_MAX_AGE, includeSubdomains: false, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.SAMEORIGIN, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
      },
    });
    // Pages: one cache entry per host (a host is a tenant) and query (page numbers, the preview
    // token), never per cookie; Accept-Encoding normalised so compressed copies are shared.
    const htmlCache = new cloudfront.CachePolicy(this, 'HtmlCache', {
      comment: 'Websites: keyed by host (X-Site-Host) and query; TTL from the page (max-age=30)',
      minTtl: HTML_TTL.min,
      defaultTtl: HTML_TTL.default,
      maxTtl: HTML_TTL.max,
      headerBehavior: cloudfront.CacheHeaderBehavior.allowList('X-Site-Host'),
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
      cookieBehavior: cloudfront.CacheCookieBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const viewerRequest = [{ eventType: 'viewer-request', functionArn: props.edge.siteHost.functionArn }];

    const behaviours: cloudfront.CfnDistribution.CacheBehaviorProperty[] = [];
    if (props.publicApiPath && props.edge.publicApi) {
      // First: CloudFront takes the first matching pattern. The same policies as the panel's
      // public API behaviour, so a website's own pages may call /api/v1/public on their host.
      behaviours.push({
        pathPattern: `${props.publicApiPath.replace(/^\//, '')}/*`,
        targetOriginId: API_ORIGIN,
        viewerProtocolPolicy: 'https-only',
        allowedMethods: ALL_METHODS,
        cachedMethods: ['GET', 'HEAD', 'OPTIONS'],
        cachePolicyId: props.edge.publicApi.cachePolicy.cachePolicyId,
        originRequestPolicyId: props.edge.visitorOrigin.originRequestPolicyId,
        responseHeadersPolicyId: props.edge.apiHeadersPolicy.responseHeadersPolicyId,
        compress: true,
        functionAssociations: viewerRequest,
      });
    }
    behaviours.push(
      {
        // Theme CSS, fonts and the script: hashed names, immutable, the same for every tenant,
        // so the key is the path alone (no host) and one copy per edge serves every website.
        pathPattern: 'assets/*',
        targetOriginId: API_ORIGIN,
        viewerProtocolPolicy: 'redirect-to-https',
        allowedMethods: ['GET', 'HEAD'],
        cachedMethods: ['GET', 'HEAD'],
        cachePolicyId: MANAGED_CACHING_OPTIMIZED,
        responseHeadersPolicyId: headers.responseHeadersPolicyId,
        compress: true,
      },
      {
        pathPattern: 'media/*',
        targetOriginId: MEDIA_ORIGIN,
        viewerProtocolPolicy: 'redirect-to-https',
        allowedMethods: ['GET', 'HEAD'],
        cachedMethods: ['GET', 'HEAD'],
        cachePolicyId: props.edge.mediaCachePolicy.cachePolicyId,
        responseHeadersPolicyId: props.edge.mediaHeadersPolicy.responseHeadersPolicyId,
        compress: true,
      },
    );

    this.distribution = new cloudfront.CfnDistribution(this, 'Distribution', {
      distributionConfig: {
        comment: 'campuscms websites (one distribution tenant per institution)',
        enabled: true,
        connectionMode: 'tenant-only',
        httpVersion: 'http2and3',
        // No ViewerCertificate, Aliases, PriceClass or IPV6Enabled: in tenant-only mode the
        // domains and certificates belong to the distribution tenants, and IPv6 and the
        // routing endpoint to the connection group. No TenantConfig parameters either: every
        // tenant shares the origins, and the website Lambda finds the tenant from the host.
        origins: [
          {
            id: API_ORIGIN,
            domainName: props.apiHost,
            customOriginConfig: { originProtocolPolicy: 'https-only', originSslProtocols: ['TLSv1.2'] },
            originCustomHeaders: Object.entries(props.apiOriginHeaders ?? {}).map(([headerName, headerValue]) => ({ headerName, headerValue })),
          },
          {
            id: MEDIA_ORIGIN,
            domainName: props.media.regionalDomainName,
            // An empty identity is how CloudFormation says "no legacy OAI"; access is the OAC.
            s3OriginConfig: { originAccessIdentity: '' },
            originAccessControlId: props.edge.originAccessControl.originAccessControlId,
          },
        ],
        defaultCacheBehavior: {
          targetOriginId: API_ORIGIN,
          viewerProtocolPolicy: 'redirect-to-https',
          // POST: the contact forms and the newsletter signup are plain HTML forms.
          allowedMethods: ALL_METHODS,
          cachedMethods: ['GET', 'HEAD'],
          cachePolicyId: htmlCache.cachePolicyId,
          originRequestPolicyId: props.edge.visitorOrigin.originRequestPolicyId,
          responseHeadersPolicyId: headers.responseHeadersPolicyId,
          compress: true,
          functionAssociations: viewerRequest,
        },
        cacheBehaviors: behaviours,
      },
    });
    this.distributionArn = `arn:${Aws.PARTITION}:cloudfront::${Aws.ACCOUNT_ID}:distribution/${this.distribution.ref}`;

    // The institutions' DNS names are CNAMEs to this group's routing endpoint; cmsctl attaches
    // every distribution tenant to it (WEBSITE_CONNECTION_GROUP_ID). A group of our own, not the
    // account's default one, so the endpoint is a stack output and IPv6 is on by decision.
    this.connectionGroup = new cloudfront.CfnConnectionGroup(this, 'ConnectionGroup', {
      name: `${Stack.of(this).stackName}-websites`,
      enabled: true,
      ipv6Enabled: true,
    });
  }
}
