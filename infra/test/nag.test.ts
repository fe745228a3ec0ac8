import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { IConstruct } from 'constructs';
import { makeStack } from './helpers';

function acknowledgments(root: IConstruct): Array<{ path: string; id: string; reason: string }> {
  const out: Array<{ path: string; id: string; reason: string }> = [];
  for (const c of root.node.findAll()) {
    for (const m of c.node.metadata) {
      if (m.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      // The metadata is { "<plugin>::<rule id>": "<reason>" }.
      for (const [id, reason] of Object.entries(m.data as Record<string, unknown>)) out.push({ path: c.node.path, id, reason: String(reason ?? '') });
    }
  }
  return out;
}

for (const variant of ['dev', 'production with a custom domain', 'env-agnostic'] as const) {
  describe(`cdk-nag AwsSolutions (${variant})`, () => {
    const { app } = makeStack(
      variant === 'production with a custom domain'
        ? {
            production: true,
            customDomain: { domainName: 'panel.example.edu', certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc' },
            mailDomain: 'mail.example.edu',
          }
        : {},
      { env: variant !== 'env-agnostic' },
    );
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

    it('synthesizes with zero unacknowledged errors', () => {
      // In-memory synth throws ValidationFailed with the report when an error is not acknowledged.
      const asm = app.synth();
      const report = JSON.parse(fs.readFileSync(path.join(asm.directory, 'validation-report.json'), 'utf8'));
      const text = JSON.stringify(report);
      assert.ok(text.includes('AwsSolutions'), 'cdk-nag ran');
    });

    it('gives every acknowledgment a written reason', () => {
      const acks = acknowledgments(app);
      assert.ok(acks.length > 0);
      for (const a of acks) {
        assert.ok(typeof a.reason === 'string' && a.reason.trim().length >= 40, `${a.path} ${a.id}: reason too short: ${a.reason}`);
      }
    });
  });
}
