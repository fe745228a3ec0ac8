import { Aws, Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/** PendingUploads says which objects are unconfirmed uploads that a lifecycle rule may expire. */
export interface PendingUploads {
  /** prefix of unconfirmed uploads (e.g. "uploads/"); the confirm step moves or re-tags them. */
  readonly prefix?: string;
  /** tag marking an unconfirmed upload (set by the presigned POST policy, removed on confirm). */
  readonly tag?: { readonly key: string; readonly value: string };
  /** expireAfter is how long an unconfirmed upload may live. */
  readonly expireAfter?: Duration;
}

/**
 * TRASH_PREFIX holds the files of media records in the tenant's trash (shared/mediaref TrashKey):
 * never served, expired a day after their 30 days in the trash. A file is copied there when it is
 * deleted, so the rule counts from the delete.
 */
export const TRASH_PREFIX = 'trash/';
export const TRASH_DAYS = 31;

/** MediaProps configure the media bucket (DESIGN §5). */
export interface MediaProps {
  readonly production: boolean;
  /**
   * bucketName is fixed (not generated) so that CloudFront's origin, the SPA's CSP and this
   * bucket's CORS rule can all be written without a Bucket ⇄ Distribution dependency cycle:
   * the CORS rule must name the distribution's domain, and the distribution must name the bucket.
   */
  readonly bucketName: string;
  /** allowedOrigins may POST (presigned uploads) from a browser: the SPA's origin(s). */
  readonly allowedOrigins: readonly string[];
  /** pendingUploads selects what the expiry lifecycle rule removes. */
  readonly pendingUploads: PendingUploads;
  /**
   * versioned keeps old object versions. Off by default: a media record deletion must really
   * delete the file (users expect an erased upload to be gone), and every key is a fresh ULID,
   * so objects are never overwritten in place; the table (PITR) is the system of record.
   */
  readonly versioned?: boolean;
  /** accessLogs receives S3 server access logs. */
  readonly accessLogs?: s3.IBucket;
}

/** Media is the private bucket for uploaded files, read through CloudFront /media/* only. */
export class Media extends Construct {
  readonly bucket: s3.Bucket;
  /** regionalDomainName is the bucket's host, derived from its name (no token back to the bucket). */
  readonly regionalDomainName: string;
  /** bucketName is the fixed bucket name. */
  readonly bucketName: string;

  constructor(scope: Construct, id: string, props: MediaProps) {
    super(scope, id);
    const { prefix, tag, expireAfter = Duration.days(1) } = props.pendingUploads;
    if (!prefix && !tag) throw new Error('Media: pendingUploads needs a prefix or a tag');
    if (prefix !== undefined && (prefix.startsWith('media/') || prefix === '')) {
      throw new Error(`Media: pendingUploads.prefix ${JSON.stringify(prefix)} would expire confirmed media`);
    }
    if (props.allowedOrigins.length === 0) throw new Error('Media: allowedOrigins is empty');
    this.bucketName = props.bucketName;
    this.regionalDomainName = `${props.bucketName}.s3.${Aws.REGION}.${Aws.URL_SUFFIX}`;
    this.bucket = new s3.Bucket(this, 'Bucket', {
      bucketName: props.bucketName,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: props.versioned ?? false,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: props.accessLogs ? 'media-bucket/' : undefined,
      cors: [
        {
          // Presigned POST uploads from the SPA (DESIGN §5); reads go through CloudFront.
          allowedMethods: [s3.HttpMethods.POST],
          allowedOrigins: [...props.allowedOrigins],
          allowedHeaders: ['*'],
          exposedHeaders: ['ETag', 'Location'],
          maxAge: 3000,
        },
      ],
      lifecycleRules: [
        {
          id: 'expire-unconfirmed-uploads',
          prefix,
          tagFilters: tag ? { [tag.key]: tag.value } : undefined,
          expiration: expireAfter,
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
        { id: 'expire-trashed-media', prefix: TRASH_PREFIX, expiration: Duration.days(TRASH_DAYS) },
      ],
      removalPolicy: props.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
  }
}
