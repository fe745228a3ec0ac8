import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mutate } from 'swr';
import { configureClient } from './client';
import { DASHBOARD_KEY, StaleVersionError, dataProvider, isStale, keys, resourceKeys, toList, withSaved } from './dataProvider';
import { HttpError } from './http';

vi.mock('swr', async (actual) => ({ ...(await actual<typeof import('swr')>()), mutate: vi.fn() }));

type Call = { url: string; method: string; body: unknown };

/** fake answers every fetch with status and body, and records what was asked. */
function fake(status: number, body: unknown) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method ?? 'GET', body: init.body === undefined ? undefined : JSON.parse(String(init.body)) });
      return new Response(body === undefined ? null : JSON.stringify(body), { status });
    }),
  );
  return calls;
}

beforeEach(() => configureClient({ apiBase: '/api/v1/tenant', tenantId: 'demo' }));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(mutate).mockClear();
});

describe('keys', () => {
  it('builds list query strings in one order, leaving out what is unset', () => {
    expect(keys.list('faqs')).toBe('/faqs');
    expect(keys.list('faqs', { page: 1, limit: 10, search: '  ' })).toBe('/faqs?page=1&limit=10');
    expect(keys.list('faqs', { page: 2, limit: 5, search: ' hi ', sort: 'question', order: 'desc' })).toBe(
      '/faqs?page=2&limit=5&search=hi&sort=question&order=desc',
    );
    expect(keys.list('custom-forms', { limit: 100, sort: 'name' })).toBe('/custom-forms?limit=100&sort=name&order=asc');
  });
  it('adds filters after the paging and the cursor last, escaped', () => {
    expect(keys.list('custom-form-submissions', { page: 1, limit: 10, filter: { formId: 'F 1', checked: false, empty: '', none: undefined } })).toBe(
      '/custom-form-submissions?page=1&limit=10&formId=F+1&checked=false',
    );
    expect(keys.list('media', { page: 2, limit: 20, cursor: 'ab+/=' })).toBe('/media?page=2&limit=20&cursor=ab%2B%2F%3D');
  });
  it('escapes ids and names versions and trash entries', () => {
    expect(keys.one('pages', 'a/b')).toBe('/pages/a%2Fb');
    expect(keys.singleton('header')).toBe('/header');
    expect(keys.versions('pages', '01X')).toBe('/pages/01X/versions');
    expect(keys.versions('menu-items')).toBe('/menu-items/versions');
    expect(keys.trash()).toBe('/trash?limit=20');
    expect(keys.trash({ kind: 'pages' })).toBe('/trash?limit=20&kind=pages');
    expect(keys.trash({ kind: 'media', cursor: 'a+b/c=', limit: 50 })).toBe('/trash?limit=50&kind=media&cursor=a%2Bb%2Fc%3D');
    expect(keys.trashEntry({ kind: 'pages', id: '01JABC', version: 3 })).toBe('/trash/pages/01JABC/3');
  });
});

describe('toList', () => {
  it('reads the list envelope', () => {
    expect(toList({ result: [{ id: 'a' }], totalCount: 31, totalCountCapped: true, nextCursor: 'n', prevCursor: '', sortable: ['name'] })).toEqual({
      items: [{ id: 'a' }],
      total: 31,
      totalCapped: true,
      nextCursor: 'n',
      prevCursor: undefined,
      sortable: ['name'],
    });
  });
  it('counts an unpaged list by its items, and tolerates an empty body', () => {
    expect(toList({ result: [{ id: 'a' }, { id: 'b' }] }).total).toBe(2);
    expect(toList(undefined)).toMatchObject({ items: [], total: 0, totalCapped: false });
  });
});

