import * as fs from 'node:fs';
import * as path from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** SCHEDULE_FUNCTION is the functions dir entry of the job (functions/schedule/main.go). */
export const SCHEDULE_FUNCTION = 'schedule';

/** ScheduleProps configure the scheduled-publishing job. */
export interface ScheduleProps {
  /** functionsDir holds schedule/bootstrap (infra/scripts/build-functions.sh builds it). */
  readonly functionsDir: string;
  readonly table: dynamodb.ITable;
  /** indexArns are the table's GSIs: the engine's update writes records with index attributes. */
  readonly indexArns: readonly string[];
  readonly production: boolean;
  readonly logRetention: logs.RetentionDays;
  readonly environment: Readonly<Record<string, string>>;
  /** every is how often the rule runs the job (default one minute, EventBridge's finest rate). */
  readonly every?: Duration;
}

/**
 * Schedule is the scheduled-publishing job (shared/schedule): a one-minute EventBridge rule
 * invoking a small function that moves the stored schedule state of every tenant's due records
 * (public reads already honour publishAt/unpublishAt at read time; the job keeps lists, versions
 * and the audit log in step). It reads what is due in every tenant from one index partition (GSI3
 * "DUE"), never Scans, and writes through the engine like an API group; its grant is here, beside
 * the function, because it has no API route and no bucket access.
 */
export class Schedule extends Construct {
  readonly fn: lambda.Function;
  readonly role: iam.Role;
  readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: ScheduleProps) {
    super(scope, id);
    const assetDir = path.join(props.functionsDir, SCHEDULE_FUNCTION);
    if (!fs.existsSync(path.join(assetDir, 'bootstrap'))) {
      throw new Error(`Schedule: ${path.join(assetDir, 'bootstrap')} is missing; run infra/scripts/build-functions.sh before synth`);
    }
    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: props.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'campuscms scheduled publishing job',
    });
    logGroup.grantWrite(this.role);
    this.fn = new lambda.Function(this, 'Function', {
      // Not "campuscms <group>: ...": that names the API groups, which check the origin secret.
      description: 'Scheduled publishing job of campuscms (moves due schedule states, checks links, once a minute)',
      runtime: lambda.Runtime.PROVIDED_AL2023,
      architecture: lambda.Architecture.ARM_64,
      handler: 'bootstrap',
      code: lambda.Code.fromAsset(assetDir),
      memorySize: 256,
      // Well under the one-minute rate: runs rarely overlap, and when they do the job's writes
      // name the version they read, so nothing moves twice.
      timeout: Duration.seconds(50),
      role: this.role,
      logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      environment: { ...props.environment },
    });
    this.role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'Table',
        actions: [
          'dynamodb:GetItem',
          // The accessibility findings its writes record look up media records and pages in
          // batches, and so does the link check it runs (shared/a11ycheck).
          'dynamodb:BatchGetItem',
          'dynamodb:Query',
          'dynamodb:DescribeTable',
          'dynamodb:ConditionCheckItem',
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
          'dynamodb:DeleteItem',
        ],
        resources: [props.table.tableArn, ...props.indexArns],
      }),
    );
    this.rule = new events.Rule(this, 'EveryMinute', {
      description: 'campuscms: run the scheduled publishing job',
      schedule: events.Schedule.rate(props.every ?? Duration.minutes(1)),
      targets: [new targets.LambdaFunction(this.fn, { retryAttempts: 0 })],
    });
  }
}
