import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { HttpError, errorFromBody } from '../../api/http';
import type { Finding } from '../../lib/a11y';
import { FindingsCount, FindingsList } from './Findings';
import { findingsOfError } from './useAccessibilityCheck';

const findings: Finding[] = [
  { rule: 'heading-order', severity: 'error', message: 'Use a level 3 heading after a level 2.', field: 'content', context: 'Our history' },
  { rule: 'link-text', severity: 'warning', message: 'Say where the link goes.', field: 'pageSections[0].config[1].description', section: 0 },
];

describe('FindingsList', () => {
  it('says each severity in words, the rule, how to fix it and the text around it', () => {
    const html = renderToStaticMarkup(createElement(FindingsList, { findings, id: 'f1' }));
    expect(html).toContain('id="f1"');
    expect(html).toContain('Accessibility error');
    expect(html).toContain('Accessibility warning');
    expect(html).toContain('Headings that skip a level');
    expect(html).toContain('Use a level 3 heading after a level 2.');
    expect(html).toContain('<q class="a11y-finding__context">Our history</q>');
  });
  it('says where in a section a finding is', () => {
    const html = renderToStaticMarkup(createElement(FindingsList, { findings: [findings[1]], inSection: true }));
    expect(html).toContain('(Item 2: description)');
  });
  it('renders nothing without findings', () => {
    expect(renderToStaticMarkup(createElement(FindingsList, { findings: [] }))).toBe('');
  });
});

describe('FindingsCount', () => {
  it('is a live region with the count', () => {
    const html = renderToStaticMarkup(createElement(FindingsCount, { findings }));
    expect(html).toContain('role="status"');
    expect(html).toContain('1 accessibility error, 1 warning');
  });
  it('does not announce twice when quiet', () => {
    expect(renderToStaticMarkup(createElement(FindingsCount, { findings, quiet: true }))).not.toContain('role=');
  });
});

describe('findingsOfError', () => {
  it('reads a blocked save\u2019s findings from its 422', () => {
    const err = errorFromBody(422, JSON.stringify({ message: 'This page has accessibility errors. Fix them or turn off blocking in Site settings.', findings }));
    expect(err.message).toMatch(/^This page has accessibility errors/);
    expect(findingsOfError(err)?.map((x) => x.rule)).toEqual(['heading-order', 'link-text']);
  });
  it('is null for other failures', () => {
    expect(findingsOfError(errorFromBody(422, JSON.stringify({ message: 'bad', errors: { title: 'x' } })))).toBeNull();
    expect(findingsOfError(new HttpError(409, 'stale'))).toBeNull();
    expect(findingsOfError(new Error('x'))).toBeNull();
  });
});
