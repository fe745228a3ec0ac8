import * as fs from 'node:fs';
import * as path from 'node:path';
import { Aws, CfnOutput, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Validations } from 'aws-cdk-lib';
import { Construct } from 'constructs';

/** MAIL_FUNCTION is the functions dir entry of the mail sender (functions/mail/main.go). */
export const MAIL_FUNCTION = 'mail';
/** MAIL_EVENTS_FUNCTION is the functions dir entry of the suppression handler (functions/mailevents/main.go). */
export const MAIL_EVENTS_FUNCTION = 'mailevents';

/** MAIL_IDENTITIES are the SES identities the sender may send from: the deployment's and the tenants' own domains. */
export const MAIL_IDENTITIES = 'identity/*';
/** MAIL_FROM_PATTERN is the only From address the sender may use, at any of those identities. */
export const MAIL_FROM_PATTERN = 'no-reply@*';

/** SES_EVENT_TYPES are the EventBridge detail-types of the SES events that suppress an address. */
export const SES_EVENT_TYPES = ['Email Bounced', 'Email Complaint Received'];

/** MailProps configure how the deployment sends mail. */
export interface MailProps {
  /** functionsDir holds mail/bootstrap and mailevents/bootstrap (infra/scripts/build-functions.sh builds them). */
  readonly functionsDir: string;
  readonly table: dynamodb.ITable;
  /** dueIndexArn is the GSI the sender queries for due mail (GSI3, partition MAIL#DUE). */
  readonly dueIndexArn: string;
  /**
   * mailDomain is the domain mail is sent from (no-reply@{mailDomain}): SES verifies it with
   * the DKIM records the stack prints. Without it the stack sends nothing: every mail is
   * recorded as failed (MAIL_TRANSPORT=off) and no function may call SES.
   */
  readonly mailDomain?: string;
  readonly production: boolean;
  readonly logRetention: logs.RetentionDays;
  /** environment: TABLE_NAME, LOG_LEVEL (+ the local-run extras). */
  readonly environment: Readonly<Record<string, string>>;
  /** credentialPartitions are the LeadingKeys patterns no mail function may write (the stack's GUARDED_PARTITIONS). */
  readonly credentialPartitions: readonly string[];
}

/**
 * Mail is how the panel's mail leaves (shared/mail): what causes a mail writes it to the outbox
 * in its own transaction; the request then nudges the mail queue (best effort) and the sender
 * function sends it through SES v2 with the configuration set; a one-minute EventBridge rule
 * sweeps the outbox's due index too, so a lost nudge delays a mail by a minute at most. The
 * queue retries a batch whose delivery failed and then keeps it in a dead-letter queue (the
 * mail itself stays in the outbox, and a failed send is retried with backoff and then listed as
 * failed there). The configuration set publishes bounces and complaints to EventBridge, whose
 * rule calls the suppression handler: the address joins the suppression list of the tenant the
 * mail was tagged with.
 *
 * Least privilege: only the sender may call ses:SendEmail, through this configuration set, from a
 * no-reply@ address of an identity of this account and region (the deployment's, or a tenant's
 * own domain: cmsctl tenant set-mail-domain); the handler may only PutItem; the API groups may
 * only send to the queue (PanelStack grants it).
 */
