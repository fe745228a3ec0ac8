import * as fs from 'node:fs';
import * as path from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3n from 'aws-cdk-lib/aws-s3-notifications';
import { Construct } from 'constructs';

/** IMAGING_FUNCTION is the functions dir entry of the image-variant function (functions/imaging/main.go). */
export const IMAGING_FUNCTION = 'imaging';

/** IMAGING_PREFIX is where the originals (and their variants) live: media/{tenant}/{ulid}/... */
export const IMAGING_PREFIX = 'media/';

/** ImagingProps configure the image-variant function. */
export interface ImagingProps {
  /** functionsDir holds imaging/bootstrap (infra/scripts/build-functions.sh builds it). */
  readonly functionsDir: string;
  /** bucket is the media bucket whose object-created events under media/ invoke the function. */
  readonly bucket: s3.IBucket;
  readonly production: boolean;
  readonly logRetention: logs.RetentionDays;
  /** environment: TABLE_NAME, MEDIA_BUCKET, LOG_LEVEL (+ the local-run extras). */
  readonly environment: Readonly<Record<string, string>>;
}

/**
 * Imaging is the image-variant function (shared/media Deriver): every object created under
 * media/ in the media bucket (a confirmed upload copied there, a file back from the trash, and
 * the variants it writes itself) invokes it asynchronously; it makes the 320/640/1280/1920 copies
 * of an original image beside it and lists them on the media record. It ignores every key that
 * is not an original, so its own writes end there. S3 filters take one prefix, not an exclusion,
 * hence the function's own check rather than a narrower filter.
 *
 * Its grants (media/* objects, the table's GetItem/UpdateItem) are added by the stack with the
 * other bucket grants; this construct holds the function and its trigger.
 */
export class Imaging extends Construct {
  readonly fn: lambda.Function;
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: ImagingProps) {
    super(scope, id);
    const assetDir = path.join(props.functionsDir, IMAGING_FUNCTION);
    if (!fs.existsSync(path.join(assetDir, 'bootstrap'))) {
      throw new Error(`Imaging: ${path.join(assetDir, 'bootstrap')} is missing; run infra/scripts/build-functions.sh before synth`);
    }
    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: props.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'campuscms image variants function',
    });
    logGroup.grantWrite(this.role);
    this.fn = new lambda.Function(this, 'Function', {
      // Not "campuscms <group>: ...": that names the API groups, which check the origin secret.
      description: 'Image variants of campuscms (resized copies of each uploaded image, on S3 events)',
      runtime: lambda.Runtime.PROVIDED_AL2023,
      architecture: lambda.Architecture.ARM_64,
      handler: 'bootstrap',
      code: lambda.Code.fromAsset(assetDir),
      // Deriving a 12-megapixel photo peaks at ~100 MB of heap plus the 5 MB source; 1024 MiB
      // also buys a full vCPU share (decoding and resizing are CPU-bound): 1.8 s per photo measured.
      memorySize: 1024,
      // Far above one photo's 1.8 s, and room for the deriver's waits (~4 s) for a record whose
      // confirmation has not committed yet when the event arrives.
      timeout: Duration.seconds(60),
      // Lambda's default 2 retries for a failed event (the record not there yet, a throttled
      // write). An event held back by throttling is kept the full 6 hours: nothing else makes the
      // variants later, and a late copy is better than none (readers use the original meanwhile).
      retryAttempts: 2,
      maxEventAge: Duration.hours(6),
      role: this.role,
      logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      environment: { ...props.environment },
    });
    // s3:ObjectCreated:* covers Put, Post, Copy (a confirmed upload is copied from uploads/ into
    // media/; a restored file from trash/) and CompleteMultipartUpload.
    props.bucket.addEventNotification(s3.EventType.OBJECT_CREATED, new s3n.LambdaDestination(this.fn), { prefix: IMAGING_PREFIX });
  }
}
