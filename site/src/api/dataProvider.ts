/**
 * The one data provider every screen reads and writes through (in the spirit of react-admin's
 * dataProvider): it builds the API paths and query strings, unwraps the envelopes, turns a stale
 * version's 409 into a StaleVersionError, and knows which cached swr keys a resource's write makes
 * stale. History, trash and restore live here once for every resource.
 *
 * swr keys are the API paths the provider builds (keys.*), read with the provider's fetchers, so
 * one key always holds one shape. This module imports only the API client and swr's mutate:
 * screens stay lazy.
 */
import { mutate as globalMutate } from 'swr';
import { api } from './client';
import { HttpError } from './http';

/** Reply is what a call answers: its result, and the server's message (shown verbatim) if it sent one. */
export interface Reply<T> {
  result: T;
  message?: string;
  /** version is the resource's version where the server keeps it beside the result (the menu tree). */
  version?: number;
}

export type Filter = Record<string, string | number | boolean | undefined | null>;

/** ListParams are one list page's parameters; filter adds the resource's own ones (formId, kind, mediaType). */
export interface ListParams {
  page?: number;
  limit?: number;
  search?: string;
  sort?: string;
  order?: 'asc' | 'desc';
  filter?: Filter;
  /** cursor is the server's nextCursor/prevCursor when the page asked for is adjacent to the one shown. */
  cursor?: string;
}

/** ListResult is one list page. */
export interface ListResult<T> {
  items: T[];
  total: number;
  nextCursor?: string;
  prevCursor?: string;
  /** totalCapped: a search's count stopped at the server's cap (total is "at least"). */
  totalCapped?: boolean;
  /** sortable, when present, are the only columns the server can sort this (large) list by. */
  sortable?: string[];
}

/** PagedResponse is the API's shape of one list page. */
interface PagedResponse<T> {
  result?: T[];
  totalCount?: number;
  totalCountCapped?: boolean;
  nextCursor?: string;
  prevCursor?: string;
  sortable?: string[];
}

/**
 * StaleVersionError is a 409 without field errors: the record changed since it was loaded (a taken
 * unique value is a 409 too, but names its field, and stays a plain HttpError).
 */
export class StaleVersionError extends HttpError {
  constructor(message: string) {
    super(409, message, {});
    this.name = 'StaleVersionError';
  }
}

/** isStale says whether a write failed because the version it named is no longer the current one. */
export function isStale(err: unknown): err is StaleVersionError {
  return err instanceof StaleVersionError;
}

/** TrashEntryRef names one trash entry: a deleted record or media file at the version its delete kept. */
export interface TrashEntryRef {
  kind: string;
  id: string;
  version: number;
}

/** TRASH_PAGE_SIZE is how many entries one page of the trash asks for (the server allows 1–100). */
export const TRASH_PAGE_SIZE = 20;

const enc = encodeURIComponent;

