import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { makeDefaultStack } from './helpers';

type Res = { Type: string; Properties: Record<string, any> };

describe('scheduled publishing job', () => {
  const { t } = makeDefaultStack();
  const functions = t.findResources('AWS::Lambda::Function') as Record<string, Res>;
  const [jobId, job] = Object.entries(functions).find(([, f]) => /scheduled publishing job/i.test(f.Properties.Description ?? '')) ?? [];

  it('is one arm64 function with the table name, under a minute', () => {
    assert.ok(job, 'no schedule function');
    assert.deepEqual(job.Properties.Architectures, ['arm64']);
    assert.equal(job.Properties.Runtime, 'provided.al2023');
    assert.ok(job.Properties.Timeout < 60);
    assert.ok(job.Properties.Environment.Variables.TABLE_NAME);
  });

  it('runs once a minute from an EventBridge rule', () => {
    // The job's own rule (the mail sender has a one-minute sweep of its own, infra/test/mail.test.ts).
    const rules = Object.values(t.findResources('AWS::Events::Rule') as Record<string, Res>).filter(
      (r) => r.Properties.Targets?.[0]?.Arn?.['Fn::GetAtt']?.[0] === jobId,
    );
    assert.equal(rules.length, 1);
    assert.equal(rules[0].Properties.ScheduleExpression, 'rate(1 minute)');
    t.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [jobId, 'Arn'] },
    });
  });

  it('never Scans (nothing in the stack does), and writes only the table', () => {
    const policies = Object.values(t.findResources('AWS::IAM::Policy') as Record<string, Res>);
    const roleOfJob = job!.Properties.Role['Fn::GetAtt'][0];
    for (const p of policies) {
      const actions = p.Properties.PolicyDocument.Statement.flatMap((s: any) => [s.Action].flat());
      const mine = p.Properties.Roles.some((r: any) => r.Ref === roleOfJob);
      assert.ok(!actions.includes('dynamodb:Scan'), `Scan in ${JSON.stringify(p.Properties.Roles)}`);
      if (mine) {
        assert.ok(!actions.some((a: string) => a.startsWith('s3:')), 'the job touches no media');
        // Its writes' accessibility findings and the link check read in batches (shared/a11ycheck).
        assert.ok(actions.includes('dynamodb:BatchGetItem'), 'the job reads media records and pages in batches');
      }
    }
  });
});
