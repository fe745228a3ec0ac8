import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureClient } from './client';
import { HttpError } from './http';
import { getPreview, previewDraft, sendNewsletter, sendTest } from './newsletters';

vi.mock('./session', () => ({ getToken: () => 'tok' }));

type Call = { url: string; method: string; headers: Record<string, string>; body: unknown };

function fake(status: number, body: unknown) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({
        url,
        method: init.method ?? 'GET',
        headers: init.headers as Record<string, string>,
        body: init.body === undefined ? undefined : JSON.parse(String(init.body)),
      });
      return new Response(JSON.stringify(body), { status });
    }),
  );
  return calls;
}

const PREVIEW = { subject: 'News', fromName: 'Riverside', html: '<!doctype html><p>Hi</p>', text: 'Hi', unsubscribeUrl: 'https://x.example.org/newsletter/unsubscribe?token=preview' };

describe('newsletters API', () => {
  beforeEach(() => configureClient({ apiBase: '/api/v1/tenant', tenantId: 'riverside' }));
  afterEach(() => vi.unstubAllGlobals());

  it('previews a saved newsletter by GET, its id escaped', async () => {
    const calls = fake(200, { result: PREVIEW });
    const res = await getPreview('01A/B');
    expect(res.result.html).toBe(PREVIEW.html);
    expect(calls[0]).toMatchObject({ url: '/api/v1/tenant/newsletters/01A%2FB/preview', method: 'GET' });
    expect(calls[0].headers['X-Tenant-Id']).toBe('riverside');
  });

  it('previews unsaved input by POST, sending only what it is given', async () => {
    const calls = fake(200, { result: PREVIEW });
    await previewDraft({ subject: 'News', content: '<p>Hi</p>' });
    expect(calls[0]).toMatchObject({ url: '/api/v1/tenant/newsletters/preview', method: 'POST', body: { subject: 'News', content: '<p>Hi</p>' } });
  });

  it('throws the server’s field errors for a draft it refuses', async () => {
    fake(400, { message: 'Subject is required!', errors: { subject: 'Subject is required!' } });
    const err = await previewDraft({ subject: '', content: '<p>x</p>' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(400);
    expect((err as HttpError).message).toBe('Subject is required!');
  });

  it('sends a test and the newsletter by POST', async () => {
    const calls = fake(202, { result: {}, message: 'ok' });
    await sendTest('N1');
    await sendNewsletter('N1');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /api/v1/tenant/newsletters/N1/test', 'POST /api/v1/tenant/newsletters/N1/send']);
  });
});