describe('dataProvider', () => {
  it('list sends the query under the API base with the tenant header', async () => {
    const calls = fake(200, { result: [{ id: '1' }], totalCount: 1, nextCursor: 'c' });
    const out = await dataProvider.list('faqs', { page: 1, limit: 10, search: 'a' });
    expect(calls[0]).toEqual({ url: '/api/v1/tenant/faqs?page=1&limit=10&search=a', method: 'GET', body: undefined });
    expect(out).toMatchObject({ items: [{ id: '1' }], total: 1, nextCursor: 'c' });
    const init = (fetch as unknown as { mock: { calls: [string, RequestInit][] } }).mock.calls[0][1];
    expect(init.headers).toMatchObject({ 'X-Tenant-Id': 'demo' });
  });
  it('one, create and remove unwrap the result and keep the server message', async () => {
    let calls = fake(200, { result: { id: '1', version: 2 } });
    expect(await dataProvider.one('pages', '1')).toEqual({ result: { id: '1', version: 2 } });
    expect(calls[0]).toMatchObject({ url: '/api/v1/tenant/pages/1', method: 'GET' });

    calls = fake(200, { result: { id: '2' }, message: 'FAQ created successfully!' });
    expect(await dataProvider.create('faqs', { question: 'q' })).toEqual({ result: { id: '2' }, message: 'FAQ created successfully!' });
    expect(calls[0]).toEqual({ url: '/api/v1/tenant/faqs', method: 'POST', body: { question: 'q' } });

    calls = fake(200, { message: 'FAQ Deleted Successfully!' });
    expect(await dataProvider.remove('faqs', '2')).toEqual({ result: undefined, message: 'FAQ Deleted Successfully!' });
    expect(calls[0]).toMatchObject({ url: '/api/v1/tenant/faqs/2', method: 'DELETE' });

    fake(204, undefined);
    expect(await dataProvider.remove('faqs', '3')).toEqual({ result: undefined });
  });
  it('keeps a version sent beside the result (the menu tree)', async () => {
    fake(200, { result: [], version: 7 });
    expect(await dataProvider.getSingleton('menu-items')).toEqual({ result: [], version: 7 });
    fake(200, { version: 8 });
    expect((await dataProvider.remove('menu-items', 'x')).version).toBe(8);
  });
  it('update sends the version, or none when it is unknown', async () => {
    let calls = fake(200, { result: { id: '1', version: 4 }, message: 'Saved Changes!' });
    expect(await dataProvider.update('pages', '1', { title: 'T' }, 3)).toEqual({ result: { id: '1', version: 4 }, message: 'Saved Changes!' });
    expect(calls[0]).toEqual({ url: '/api/v1/tenant/pages/1', method: 'PATCH', body: { title: 'T', version: 3 } });
    calls = fake(200, { result: {} });
    await dataProvider.update('custom-form-submissions', 's', { checked: true }, undefined);
    expect(calls[0].body).toEqual({ checked: true });
  });
  it('a stale version (409 without field errors) is a StaleVersionError with the server message', async () => {
    fake(409, { message: 'Someone else saved this page meanwhile.', errors: {} });
    const err = await dataProvider.update('pages', '1', {}, 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StaleVersionError);
    expect(err).toBeInstanceOf(HttpError);
    expect(isStale(err)).toBe(true);
    expect(err).toMatchObject({ status: 409, message: 'Someone else saved this page meanwhile.' });
  });
  it('a taken unique value (409 naming its field) and other failures stay plain HttpErrors', async () => {
    fake(409, { message: 'Slug is taken', errors: { slug: 'Slug is taken' } });
    const taken = await dataProvider.update('pages', '1', {}, 1).catch((e: unknown) => e);
    expect(isStale(taken)).toBe(false);
    expect(taken).toMatchObject({ status: 409, errors: { slug: 'Slug is taken' } });
    fake(400, { message: 'Bad', errors: { title: 'Required' } });
    expect(isStale(await dataProvider.update('pages', '1', {}, 1).catch((e: unknown) => e))).toBe(false);
    expect(isStale(new HttpError(409, 'x'))).toBe(false);
    // A create names no version: its 409 is never a stale version.
    fake(409, { message: 'Username taken', errors: {} });
    expect(isStale(await dataProvider.create('users', {}).catch((e: unknown) => e))).toBe(false);
  });
  it('saveSingleton patches the record by id, or the resource itself', async () => {
    let calls = fake(200, { result: { id: 't' } });
    await dataProvider.saveSingleton('header', { title: 'x' }, 5, 't');
    expect(calls[0]).toEqual({ url: '/api/v1/tenant/header/t', method: 'PATCH', body: { title: 'x', version: 5 } });
    calls = fake(200, { result: [], version: 6 });
    expect((await dataProvider.saveSingleton('menu-items', { menuItems: [] }, 5)).version).toBe(6);
    expect(calls[0]).toEqual({ url: '/api/v1/tenant/menu-items', method: 'PATCH', body: { menuItems: [], version: 5 } });
    fake(409, { message: 'Reload', errors: {} });
    expect(isStale(await dataProvider.saveSingleton('header', {}, 1, 't').catch((e: unknown) => e))).toBe(true);
  });
  it('history: lists, reads and restores versions naming the current one', async () => {
    let calls = fake(200, { result: [{ version: 2 }] });
    expect((await dataProvider.versions('faqs', 'a')).result).toEqual([{ version: 2 }]);
    expect(calls[0].url).toBe('/api/v1/tenant/faqs/a/versions');
    calls = fake(200, { result: { id: 'a' } });
    await dataProvider.version('menu-items', undefined, 4);
    expect(calls[0].url).toBe('/api/v1/tenant/menu-items/versions/4');
    calls = fake(200, { result: {}, message: 'Restored version 2.' });
    expect((await dataProvider.restoreVersion('faqs', 'a', 2, 5)).message).toBe('Restored version 2.');
    expect(calls[0]).toEqual({ url: '/api/v1/tenant/faqs/a/versions/2/restore', method: 'POST', body: { version: 5 } });
    fake(409, { message: 'Changed meanwhile', errors: {} });
    expect(isStale(await dataProvider.restoreVersion('faqs', 'a', 2, 4).catch((e: unknown) => e))).toBe(true);
  });
  it('trash: pages the list, restores and purges an entry by kind, id and version', async () => {
    let calls = fake(200, { result: [{ kind: 'pages', id: 'p' }], nextCursor: 'n' });
    expect(await dataProvider.trashList({ kind: 'pages' })).toMatchObject({ items: [{ kind: 'pages', id: 'p' }], nextCursor: 'n' });
    expect(calls[0].url).toBe('/api/v1/tenant/trash?limit=20&kind=pages');
    calls = fake(200, { message: 'Page restored' });
    expect((await dataProvider.restoreFromTrash('pages', 'p', 3)).message).toBe('Page restored');
    expect(calls[0]).toEqual({ url: '/api/v1/tenant/trash/pages/p/3/restore', method: 'POST', body: {} });
    calls = fake(200, {});
    await dataProvider.purge('media', 'm/1', 1);
    expect(calls[0]).toMatchObject({ url: '/api/v1/tenant/trash/media/m%2F1/1', method: 'DELETE' });
  });
});

