import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { CfnResource } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { makeDefaultStack, makeStack } from './helpers';
import { GUARDED_PARTITIONS } from '../lib/panel-stack';
import { parseRouteTable, repoRoot } from '../lib/routes';
import { EXPORT_OBJECT, importGroup, UPLOADS_PREFIX, WPIMPORT_PREFIX, WPIMPORT_QUEUE_ENV } from '../lib/wpimport';

type Res = { Type: string; Properties: Record<string, any>; [k: string]: any };

const IMPORT_DESCRIPTION = /^WordPress import of campuscms/;

/** objectSuffix is what an arnForObjects resource adds to the bucket's ARN ("/media/*"), or undefined for anything else. */
function objectSuffix(r: any, bucketId: string): string | undefined {
  const parts = r?.['Fn::Join']?.[1];
  if (!Array.isArray(parts) || parts.length !== 2) return undefined;
  if (JSON.stringify(parts[0]) !== JSON.stringify({ 'Fn::GetAtt': [bucketId, 'Arn'] })) return undefined;
  return typeof parts[1] === 'string' ? parts[1] : undefined;
}

describe('WordPress import (issue 34)', () => {
  const { stack, routes, t } = makeDefaultStack();
  const resources = (type: string) => t.findResources(type) as Record<string, Res>;
  const logicalId = (c: { node: { defaultChild?: unknown } }) => stack.resolve((c.node.defaultChild as CfnResource).logicalId) as string;
  const bucketId = logicalId(stack.media.bucket);
  const tableId = logicalId(stack.data.table);
  const functions = resources('AWS::Lambda::Function');
  const [fnId, fn] = Object.entries(functions).find(([, f]) => IMPORT_DESCRIPTION.test(f.Properties.Description ?? '')) ?? [];
  const policies = Object.values(resources('AWS::IAM::Policy'));
  const statementsOf = (roleId: string): any[] =>
    policies.filter((p) => p.Properties.Roles.some((r: any) => r.Ref === roleId)).flatMap((p) => p.Properties.PolicyDocument.Statement);
  const allowed = (st: any[]): string[] => st.filter((s) => s.Effect === 'Allow').flatMap((s) => [s.Action].flat());
  const queues = resources('AWS::SQS::Queue');
  const [queueId, queue] = Object.entries(queues).find(([, q]) => q.Properties.RedrivePolicy && JSON.stringify(q.Properties.RedrivePolicy).includes('WordPressImport')) ?? [];
  const starterGroup = importGroup(routes);
  const starterEntry = Object.entries(functions).find(([, f]) => (f.Properties.Description ?? '').startsWith(`campuscms ${starterGroup}:`));

  it('is started by the settings group, which serves /wordpress-imports', () => {
    assert.equal(starterGroup, 'settings');
    assert.ok(starterEntry, 'no settings function');
  });

  it('is one arm64 function: 15 min, 1024 MiB, a few at a time, JSON logs, no VPC, the API env plus its queue', () => {
    assert.ok(fn, 'no WordPress import function');
    const p = fn.Properties;
    assert.equal(p.Runtime, 'provided.al2023');
    assert.deepEqual(p.Architectures, ['arm64']);
    assert.equal(p.Handler, 'bootstrap');
    assert.equal(p.MemorySize, 1024);
    assert.equal(p.Timeout, 900);
    assert.equal(p.ReservedConcurrentExecutions, 4);
    assert.equal(p.VpcConfig, undefined, 'attachments are fetched from the internet');
    assert.equal(p.LoggingConfig.LogFormat, 'JSON');
    assert.ok(resources('AWS::Logs::LogGroup')[p.LoggingConfig.LogGroup.Ref].Properties.RetentionInDays > 0, 'log retention');
    const env = p.Environment.Variables;
    // No ORIGIN_SECRET (it serves no route), no MAIL_QUEUE_URL (the sweep sends what it writes).
    assert.deepEqual(Object.keys(env).sort(), ['LOG_LEVEL', 'MEDIA_BUCKET', 'OBJECT_URL_PREFIX', 'TABLE_NAME', WPIMPORT_QUEUE_ENV].sort());
    assert.deepEqual(env.TABLE_NAME, { Ref: tableId });
    assert.equal(env.OBJECT_URL_PREFIX, '/media/');
    assert.deepEqual(env[WPIMPORT_QUEUE_ENV], { Ref: queueId }, 'it requeues itself');
    assert.equal(fn.Metadata['aws:asset:property'], 'Code', 'sam local finds its code');
  });

  it('takes its jobs one at a time from an SSL-only, encrypted queue with a dead-letter queue after 3 receives', () => {
    assert.ok(queue, 'no import queue');
    assert.ok(queue.Properties.VisibilityTimeout > fn!.Properties.Timeout, `visibility ${queue.Properties.VisibilityTimeout} s`);
    assert.equal(queue.Properties.RedrivePolicy.maxReceiveCount, 3);
    const dlqId = queue.Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0];
    const dlq = queues[dlqId];
    assert.ok(dlq, 'the dead-letter queue is in the stack');
    assert.equal(dlq.Properties.RedrivePolicy, undefined);
    assert.ok(dlq.Properties.MessageRetentionPeriod >= 7 * 24 * 3600, 'kept long enough to look at');
    const queuePolicies = Object.values(resources('AWS::SQS::QueuePolicy'));
    for (const id of [queueId!, dlqId]) {
      assert.equal(queues[id].Properties.SqsManagedSseEnabled, true, `${id} encrypted`);
      const policy = queuePolicies.find((qp) => qp.Properties.Queues.some((q: any) => q.Ref === id));
      assert.ok(policy, `${id} has a policy`);
      assert.ok(
        policy.Properties.PolicyDocument.Statement.some((s: any) => s.Effect === 'Deny' && s.Condition?.Bool?.['aws:SecureTransport'] === 'false'),
        `${id} is SSL only`,
      );
    }
    const mappings = Object.values(resources('AWS::Lambda::EventSourceMapping')).filter((m) => m.Properties.FunctionName.Ref === fnId);
    assert.equal(mappings.length, 1);
    const m = mappings[0].Properties;
    assert.deepEqual(m.EventSourceArn, { 'Fn::GetAtt': [queueId, 'Arn'] });
    assert.equal(m.BatchSize, 1);
    assert.deepEqual(m.FunctionResponseTypes, ['ReportBatchItemFailures']);
    // Never more pollers than the function may run: a throttled message would count as a receive.
    assert.equal(m.ScalingConfig.MaximumConcurrency, fn!.Properties.ReservedConcurrentExecutions);
    assert.ok(t.findOutputs('WordPressImportDeadLetterQueueUrl'), 'the DLQ URL is an output');
  });

  it('is invoked by its queue only', () => {
    const invokers = Object.values(resources('AWS::Lambda::Permission')).filter((p) => JSON.stringify(p.Properties.FunctionName).includes(fnId!));
    assert.deepEqual(invokers, []);
  });

  it('the settings function knows the queue and may only send to it, and write and read only exports', () => {
    const [, settings] = starterEntry!;
    assert.deepEqual(settings.Properties.Environment.Variables[WPIMPORT_QUEUE_ENV], { Ref: queueId });
    const st = statementsOf(settings.Properties.Role['Fn::GetAtt'][0]);
    const sends = st.filter((s) => s.Effect === 'Allow' && JSON.stringify(s.Resource).includes(queueId!));
    assert.equal(sends.length, 1);
    assert.deepEqual([sends[0].Action].flat(), ['sqs:SendMessage']);
    assert.deepEqual(sends[0].Resource, { 'Fn::GetAtt': [queueId, 'Arn'] });
    const s3 = st.filter((s) => s.Effect === 'Allow' && [s.Action].flat().some((a: string) => a.startsWith('s3:')));
    assert.equal(s3.length, 1);
    assert.deepEqual([s3[0].Action].flat().sort(), ['s3:GetObject', 's3:PutObject']);
    assert.deepEqual([s3[0].Resource].flat().map((r: any) => objectSuffix(r, bucketId)), [`/${UPLOADS_PREFIX}*/${EXPORT_OBJECT}`]);
  });

  it('no other API group may start an import', () => {
    for (const [id, f] of Object.entries(functions)) {
      if (id === starterEntry![0] || id === fnId) continue;
      assert.equal(f.Properties.Environment?.Variables?.[WPIMPORT_QUEUE_ENV], undefined, `${f.Properties.Description} knows the import queue`);
      const st = statementsOf(f.Properties.Role['Fn::GetAtt'][0]);
      assert.ok(!JSON.stringify(st).includes(queueId!), `${f.Properties.Description} may use the import queue`);
    }
  });

  describe("the import function's role", () => {
    const roleId = fn?.Properties.Role['Fn::GetAtt'][0];
    const st = roleId ? statementsOf(roleId) : [];
    const actions = allowed(st);

    it('reads the export and writes media as an upload does: Get/Put/Delete under media/ and uploads/ only', () => {
      const s3 = st.filter((s) => [s.Action].flat().some((a: string) => a.startsWith('s3:')));
      assert.equal(s3.length, 1);
      assert.equal(s3[0].Effect, 'Allow');
      assert.deepEqual([s3[0].Action].flat().sort(), ['s3:DeleteObject', 's3:GetObject', 's3:PutObject']);
      assert.deepEqual([s3[0].Resource].flat().map((r: any) => objectSuffix(r, bucketId)).sort(), ['/media/*', `/${UPLOADS_PREFIX}*`]);
      assert.ok(!actions.some((a) => a === 's3:*' || a === '*'), 'no s3:*');
      assert.ok(!actions.includes('s3:ListBucket'), 'no ListBucket');
      assert.ok(!JSON.stringify(s3).includes('/trash/'), 'no trash');
    });

    it("has the API groups' table grant: no Scan, no batch writes, the table and its three indexes", () => {
      const table = st.find((s) => s.Sid === 'Table');
      assert.ok(table, 'no table grant');
      assert.deepEqual([table.Action].flat().sort(), [
        'dynamodb:BatchGetItem',
        'dynamodb:ConditionCheckItem',
        'dynamodb:DeleteItem',
        'dynamodb:DescribeTable',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
      ]);
      const res = JSON.stringify(table.Resource);
      for (const n of ['GSI1', 'GSI2', 'GSI3']) assert.ok(res.includes(`/index/${n}`), n);
      assert.ok(!res.includes('/index/*'));
      assert.deepEqual([table.Resource].flat()[0], { 'Fn::GetAtt': [tableId, 'Arn'] });
      assert.ok(!actions.includes('dynamodb:Scan') && !actions.includes('dynamodb:BatchWriteItem'));
    });

    it('may write no credential partition', () => {
      const deny = st.find((s) => s.Effect === 'Deny' && s.Sid === 'NoCredentialWrites');
      assert.ok(deny, 'no credential-write deny');
      assert.deepEqual([deny.Action].flat().sort(), ['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
      assert.deepEqual(deny.Condition['ForAnyValue:StringLike']['dynamodb:LeadingKeys'].sort(), Object.values(GUARDED_PARTITIONS).sort());
      assert.deepEqual(deny.Resource, { 'Fn::GetAtt': [tableId, 'Arn'] });
    });

    it('requeues to its own queue and consumes it; nothing else: no SES, KMS, wildcard action or * resource', () => {
      const sqsActions = actions.filter((a) => a.startsWith('sqs:'));
      assert.ok(sqsActions.includes('sqs:SendMessage') && sqsActions.includes('sqs:ReceiveMessage') && sqsActions.includes('sqs:DeleteMessage'));
      for (const s of st.filter((x) => [x.Action].flat().some((a: string) => a.startsWith('sqs:')))) {
        assert.deepEqual(s.Resource, { 'Fn::GetAtt': [queueId, 'Arn'] }, 'only its own queue');
      }
      const services = new Set(actions.map((a) => a.split(':')[0]));
      assert.deepEqual([...services].sort(), ['dynamodb', 'logs', 's3', 'sqs']);
      assert.ok(actions.every((a) => !a.endsWith(':*') && a !== '*'), `wildcard action: ${actions}`);
      for (const s of st) for (const r of [s.Resource].flat()) assert.notEqual(r, '*');
    });
  });

  it('names what the Go code names: the route prefix, the queue variable, the export object', () => {
    const src = (f: string) => fs.readFileSync(path.join(repoRoot(), 'shared', 'wpimport', f), 'utf8');
    assert.match(src('api.go'), new RegExp(`const Prefix = "${WPIMPORT_PREFIX}"`));
    assert.match(src('api.go'), new RegExp(`UploadKey\\([^)]*"${EXPORT_OBJECT.replace('.', '\\.')}"\\)`));
    assert.match(src('starter.go'), new RegExp(`const QueueEnv = "${WPIMPORT_QUEUE_ENV}"`));
    assert.match(fs.readFileSync(path.join(repoRoot(), 'shared', 'mediaref', 'keys.go'), 'utf8'), new RegExp(`uploadRoot\\s*=\\s*"${UPLOADS_PREFIX}"`));
    assert.ok(fs.existsSync(path.join(repoRoot(), 'functions', 'wpimport', 'main.go')));
    assert.match(fs.readFileSync(path.join(repoRoot(), 'infra', 'scripts', 'build-functions.sh'), 'utf8'), /"wpimport"/, 'build-functions.sh builds it');
  });
});

describe('WordPress import (no group serves /wordpress-imports)', () => {
  const routes = parseRouteTable({ basePath: '/api/v1/tenant', groups: { auth: ['auth'], settings: ['notices'] } });
  const { stack } = makeStack({}, { routes });
  const t = Template.fromStack(stack);

  it('has no import function, no import queue, and no function knows one', () => {
    assert.equal(stack.wordpressImport, undefined);
    const functions = Object.values(t.findResources('AWS::Lambda::Function') as Record<string, Res>);
    assert.ok(!functions.some((f) => IMPORT_DESCRIPTION.test(f.Properties.Description ?? '')));
    for (const f of functions) assert.equal(f.Properties.Environment?.Variables?.[WPIMPORT_QUEUE_ENV], undefined);
    assert.ok(!JSON.stringify(t.toJSON()).includes('WordPressImport'));
  });
});
