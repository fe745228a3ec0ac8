import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { Template } from 'aws-cdk-lib/assertions';
import { makeDefaultStack, makeStack } from './helpers';
import { SES_EVENT_TYPES } from '../lib/mail';

type Res = { Type: string; Properties: Record<string, any> };

function byDescription(t: Template, re: RegExp): [string, Res] {
  const functions = t.findResources('AWS::Lambda::Function') as Record<string, Res>;
  const found = Object.entries(functions).find(([, f]) => re.test(f.Properties.Description ?? ''));
  assert.ok(found, `no function described ${re}`);
  return found;
}

/** statementsOf lists the IAM statements attached to a role (by logical id). */
function statementsOf(t: Template, roleId: string): any[] {
  const policies = Object.values(t.findResources('AWS::IAM::Policy') as Record<string, Res>);
  return policies
    .filter((p) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
}

const actionsOf = (statements: any[]): string[] => statements.filter((s) => s.Effect === 'Allow').flatMap((s) => [s.Action].flat());

describe('mail (with a mail domain)', () => {
  const { stack } = makeStack({ mailDomain: 'mail.example.edu' });
  const t = Template.fromStack(stack);
  const [senderId, sender] = byDescription(t, /mail sender/i);
  const [eventsId, handler] = byDescription(t, /mail suppression/i);
  const senderRole = sender.Properties.Role['Fn::GetAtt'][0];
  const eventsRole = handler.Properties.Role['Fn::GetAtt'][0];

  it('verifies the mail domain with Easy DKIM and prints its three records', () => {
    t.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'mail.example.edu' });
    const outputs = t.findOutputs('*');
    for (const i of [1, 2, 3]) {
      assert.ok(outputs[`MailDkimRecord${i}`], `no DKIM output ${i}`);
      assert.match(JSON.stringify(outputs[`MailDkimRecord${i}`].Value), /DkimDNSTokenName1|DkimDNSTokenName2|DkimDNSTokenName3/);
    }
    assert.equal(outputs.MailFrom.Value, 'no-reply@mail.example.edu');
  });

  it('sends through SES with the configuration set, from the deployment domain', () => {
    const env = sender.Properties.Environment.Variables;
    assert.equal(env.MAIL_TRANSPORT, 'ses');
    assert.equal(env.MAIL_DOMAIN, 'mail.example.edu');
    assert.ok(env.MAIL_CONFIGURATION_SET?.Ref, 'MAIL_CONFIGURATION_SET is the configuration set');
    assert.ok(env.TABLE_NAME);
    assert.deepEqual(sender.Properties.Architectures, ['arm64']);
    // The identity uses the configuration set by default too.
    const identity = Object.values(t.findResources('AWS::SES::EmailIdentity') as Record<string, Res>)[0];
    assert.deepEqual(identity.Properties.ConfigurationSetAttributes.ConfigurationSetName, env.MAIL_CONFIGURATION_SET);
  });

  it("lets only the sender call ses:SendEmail, from no-reply@ of this account's identities, through this configuration set only", () => {
    const send = statementsOf(t, senderRole).filter((s) => [s.Action].flat().includes('ses:SendEmail'));
    assert.equal(send.length, 1);
    assert.deepEqual([send[0].Action].flat(), ['ses:SendEmail']);
    assert.equal(send[0].Resource.length, 2);
    const resources = send[0].Resource.map((r: any) => JSON.stringify(r));
    const identities = resources.find((r: string) => r.includes(':identity/'));
    const configSet = resources.find((r: string) => r.includes(':configuration-set/'));
    // Every identity of this account and region (tenants verify their own domains at run time) ...
    assert.equal(
      identities,
      JSON.stringify({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':identity/*']] }),
    );
    // ... but only through the deployment's configuration set (no other is granted: a send naming
    // another is refused), the one the identities have as their default.
    assert.match(configSet, /configuration-set\//);
    assert.ok(!configSet.includes('*'), 'one configuration set');
    const setRef = sender.Properties.Environment.Variables.MAIL_CONFIGURATION_SET;
    assert.ok(configSet.includes(JSON.stringify(setRef)), 'the configuration set the sender sends through');
    assert.deepEqual(send[0].Condition, { StringLike: { 'ses:FromAddress': 'no-reply@*' } });
    // cmsctl tenant set-mail-domain reads these two outputs.
    const outputs = t.findOutputs('*');
    assert.equal(outputs.MailDomain.Value, 'mail.example.edu');
    assert.deepEqual(outputs.MailConfigurationSet.Value, setRef);
    const policies = Object.values(t.findResources('AWS::IAM::Policy') as Record<string, Res>);
    for (const p of policies) {
      const actions = p.Properties.PolicyDocument.Statement.flatMap((s: any) => [s.Action].flat());
      if (actions.some((a: string) => a.startsWith('ses:'))) {
        assert.deepEqual(p.Properties.Roles, [{ Ref: senderRole }], 'another role may call SES');
      }
    }
  });

  it('the sender reads the due index and the table only, and never writes credentials', () => {
    const st = statementsOf(t, senderRole);
    const actions = actionsOf(st);
    for (const a of ['dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem']) assert.ok(actions.includes(a), a);
    assert.ok(!actions.includes('dynamodb:Scan'));
    const table = st.find((s) => s.Sid === 'Outbox');
    assert.match(JSON.stringify(table.Resource), /index\/GSI3/);
    assert.ok(st.some((s) => s.Effect === 'Deny' && s.Sid === 'NoCredentialWrites'));
  });

  it('feeds the sender from an encrypted queue with a dead-letter queue and a one-minute sweep', () => {
    // The mail construct's queues (the WordPress import has its own: wpimport.test.ts).
    const queues = Object.fromEntries(Object.entries(t.findResources('AWS::SQS::Queue') as Record<string, Res>).filter(([id]) => id.startsWith('Mail')));
    assert.equal(Object.keys(queues).length, 2);
    const [mainId, main] = Object.entries(queues).find(([, q]) => q.Properties.RedrivePolicy)!;
    assert.equal(main.Properties.RedrivePolicy.maxReceiveCount, 5);
    assert.ok(main.Properties.VisibilityTimeout >= sender.Properties.Timeout * 6);
    for (const q of Object.values(queues)) assert.equal(q.Properties.SqsManagedSseEnabled, true);
    t.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [mainId, 'Arn'] },
      FunctionName: { Ref: senderId },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const rules = Object.values(t.findResources('AWS::Events::Rule') as Record<string, Res>);
    const sweep = rules.filter((r) => r.Properties.ScheduleExpression && r.Properties.Targets[0].Arn['Fn::GetAtt'][0] === senderId);
    assert.equal(sweep.length, 1);
    assert.equal(sweep[0].Properties.ScheduleExpression, 'rate(1 minute)');
  });

  it('every API group may nudge the queue (SendMessage only) and knows its address', () => {
    const groups = Object.values(t.findResources('AWS::Lambda::Function') as Record<string, Res>).filter((f) =>
      /^campuscms /.test(f.Properties.Description ?? ''),
    );
    assert.ok(groups.length > 5);
    for (const g of groups) {
      assert.ok(g.Properties.Environment.Variables.MAIL_QUEUE_URL, `${g.Properties.Description}: no MAIL_QUEUE_URL`);
      const st = statementsOf(t, g.Properties.Role['Fn::GetAtt'][0]);
      const nudge = st.find((s) => s.Sid === 'MailNudge');
      assert.ok(nudge, `${g.Properties.Description}: no MailNudge`);
      assert.deepEqual([nudge.Action].flat(), ['sqs:SendMessage']);
      assert.ok(!actionsOf(st).some((a) => a.startsWith('ses:')));
    }
  });

  it('publishes bounces and complaints to EventBridge, whose rule calls the suppression handler', () => {
    t.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      EventDestination: { Enabled: true, MatchingEventTypes: ['bounce', 'complaint'], EventBridgeDestination: {} },
    });
    const rules = Object.values(t.findResources('AWS::Events::Rule') as Record<string, Res>);
    const bounces = rules.find((r) => r.Properties.EventPattern?.source?.[0] === 'aws.ses');
    assert.ok(bounces);
    assert.deepEqual(bounces.Properties.EventPattern['detail-type'], SES_EVENT_TYPES);
    assert.ok(bounces.Properties.EventPattern.detail.mail.tags['ses:configuration-set'], 'only this configuration set');
    assert.equal(bounces.Properties.Targets[0].Arn['Fn::GetAtt'][0], eventsId);
    // The handler puts suppression items (and its record of each handled event) and adds to
    // newsletters' counts: updates only in newsletters' partitions.
    const statements = statementsOf(t, eventsRole);
    assert.deepEqual(actionsOf(statements).filter((a) => a.startsWith('dynamodb:')).sort(), ['dynamodb:PutItem', 'dynamodb:UpdateItem']);
    const counts = statements.find((s) => s.Effect === 'Allow' && [s.Action].flat().includes('dynamodb:UpdateItem'));
    assert.deepEqual([counts.Action].flat(), ['dynamodb:UpdateItem']);
    assert.deepEqual(counts.Condition, { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['T#*#newsletters'] } });
  });
});

describe('mail (no mail domain)', () => {
  const { t } = makeDefaultStack();
  const [, sender] = byDescription(t, /mail sender/i);

  it('sends nothing: no identity, no SES grant, every mail recorded as failed', () => {
    assert.equal(Object.keys(t.findResources('AWS::SES::EmailIdentity')).length, 0);
    assert.equal(sender.Properties.Environment.Variables.MAIL_TRANSPORT, 'off');
    const policies = Object.values(t.findResources('AWS::IAM::Policy') as Record<string, Res>);
    const actions = policies.flatMap((p) => p.Properties.PolicyDocument.Statement.flatMap((s: any) => [s.Action].flat()));
    assert.ok(!actions.some((a: string) => a.startsWith('ses:')));
  });
});
