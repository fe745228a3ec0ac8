import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpError, errorFromBody, messageOf, parseBody, requestJson } from './http';

describe('errorFromBody', () => {
  it('reads message and field errors', () => {
    const err = errorFromBody(400, JSON.stringify({ message: 'Please enter a valid email!', errors: { email: 'Please enter a valid email!', n: 3 } }));
    expect(err).toBeInstanceOf(HttpError);
    expect(err.status).toBe(400);
    expect(err.message).toBe('Please enter a valid email!');
    expect(err.errors).toEqual({ email: 'Please enter a valid email!' });
  });
  it('tolerates a non-JSON body', () => {
    const err = errorFromBody(502, '<html>Bad gateway</html>');
    expect(err.status).toBe(502);
    expect(err.message).toBe('');
    expect(err.errors).toEqual({});
  });
  it('tolerates an empty body and odd shapes', () => {
    expect(errorFromBody(500, '').message).toBe('');
    expect(errorFromBody(400, '[1,2]').errors).toEqual({});
    expect(errorFromBody(400, '{"message":42,"errors":[1]}').message).toBe('');
  });
});

describe('parseBody', () => {
  it('returns JSON on 2xx', () => {
    expect(parseBody(200, '{"result":{"a":1}}')).toEqual({ result: { a: 1 } });
  });
  it('returns undefined on an empty 2xx', () => {
    expect(parseBody(204, '')).toBeUndefined();
  });
  it('throws HttpError on 4xx', () => {
    expect(() => parseBody(404, '{"message":"Could not find institution!"}')).toThrowError('Could not find institution!');
  });
});

describe('messageOf', () => {
  it('uses the server message, else the fallback', () => {
    expect(messageOf(new HttpError(401, 'Invalid username or password'), 'Could not login!')).toBe('Invalid username or password');
    expect(messageOf(new HttpError(500, ''), 'Could not login!')).toBe('Could not login!');
    expect(messageOf(new Error('boom'))).toBe('Some error occured!');
  });
});

describe('requestJson', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends JSON and headers, parses the reply', async () => {
    const fetchMock = vi.fn(async () => new Response('{"result":1}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const out = await requestJson('/x', { method: 'POST', body: { a: 1 }, headers: { 'X-Tenant-Id': 'demo' } });
    expect(out).toEqual({ result: 1 });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/x');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"a":1}');
    expect(init.headers).toMatchObject({ 'X-Tenant-Id': 'demo', 'Content-Type': 'application/json' });
  });
  it('throws a typed HttpError on failure', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"message":"Too many attempts","errors":{}}', { status: 429 })));
    await expect(requestJson('/x')).rejects.toMatchObject({ status: 429, message: 'Too many attempts' });
  });
  it('maps network failures to status 0', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('Failed to fetch'); }));
    await expect(requestJson('/x')).rejects.toMatchObject({ name: 'HttpError', status: 0 });
  });
});
