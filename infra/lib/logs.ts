import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/** AccessLogsProps configure the audit-log bucket. */
export interface AccessLogsProps {
  readonly production: boolean;
  /** retentionDays bounds how long access logs are kept. */
  readonly retentionDays: number;
}

/**
 * AccessLogs is the bucket that receives S3 server access logs (site and media buckets) and
 * CloudFront standard logs. CloudFront's standard logging writes with ACLs, hence OBJECT_WRITER.
 */
export class AccessLogs extends Construct {
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: AccessLogsProps) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      objectOwnership: s3.ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ id: 'expire-logs', expiration: Duration.days(props.retentionDays) }],
      removalPolicy: props.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      autoDeleteObjects: false,
    });
  }
}
