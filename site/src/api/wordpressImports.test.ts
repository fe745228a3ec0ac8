import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureClient } from './client';
import { HttpError } from './http';
import {
  MAX_EXPORT_BYTES,
  MSG_EXPORT_TOO_LARGE,
  UploadError,
  checkExportFile,
  checkImport,
  createImport,
  exportForm,
  getImport,
  listImports,
  startImport,
  uploadErrorMessage,
  uploadExport,
  type Xhr,
} from './wordpressImports';

vi.mock('./session', () => ({ getToken: () => 'tok' }));

type Call = { url: string; method: string; headers: Record<string, string>; body: unknown };

/** fake answers every fetch with status and body, and records what was asked. */
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

const JOB = {
  id: '01JOB',
  fileName: 'site.xml',
  size: 1200,
  state: 'checking',
  dryRun: true,
  progress: { phase: 'media', done: 1, total: 9 },
  report: [],
  by: 'admin',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:01Z',
};

beforeEach(() => {
  configureClient({ apiBase: '/api/v1/tenant', tenantId: 'demo' });
});
afterEach(() => vi.unstubAllGlobals());

describe('the import calls', () => {
  it('creates a job for a file by its name and size, with the tenant and the token', async () => {
    const calls = fake(201, { result: { ...JOB, state: 'uploading', upload: { url: 'http://s3/bucket', fields: { key: 'k' } } } });
    const job = await createImport({ name: 'site.xml', size: 1200 });
    expect(calls).toEqual([
      {
        url: '/api/v1/tenant/wordpress-imports',
        method: 'POST',
        headers: expect.objectContaining({ 'X-Tenant-Id': 'demo', Authorization: 'Bearer tok' }),
        body: { name: 'site.xml', size: 1200 },
      },
    ]);
    expect(job.upload).toEqual({ url: 'http://s3/bucket', fields: { key: 'k' } });
    expect(job.state).toBe('uploading');
  });

  it('checks, imports, reads and lists jobs at their paths', async () => {
    const calls = fake(202, { result: JOB });
    expect(await checkImport('01JOB')).toEqual(JOB);
    expect(await startImport('01JOB')).toEqual(JOB);
    expect(await getImport('01 JOB')).toEqual(JOB);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST /api/v1/tenant/wordpress-imports/01JOB/check',
      'POST /api/v1/tenant/wordpress-imports/01JOB/import',
      'GET /api/v1/tenant/wordpress-imports/01%20JOB',
    ]);
    fake(200, { result: [JOB] });
    expect(await listImports()).toEqual([JOB]);
    fake(200, {});
    expect(await listImports()).toEqual([]);
  });

  it("keeps the server's message of a refusal", async () => {
    fake(400, { message: 'This file is not a WordPress export. In WordPress, use Tools → Export → All content, and upload the .xml file it downloads.' });
    const err = await checkImport('01JOB').catch((e) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/^This file is not a WordPress export\./);
  });
});

describe('checkExportFile', () => {
  it('refuses an empty file and one over 100 MB, takes one of 100 MB', () => {
    expect(checkExportFile({ size: 0 })).toBe('The file is empty.');
    expect(checkExportFile({ size: MAX_EXPORT_BYTES + 1 })).toBe(MSG_EXPORT_TOO_LARGE);
    expect(checkExportFile({ size: MAX_EXPORT_BYTES })).toBeNull();
    expect(checkExportFile({ size: 1 })).toBeNull();
  });
});

describe('exportForm', () => {
  it('puts every policy field first and the file last, typed text/xml whatever the browser said', async () => {
    const file = new Blob(['<rss/>'], { type: 'application/xml' });
    const form = exportForm({ url: 'x', fields: { key: 'uploads/k', 'Content-Type': 'text/xml', policy: 'p', file: 'no' } }, file, 'site.xml');
    const entries = [...form.entries()];
    expect(entries.map(([k]) => k)).toEqual(['key', 'Content-Type', 'policy', 'file']);
    const sent = entries[3][1] as File;
    expect(sent.type).toBe('text/xml');
    expect(sent.name).toBe('site.xml');
    expect(await sent.text()).toBe('<rss/>');
  });
});

/** fakeXhr is an XMLHttpRequest that answers status and body once sent, after reporting progress. */
function fakeXhr(status: number, body = '', fail = false) {
  const sent: { method?: string; url?: string; body?: FormData } = {};
  const xhr: Xhr = {
    status,
    responseText: body,
    onload: null,
    onerror: null,
    upload: { onprogress: null },
    open(method, url) {
      sent.method = method;
      sent.url = url;
    },
    send(form) {
      sent.body = form;
      xhr.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 200 });
      xhr.upload.onprogress?.({ lengthComputable: false, loaded: 0, total: 0 });
      if (fail) xhr.onerror?.();
      else xhr.onload?.();
    },
  };
  return { xhr, sent };
}

describe('uploadExport', () => {
  const ticket = { url: 'http://127.0.0.1:4599/media-bucket', fields: { key: 'k' } };
  const file = new Blob(['<rss/>']);

  it('posts the form to the ticket and reports progress up to 1', async () => {
    const { xhr, sent } = fakeXhr(204);
    const seen: number[] = [];
    await uploadExport(ticket, file, 'site.xml', (f) => seen.push(f), () => xhr);
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe(ticket.url);
    expect([...(sent.body as FormData).keys()]).toEqual(['key', 'file']);
    expect(seen).toEqual([0.25, 1]);
  });

  it("turns S3's refusal into a message", async () => {
    const { xhr } = fakeXhr(400, '<Error><Code>EntityTooLarge</Code><Message>Your proposed upload exceeds the maximum allowed size</Message></Error>');
    const err = await uploadExport(ticket, file, 'site.xml', () => {}, () => xhr).catch((e) => e);
    expect(err).toBeInstanceOf(UploadError);
    expect(err.message).toBe('The export is larger than 100 MB.');
  });

  it('says when the storage cannot be reached', async () => {
    const { xhr } = fakeXhr(0, '', true);
    await expect(uploadExport(ticket, file, 'site.xml', () => {}, () => xhr)).rejects.toThrow(/could not be reached/);
  });
});

describe('uploadErrorMessage', () => {
  it.each([
    [400, '<Error><Code>EntityTooSmall</Code></Error>', 'The file is empty.'],
    [403, '<Error><Code>AccessDenied</Code><Message>Invalid according to Policy: Policy expired.</Message></Error>', 'The upload link expired. Please try again.'],
    [403, '<Error><Code>AccessDenied</Code><Message>Policy Condition failed</Message></Error>', 'The upload failed (AccessDenied). Please try again.'],
    [500, 'oops', 'The upload failed (status 500). Please try again.'],
  ])('%d %s', (status, body, want) => expect(uploadErrorMessage(status, body)).toBe(want));
});