function query(p: ListParams): string {
  const q = new URLSearchParams();
  if (p.page !== undefined) q.set('page', String(p.page));
  if (p.limit !== undefined) q.set('limit', String(p.limit));
  const search = p.search?.trim();
  if (search) q.set('search', search);
  if (p.sort) {
    q.set('sort', p.sort);
    q.set('order', p.order ?? 'asc');
  }
  for (const [k, v] of Object.entries(p.filter ?? {})) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  if (p.cursor) q.set('cursor', p.cursor);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** keys are the API paths of the provider's reads; they are the swr keys too. */
export const keys = {
  list: (resource: string, params: ListParams = {}) => `/${resource}${query(params)}`,
  one: (resource: string, id: string) => `/${resource}/${enc(id)}`,
  singleton: (resource: string) => `/${resource}`,
  /** versions is a record's kept versions; without an id, the resource's own (the menu tree's). */
  versions: (resource: string, id?: string) => (id === undefined ? `/${resource}/versions` : `/${resource}/${enc(id)}/versions`),
  trash: (params: { kind?: string; cursor?: string; limit?: number } = {}) =>
    `/trash${query({ limit: params.limit ?? TRASH_PAGE_SIZE, filter: { kind: params.kind }, cursor: params.cursor })}`,
  trashEntry: (e: TrashEntryRef) => `/trash/${enc(e.kind)}/${enc(e.id)}/${e.version}`,
};

/** toList reads the API's list page into a ListResult. */
export function toList<T>(raw: PagedResponse<T> | undefined): ListResult<T> {
  const items = raw?.result ?? [];
  return {
    items,
    total: raw?.totalCount ?? items.length,
    nextCursor: raw?.nextCursor || undefined,
    prevCursor: raw?.prevCursor || undefined,
    totalCapped: raw?.totalCountCapped === true,
    sortable: raw?.sortable,
  };
}

/** reply keeps what a screen uses of an envelope; an empty body (204) is an empty reply. */
function reply<T>(raw: Partial<Reply<T>> | undefined): Reply<T> {
  const out: Reply<T> = { result: raw?.result as T };
  if (typeof raw?.message === 'string' && raw.message) out.message = raw.message;
  if (typeof raw?.version === 'number') out.version = raw.version;
  return out;
}

/** versioned runs a write that names a version: its stale-version 409 becomes a StaleVersionError. */
async function versioned<T>(write: Promise<Partial<Reply<T>> | undefined>): Promise<Reply<T>> {
  try {
    return reply<T>(await write);
  } catch (err) {
    if (err instanceof HttpError && err.status === 409 && Object.keys(err.errors).length === 0) throw new StaleVersionError(err.message);
    throw err;
  }
}

function withVersion(body: object, version: number | undefined): object {
  return version === undefined ? body : { ...body, version };
}

/** DASHBOARD_KEY holds the dashboard's counters (in the master lists), which any create, delete or restore changes. */
export const DASHBOARD_KEY = '/misc/masters';

/** moved runs a write that may move a dashboard counter, then has the counters fetched again (Home, wherever it is shown next). */
async function moved<T>(write: Promise<T>): Promise<T> {
  const out = await write;
  void globalMutate(DASHBOARD_KEY);
  return out;
}

/** fetchers read the provider's keys for swr: one shape per kind of key. */
export const fetchers = {
  list: async <T>(key: string): Promise<ListResult<T>> => toList(await api.get<PagedResponse<T>>(key)),
  reply: async <T>(key: string): Promise<Reply<T>> => reply(await api.get<Partial<Reply<T>>>(key)),
};

export const dataProvider = {
  list: <T>(resource: string, params: ListParams = {}) => fetchers.list<T>(keys.list(resource, params)),
  one: <T>(resource: string, id: string) => fetchers.reply<T>(keys.one(resource, id)),
  create: async <T>(resource: string, body: object) => reply<T>(await moved(api.post(`/${resource}`, body))),
  /** update sends the version the edit started from (when known); a stale one throws StaleVersionError. */
  update: <T>(resource: string, id: string, body: object, version: number | undefined) =>
    versioned<T>(api.patch(keys.one(resource, id), withVersion(body, version))),
  remove: async <T = unknown>(resource: string, id: string) => reply<T>(await moved(api.del(keys.one(resource, id)))),

  /** getSingleton reads a one-per-tenant resource (header, footer, theme settings, the menu tree). */
  getSingleton: <T>(resource: string) => fetchers.reply<T>(keys.singleton(resource)),
  /** saveSingleton writes it with its version; the record's id, where its route names one. */
  saveSingleton: <T>(resource: string, body: object, version: number | undefined, id?: string) =>
    versioned<T>(api.patch(id === undefined ? keys.singleton(resource) : keys.one(resource, id), withVersion(body, version))),

  /** versions lists what a record's saves replaced; without an id, the resource's own (the menu). */
  versions: <T>(resource: string, id?: string) => fetchers.reply<T[]>(keys.versions(resource, id)),
  version: <T>(resource: string, id: string | undefined, n: number) => fetchers.reply<T>(`${keys.versions(resource, id)}/${n}`),
  /** restoreVersion writes version n back, naming the current version (a stale screen gets StaleVersionError). */
  restoreVersion: <T = unknown>(resource: string, id: string | undefined, n: number, currentVersion: number | undefined) =>
    versioned<T>(api.post(`${keys.versions(resource, id)}/${n}/restore`, { version: currentVersion })),

  trashList: <T>(params: { kind?: string; cursor?: string; limit?: number } = {}) => fetchers.list<T>(keys.trash(params)),
  restoreFromTrash: async <T = unknown>(kind: string, id: string, version: number) =>
    reply<T>(await moved(api.post(`${keys.trashEntry({ kind, id, version })}/restore`, {}))),
  purge: async <T = unknown>(kind: string, id: string, version: number) => reply<T>(await moved(api.del(keys.trashEntry({ kind, id, version })))),
};


/** RELATED are resources whose cached reads a write of another makes stale (a form's submissions go with it). */
const RELATED: Record<string, string[]> = {
  'custom-forms': ['custom-form-submissions'],
};

/**
 * resourceKeys says which cached swr keys a write of resource makes stale: its lists, its records
 * and their versions, its related resources', and the dashboard's counters.
 */
export function resourceKeys(resource: string): (key: unknown) => boolean {
  const roots = [resource, ...(RELATED[resource] ?? [])].map((r) => `/${r}`);
  return (key) => {
    if (typeof key !== 'string') return false;
    if (key === DASHBOARD_KEY) return true;
    return roots.some((r) => key === r || key.startsWith(`${r}?`) || key.startsWith(`${r}/`));
  };
}

/**
 * mutateResource revalidates every cached read of resource after a write (lists, records, pickers,
 * counters). Given the saved record, the cached lists holding it show it at once, so a screen
 * opened before their reload answers doesn't act on the old copy.
 */
export function mutateResource(resource: string, saved?: { id: string }): Promise<unknown> {
  if (!saved) return globalMutate(resourceKeys(resource));
  return globalMutate(resourceKeys(resource), (data: unknown) => withSaved(data, saved), { revalidate: true });
}

/** withSaved is a cached list with saved in place of its copy of the same id; anything else as it was. */
export function withSaved<T>(data: T, saved: { id: string }): T {
  const list = data as ListResult<{ id?: string }> | undefined;
  if (!list || !Array.isArray(list.items) || !list.items.some((it) => it?.id === saved.id)) return data;
  return { ...list, items: list.items.map((it) => (it?.id === saved.id ? { ...it, ...saved } : it)) } as T;
}
