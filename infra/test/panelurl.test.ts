import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { Template } from 'aws-cdk-lib/assertions';
import { makeStack } from './helpers';

/** panelUrls: the PANEL_URL of every function that has one, by description. */
function panelUrls(t: Template): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  for (const fn of Object.values(t.findResources('AWS::Lambda::Function')) as Array<{ Properties: Record<string, any> }>) {
    const desc: string = fn.Properties.Description ?? '';
    if (/^campuscms [a-z0-9-]+:/.test(desc) || /scheduled publishing/i.test(desc)) out.set(desc, fn.Properties.Environment?.Variables?.PANEL_URL);
  }
  return out;
}

describe('the panel address in mail links (PANEL_URL)', () => {
  it('is the panelUrl given, without a trailing slash, on every API group and the schedule job', () => {
    const urls = panelUrls(Template.fromStack(makeStack({ panelUrl: 'https://panel.example.edu/' }).stack));
    assert.ok(urls.size > 10, `functions found: ${urls.size}`);
    for (const [fn, url] of urls) assert.equal(url, 'https://panel.example.edu', fn);
  });

  it('defaults to the custom domain', () => {
    const { stack } = makeStack({ customDomain: { domainName: 'cms.example.org', certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc' } });
    for (const [fn, url] of panelUrls(Template.fromStack(stack))) assert.equal(url, 'https://cms.example.org', fn);
  });

  it('is left unset without either (mail then carries no panel link)', () => {
    for (const [fn, url] of panelUrls(Template.fromStack(makeStack().stack))) assert.equal(url, undefined, fn);
  });
});
