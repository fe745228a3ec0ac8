import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { CfnResource } from 'aws-cdk-lib';
import { makeDefaultStack } from './helpers';

type Res = { Type: string; Properties: Record<string, any>; [k: string]: any };

describe('image variants function (issue 23)', () => {
  const { stack, t } = makeDefaultStack();
  const resources = (type: string) => t.findResources(type) as Record<string, Res>;
  const logicalId = (c: { node: { defaultChild?: unknown } }) => stack.resolve((c.node.defaultChild as CfnResource).logicalId) as string;
  const bucketId = logicalId(stack.media.bucket);
  const tableId = logicalId(stack.data.table);
  const functions = resources('AWS::Lambda::Function');
  const [fnId, fn] = Object.entries(functions).find(([, f]) => /^Image variants of campuscms/.test(f.Properties.Description ?? '')) ?? [];

  it('is one arm64 function with 1024 MiB, 60 s, JSON logs in its own log group', () => {
    assert.ok(fn, 'no imaging function');
    const p = fn.Properties;
    assert.equal(p.Runtime, 'provided.al2023');
    assert.deepEqual(p.Architectures, ['arm64']);
    assert.equal(p.Handler, 'bootstrap');
    assert.equal(p.MemorySize, 1024);
    assert.equal(p.Timeout, 60);
    assert.equal(p.LoggingConfig.LogFormat, 'JSON');
    const lg = resources('AWS::Logs::LogGroup')[p.LoggingConfig.LogGroup.Ref];
    assert.ok(lg.Properties.RetentionInDays > 0, 'log retention');
    // No ORIGIN_SECRET: it serves no route.
    assert.deepEqual(Object.keys(p.Environment.Variables).sort(), ['LOG_LEVEL', 'MEDIA_BUCKET', 'TABLE_NAME']);
    assert.deepEqual(p.Environment.Variables.TABLE_NAME, { Ref: tableId });
    assert.equal(fn.Metadata['aws:asset:property'], 'Code', 'sam local finds its code');
  });

  it("keeps Lambda's two async retries and a bounded event age", () => {
    const configs = Object.values(resources('AWS::Lambda::EventInvokeConfig')).filter((c) => c.Properties.FunctionName.Ref === fnId);
    assert.equal(configs.length, 1);
    assert.equal(configs[0].Properties.MaximumRetryAttempts, 2);
    const age = configs[0].Properties.MaximumEventAgeInSeconds;
    assert.ok(age >= 3600 && age <= 21600, `max event age ${age}`);
  });

  it("is invoked by the media bucket's object-created events under media/ only", () => {
    const notes = Object.values(resources('Custom::S3BucketNotifications'));
    assert.equal(notes.length, 1);
    assert.deepEqual(notes[0].Properties.BucketName, { Ref: bucketId });
    const cfg = notes[0].Properties.NotificationConfiguration;
    assert.deepEqual(Object.keys(cfg), ['LambdaFunctionConfigurations']);
    assert.deepEqual(cfg.LambdaFunctionConfigurations, [
      {
        Events: ['s3:ObjectCreated:*'],
        Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'media/' }] } },
        LambdaFunctionArn: { 'Fn::GetAtt': [fnId, 'Arn'] },
      },
    ]);
    t.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 's3.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] },
      SourceArn: { 'Fn::GetAtt': [bucketId, 'Arn'] },
      SourceAccount: stack.account,
    });
  });

  it('may only read, write and delete media/* objects and get and update table items', () => {
    const roleId = fn!.Properties.Role['Fn::GetAtt'][0];
    const stmts = Object.values(resources('AWS::IAM::Policy'))
      .filter((p) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement);
    const allows = stmts.filter((s: any) => s.Effect === 'Allow');
    const logsStmt = allows.find((s: any) => [s.Action].flat().every((a: string) => a.startsWith('logs:')));
    assert.deepEqual([logsStmt.Action].flat().sort(), ['logs:CreateLogStream', 'logs:PutLogEvents']);
    assert.deepEqual(logsStmt.Resource, { 'Fn::GetAtt': [fn!.Properties.LoggingConfig.LogGroup.Ref, 'Arn'] }, 'its own log group only');
    const rest = allows.filter((s: any) => s !== logsStmt);
    const s3 = rest.filter((s: any) => [s.Action].flat().some((a: string) => a.startsWith('s3:')));
    assert.equal(s3.length, 1);
    assert.deepEqual([s3[0].Action].flat().sort(), ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'], 'no ListBucket, no wildcard');
    assert.deepEqual(s3[0].Resource, { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/media/*']] });
    const ddb = rest.filter((s: any) => [s.Action].flat().some((a: string) => a.startsWith('dynamodb:')));
    assert.equal(ddb.length, 1);
    assert.deepEqual([ddb[0].Action].flat().sort(), ['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    assert.deepEqual(ddb[0].Resource, { 'Fn::GetAtt': [tableId, 'Arn'] }, 'the table, no index');
    assert.equal(rest.length, 2, `nothing else: ${JSON.stringify(rest)}`);
    for (const s of stmts) for (const r of [s.Resource].flat()) assert.notEqual(r, '*', 'a * resource');
    // Like the API groups: no writes to the credential partitions.
    const deny = stmts.find((s: any) => s.Effect === 'Deny' && s.Sid === 'NoCredentialWrites');
    assert.ok(deny, 'credential-write deny');
    assert.deepEqual(deny.Condition['ForAnyValue:StringLike']['dynamodb:LeadingKeys'].sort(), ['T#*#CHALLENGE', 'T#*#LOGIN#*', 'T#*#SESSION', 'T#*#USERNAME', 'T#*#users']);
  });

  it("gives CDK's notifications handler PutBucketNotification on the media bucket only", () => {
    const handlers = Object.entries(functions).filter(([, f]) => /Custom::S3BucketNotifications/.test(f.Properties.Description ?? ''));
    assert.equal(handlers.length, 1);
    const roleId = handlers[0][1].Properties.Role['Fn::GetAtt'][0];
    const stmts = Object.values(resources('AWS::IAM::Policy'))
      .filter((p) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement);
    assert.deepEqual(stmts, [{ Action: 's3:PutBucketNotification', Effect: 'Allow', Resource: { 'Fn::GetAtt': [bucketId, 'Arn'] } }]);
  });

  it('gives the design group (media uploads, decoded whole at confirmation) 512 MiB', () => {
    const design = Object.values(functions).find((f) => /^campuscms design:/.test(f.Properties.Description ?? ''));
    assert.ok(design, 'no design function');
    assert.equal(design.Properties.MemorySize, 512);
  });
});
