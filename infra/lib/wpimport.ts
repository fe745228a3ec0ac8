import * as fs from 'node:fs';
import * as path from 'node:path';
import { CfnOutput, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { RouteTable } from './routes';

/** WPIMPORT_FUNCTION is the functions dir entry of the import function (functions/wpimport/main.go). */
export const WPIMPORT_FUNCTION = 'wpimport';

/** WPIMPORT_PREFIX is the route prefix of the Import screen's calls (shared/wpimport/api.go Prefix). */
export const WPIMPORT_PREFIX = 'wordpress-imports';

/** WPIMPORT_QUEUE_ENV names the queue's URL in the environment (shared/wpimport/starter.go QueueEnv). */
export const WPIMPORT_QUEUE_ENV = 'WPIMPORT_QUEUE_URL';

/**
 * UPLOADS_PREFIX is where the media library puts a file before it is confirmed (shared/mediaref
 * uploadRoot): the export, and each attachment the import adds through the upload's path.
 */
export const UPLOADS_PREFIX = 'uploads/';

/**
 * EXPORT_OBJECT is the name the Import screen's presigned upload gives the export, under
 * uploads/{tenant}/{jobId}/ (shared/wpimport/api.go: mediaref.UploadKey(scope, id, "export.xml")).
 * The group serving WPIMPORT_PREFIX may write and read objects of this name only.
 */
export const EXPORT_OBJECT = 'export.xml';

/** WPIMPORT_TIMEOUT is the function's timeout: Lambda's longest; a run checkpoints 90 s before it. */
export const WPIMPORT_TIMEOUT = Duration.minutes(15);

/** importGroup is the group whose function serves WPIMPORT_PREFIX, if the route table has one. */
export function importGroup(routes: RouteTable): string | undefined {
  return Object.keys(routes.groups).find((g) => routes.groups[g].includes(WPIMPORT_PREFIX));
}

/** WordPressImportProps configure the import function and its queue. */
export interface WordPressImportProps {
  /** functionsDir holds wpimport/bootstrap (infra/scripts/build-functions.sh builds it). */
  readonly functionsDir: string;
  readonly production: boolean;
  readonly logRetention: logs.RetentionDays;
  /** environment: TABLE_NAME, MEDIA_BUCKET, OBJECT_URL_PREFIX, LOG_LEVEL (+ PANEL_URL, the local-run extras). */
  readonly environment: Readonly<Record<string, string>>;
  /**
   * concurrency is how many imports run at once (default 4): the event source's maximum
   * concurrency and the function's reserved concurrency, equal so that the queue never hands the
   * function a message it is throttled on (which would count as a receive towards the DLQ).
   */
  readonly concurrency?: number;
}

/**
 * WordPressImport runs the panel's WordPress imports outside the request (shared/wpimport): the
 * Import screen's check and import calls (the group serving /wordpress-imports) send
 * {"tenant","id"} to the queue; each message invokes the function, which runs that job until 90 s
 * before its 15-minute deadline, checkpoints it in the job's item and sends it to the queue again,
 * so an export of any size finishes in as many invocations as it takes. A run that fails outright
 * is reported back (a batch item failure) and retried after the visibility timeout; after 3
 * receives the message goes to the dead-letter queue (the job keeps its checkpoint: Import again
 * goes on from there). Attachments are fetched from the internet: the function is in no VPC.
 *
 * Its data grants (the table as the API groups have it, the media prefixes an upload writes) are
 * added by the stack with the others; this construct holds the queue, the function, its event
 * source and its right to requeue.
 */
export class WordPressImport extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetters: sqs.Queue;
  readonly fn: lambda.Function;
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: WordPressImportProps) {
    super(scope, id);
    const assetDir = path.join(props.functionsDir, WPIMPORT_FUNCTION);
    if (!fs.existsSync(path.join(assetDir, 'bootstrap'))) {
      throw new Error(`WordPressImport: ${path.join(assetDir, 'bootstrap')} is missing; run infra/scripts/build-functions.sh before synth`);
    }
    const removalPolicy = props.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const concurrency = props.concurrency ?? 4;
    if (!Number.isInteger(concurrency) || concurrency < 2) {
      throw new Error(`WordPressImport: concurrency ${concurrency}: at least 2 (the event source's minimum)`);
    }

    this.deadLetters = new sqs.Queue(this, 'DeadLetters', {
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      removalPolicy,
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      // Longer than a run: a message is hidden for the whole invocation that holds it.
      visibilityTimeout: WPIMPORT_TIMEOUT.plus(Duration.minutes(1)),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: 3 },
      removalPolicy,
    });

    const logGroup = new logs.LogGroup(this, 'Logs', { retention: props.logRetention, removalPolicy });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'campuscms WordPress import function',
    });
    logGroup.grantWrite(this.role);
    this.fn = new lambda.Function(this, 'Function', {
      // Not "campuscms <group>: ...": that names the API groups, which check the origin secret.
      description: 'WordPress import of campuscms (runs the Import screen\'s jobs from the import queue)',
      runtime: lambda.Runtime.PROVIDED_AL2023,
      architecture: lambda.Architecture.ARM_64,
      handler: 'bootstrap',
      code: lambda.Code.fromAsset(assetDir),
      // The export is streamed, but each attachment is held whole (up to an upload's 5 MB) and an
      // image decoded whole for the upload's checks (up to 40 megapixels, ~160 MB of pixels), a
      // few at a time; 1024 MiB also buys a full vCPU share for the decoding.
      memorySize: 1024,
      timeout: WPIMPORT_TIMEOUT,
      reservedConcurrentExecutions: concurrency,
      role: this.role,
      logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      environment: { ...props.environment, [WPIMPORT_QUEUE_ENV]: this.queue.queueUrl },
    });
    this.fn.addEventSource(new SqsEventSource(this.queue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: concurrency }));
    // It sends its own job back to the queue at each checkpoint.
    this.role.addToPolicy(new iam.PolicyStatement({ sid: 'Requeue', actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }));

    Validations.of(this.deadLetters).acknowledge({
      id: 'AwsSolutions::AwsSolutions-SQS3',
      reason:
        'This is the dead-letter queue of the WordPress import queue; the job a message names keeps its checkpoint ' +
        'and its failed state in the table, and Import again on the panel resumes it.',
    });
    new CfnOutput(Stack.of(this), 'WordPressImportDeadLetterQueueUrl', {
      value: this.deadLetters.queueUrl,
      description: 'WordPress import jobs whose run failed 3 times (the job itself keeps its checkpoint)',
    });
  }

  /** grantStart lets a function start imports (send a job to the queue) and tells it the queue's address. */
  grantStart(fn: lambda.Function, role: iam.IRole): void {
    fn.addEnvironment(WPIMPORT_QUEUE_ENV, this.queue.queueUrl);
    role.addToPrincipalPolicy(new iam.PolicyStatement({ sid: 'WordPressImportStart', actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }));
  }
}