export class Mail extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetters: sqs.Queue;
  readonly configurationSet: ses.ConfigurationSet;
  readonly identity?: ses.EmailIdentity;
  readonly sender: lambda.Function;
  readonly senderRole: iam.Role;
  readonly eventsHandler: lambda.Function;
  readonly eventsRole: iam.Role;
  readonly sweep: events.Rule;
  readonly bounces: events.Rule;

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id);
    for (const fn of [MAIL_FUNCTION, MAIL_EVENTS_FUNCTION]) {
      const bootstrap = path.join(props.functionsDir, fn, 'bootstrap');
      if (!fs.existsSync(bootstrap)) {
        throw new Error(`Mail: ${bootstrap} is missing; run infra/scripts/build-functions.sh before synth`);
      }
    }
    const removalPolicy = props.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', {
      // SES's own account-level suppression stays on; the tenant lists are ours (bulk mail only).
      reputationMetrics: true,
      sendingEnabled: true,
      tlsPolicy: ses.ConfigurationSetTlsPolicy.REQUIRE,
    });
    if (props.mailDomain) {
      this.identity = new ses.EmailIdentity(this, 'Identity', {
        identity: ses.Identity.domain(props.mailDomain),
        configurationSet: this.configurationSet,
      });
    }

    this.deadLetters = new sqs.Queue(this, 'DeadLetters', {
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      removalPolicy,
    });
    // The sender's timeout bounds one run (at most 100 mails, each send at most 30 s but
    // usually ~0.1 s); the queue hides a message six times that while it is being handled.
    const timeout = Duration.seconds(90);
    this.queue = new sqs.Queue(this, 'Queue', {
      visibilityTimeout: Duration.seconds(timeout.toSeconds() * 6),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: 5 },
      removalPolicy,
    });

    const env = { ...props.environment };
    const senderEnv: Record<string, string> = props.mailDomain
      ? { ...env, MAIL_TRANSPORT: 'ses', MAIL_DOMAIN: props.mailDomain, MAIL_CONFIGURATION_SET: this.configurationSet.configurationSetName }
      : { ...env, MAIL_TRANSPORT: 'off' };

    const senderLogs = new logs.LogGroup(this, 'SenderLogs', { retention: props.logRetention, removalPolicy });
    this.senderRole = new iam.Role(this, 'SenderRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'campuscms mail sender',
    });
    senderLogs.grantWrite(this.senderRole);
    this.sender = new lambda.Function(this, 'Sender', {
      // Not "campuscms <group>: ...": that names the API groups, which check the origin secret.
      description: 'Mail sender of campuscms (sends the outbox through SES: queue messages and a one-minute sweep)',
      runtime: lambda.Runtime.PROVIDED_AL2023,
      architecture: lambda.Architecture.ARM_64,
      handler: 'bootstrap',
      code: lambda.Code.fromAsset(path.join(props.functionsDir, MAIL_FUNCTION)),
      memorySize: 256,
      timeout,
      role: this.senderRole,
      logGroup: senderLogs,
      loggingFormat: lambda.LoggingFormat.JSON,
      environment: senderEnv,
    });
    this.sender.addEventSource(new SqsEventSource(this.queue, { batchSize: 10, reportBatchItemFailures: true }));
    this.senderRole.addToPolicy(
      new iam.PolicyStatement({
        sid: 'Outbox',
        // Read due mail (GSI3), claim it (UpdateItem), remove it once sent (DeleteItem), move it
        // to the failed partition (a transaction: DeleteItem + PutItem), read suppressions.
        actions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:DescribeTable', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem'],
        resources: [props.table.tableArn, props.dueIndexArn],
      }),
    );
    this.senderRole.addToPolicy(noCredentialWrites(props.table, props.credentialPartitions));
    if (this.identity && props.mailDomain) {
      // A tenant may send from a domain of its own (cmsctl tenant set-mail-domain creates its
      // identity at run time), so the grant names every identity of this account and region.
      // SES has no condition key for the configuration set: the configuration set is a resource
      // SendEmail is authorized on, and only this one is granted, so a send naming another is
      // refused; every identity the stack or cmsctl creates has this one as its default, so a send
      // naming none still reports its bounces and complaints here. ses:FromAddress keeps the
      // sender to no-reply@ addresses.
      this.senderRole.addToPolicy(
        new iam.PolicyStatement({
          sid: 'SendMail',
          actions: ['ses:SendEmail'],
          resources: [
            `arn:${Aws.PARTITION}:ses:${Aws.REGION}:${Aws.ACCOUNT_ID}:${MAIL_IDENTITIES}`,
            `arn:${Aws.PARTITION}:ses:${Aws.REGION}:${Aws.ACCOUNT_ID}:configuration-set/${this.configurationSet.configurationSetName}`,
          ],
          conditions: { StringLike: { 'ses:FromAddress': MAIL_FROM_PATTERN } },
        }),
      );
      Validations.of(this.senderRole).acknowledge({
        id: `AwsSolutions::AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:${MAIL_IDENTITIES}]`,
        reason:
          'Tenants verify domains of their own at run time (cmsctl tenant set-mail-domain creates each SES identity); ' +
          'the grant is ses:SendEmail only, through the deployment configuration set only, from no-reply@ addresses only.',
      });
    }
    this.sweep = new events.Rule(this, 'SweepEveryMinute', {
      description: 'campuscms: send the mail the queue did not (the outbox due index)',
      schedule: events.Schedule.rate(Duration.minutes(1)),
      targets: [new targets.LambdaFunction(this.sender, { retryAttempts: 0 })],
    });

    const eventsLogs = new logs.LogGroup(this, 'EventsLogs', { retention: props.logRetention, removalPolicy });
    this.eventsRole = new iam.Role(this, 'EventsRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'campuscms mail suppression handler',
    });
    eventsLogs.grantWrite(this.eventsRole);
    this.eventsHandler = new lambda.Function(this, 'EventsHandler', {
      description: 'Mail suppression of campuscms (SES bounces and complaints to the tenant suppression list)',
      runtime: lambda.Runtime.PROVIDED_AL2023,
      architecture: lambda.Architecture.ARM_64,
      handler: 'bootstrap',
      code: lambda.Code.fromAsset(path.join(props.functionsDir, MAIL_EVENTS_FUNCTION)),
      memorySize: 128,
      timeout: Duration.seconds(10),
      role: this.eventsRole,
      logGroup: eventsLogs,
      loggingFormat: lambda.LoggingFormat.JSON,
      environment: env,
    });
    this.eventsRole.addToPolicy(
      new iam.PolicyStatement({ sid: 'Suppressions', actions: ['dynamodb:PutItem'], resources: [props.table.tableArn] }),
    );
    // A newsletter's bounce or complaint is counted on the newsletter (an UpdateItem in the
    // suppression's transaction): updates only in newsletters' partitions.
    this.eventsRole.addToPolicy(
      new iam.PolicyStatement({
        sid: 'NewsletterCounts',
        actions: ['dynamodb:UpdateItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['T#*#newsletters'] } },
      }),
    );
    this.eventsRole.addToPolicy(noCredentialWrites(props.table, props.credentialPartitions));
    new ses.ConfigurationSetEventDestination(this, 'BouncesAndComplaints', {
      configurationSet: this.configurationSet,
      destination: ses.EventDestination.eventBus(events.EventBus.fromEventBusName(this, 'DefaultBus', 'default')),
      events: [ses.EmailSendingEvent.BOUNCE, ses.EmailSendingEvent.COMPLAINT],
    });
    this.bounces = new events.Rule(this, 'Bounces', {
      description: 'campuscms: SES bounces and complaints of the mail configuration set, to the suppression handler',
      eventPattern: {
        source: ['aws.ses'],
        detailType: SES_EVENT_TYPES,
        detail: { mail: { tags: { 'ses:configuration-set': [this.configurationSet.configurationSetName] } } },
      },
      targets: [new targets.LambdaFunction(this.eventsHandler, { retryAttempts: 4 })],
    });

    Validations.of(this.deadLetters).acknowledge({
      id: 'AwsSolutions::AwsSolutions-SQS3',
      reason: 'This is the dead-letter queue of the mail queue; the mail it names stays in the outbox (swept every minute) either way.',
    });
    if (this.identity && props.mailDomain) {
      const stack = Stack.of(this);
      this.identity.dkimRecords.forEach((r, i) => {
        new CfnOutput(stack, `MailDkimRecord${i + 1}`, {
          value: `${r.name} CNAME ${r.value}`,
          description: `DKIM record ${i + 1} of 3 for ${props.mailDomain}: publish it in DNS so SES verifies the domain`,
        });
      });
      new CfnOutput(stack, 'MailFrom', { value: `no-reply@${props.mailDomain}`, description: 'The address mail is sent from' });
      // What cmsctl tenant set-mail-domain needs (MAIL_DOMAIN, MAIL_CONFIGURATION_SET).
      new CfnOutput(stack, 'MailDomain', { value: props.mailDomain, description: 'The deployment mail domain (MAIL_DOMAIN for cmsctl)' });
      new CfnOutput(stack, 'MailConfigurationSet', {
        value: this.configurationSet.configurationSetName,
        description: 'The SES configuration set every mail is sent through (MAIL_CONFIGURATION_SET for cmsctl tenant set-mail-domain)',
      });
    }
    new CfnOutput(Stack.of(this), 'MailDeadLetterQueueUrl', {
      value: this.deadLetters.queueUrl,
      description: 'Mail queue messages that could not be handled (the mail itself stays in the outbox)',
    });
  }

  /** grantNudge lets a function send outbox keys to the mail queue and tells it the queue's address. */
  grantNudge(fn: lambda.Function, role: iam.IRole): void {
    fn.addEnvironment('MAIL_QUEUE_URL', this.queue.queueUrl);
    role.addToPrincipalPolicy(new iam.PolicyStatement({ sid: 'MailNudge', actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }));
  }
}

function noCredentialWrites(table: dynamodb.ITable, patterns: readonly string[]): iam.PolicyStatement {
  return new iam.PolicyStatement({
    sid: 'NoCredentialWrites',
    effect: iam.Effect.DENY,
    actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
    resources: [table.tableArn],
    conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [...patterns] } },
  });
}