describe('dashboard counters', () => {
  it('every create, delete, restore and purge has them fetched again; reads, updates and failures do not', async () => {
    fake(200, { result: { id: '1' } });
    await dataProvider.list('faqs');
    await dataProvider.one('faqs', '1');
    await dataProvider.update('faqs', '1', {}, 1);
    expect(mutate).not.toHaveBeenCalled();
    await dataProvider.create('popups', {});
    await dataProvider.remove('popups', '1');
    await dataProvider.restoreFromTrash('popups', '1', 2);
    await dataProvider.purge('popups', '1', 2);
    expect(vi.mocked(mutate).mock.calls).toEqual(Array(4).fill([DASHBOARD_KEY]));
    vi.mocked(mutate).mockClear();
    fake(500, { message: 'down' });
    await expect(dataProvider.create('popups', {})).rejects.toThrow('down');
    expect(mutate).not.toHaveBeenCalled();
  });
});

describe('resourceKeys', () => {
  it('matches the resource lists, records and versions, and the dashboard counters', () => {
    const pages = resourceKeys('pages');
    for (const k of ['/pages', '/pages?page=1&limit=10', '/pages/01ABC', '/pages/01ABC/versions', '/misc/masters']) expect(pages(k)).toBe(true);
    for (const k of ['/page-sections?page_id=1', '/page-section-types', '/pagesx', '/faqs?page=1', '/trash?limit=20', ['/pages'], null]) {
      expect(pages(k)).toBe(false);
    }
  });
  it('a media write refreshes the library; a form, its submissions too', () => {
    expect(resourceKeys('media')('/media?page=1&limit=20')).toBe(true);
    expect(resourceKeys('custom-forms')('/custom-form-submissions?formId=1')).toBe(true);
    expect(resourceKeys('faqs')('/custom-form-submissions?formId=1')).toBe(false);
  });
});

describe('withSaved', () => {
  const list = { items: [{ id: 'a', altText: '' }, { id: 'b', altText: '' }], total: 2 };
  it('puts the saved record in place of its cached copy', () => {
    const next = withSaved(list, { id: 'b', altText: 'A lake' } as { id: string });
    expect(next.items).toEqual([{ id: 'a', altText: '' }, { id: 'b', altText: 'A lake' }]);
    expect(next.total).toBe(2);
    expect(list.items[1].altText).toBe('');
  });
  it('leaves lists without it and other cached reads as they are', () => {
    expect(withSaved(list, { id: 'z' })).toBe(list);
    const counters = { pages: 3 };
    expect(withSaved(counters, { id: 'a' })).toBe(counters);
    expect(withSaved(undefined, { id: 'a' })).toBeUndefined();
  });
});
