/**
 * The only module that calls fetch. Every failure becomes an HttpError carrying the
 * status, the server's message (or a fallback) and per-field errors.
 */
import { MSG } from '../lib/messages';

export class HttpError extends Error {
  readonly status: number;
  readonly errors: Record<string, string>;
  /** body is the whole JSON answer (a 422's accessibility findings ride beside its message). */
  readonly body: Record<string, unknown>;

  constructor(status: number, message: string, errors: Record<string, string> = {}, body: Record<string, unknown> = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.errors = errors;
    this.body = body;
  }
}

/** messageOf returns an error's user-facing message, or the fallback when it has none. */
export function messageOf(err: unknown, fallback: string = MSG.generic): string {
  if (err instanceof HttpError && err.message) return err.message;
  return fallback;
}

/** isForbidden says whether the server refused a call for want of a permission (403). */
export function isForbidden(err: unknown): boolean {
  return err instanceof HttpError && err.status === 403;
}

function stringMap(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === 'string') out[k] = v;
  }
  return out;
}

/**
 * errorFromBody builds an HttpError from a failed response's status and raw text.
 * Non-JSON bodies (proxies, crashes) get an empty message so callers use their fallback.
 */
export function errorFromBody(status: number, text: string): HttpError {
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  const obj = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const message = typeof obj.message === 'string' ? obj.message : '';
  return new HttpError(status, message, stringMap(obj.errors), obj);
}

/** parseBody turns a response's status and text into its JSON value or throws HttpError. */
export function parseBody<T>(status: number, text: string): T {
  if (status < 200 || status >= 300) throw errorFromBody(status, text);
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new HttpError(status, '', {});
  }
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal;
}

/** requestJson performs one HTTP call; network failures become HttpError with status 0. */
export async function requestJson<T>(url: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  let body: BodyInit | undefined;
  if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(url, { method: opts.method ?? 'GET', headers, body, signal: opts.signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new HttpError(0, '', {});
  }
  return parseBody<T>(res.status, await res.text());
}

/** DownloadedFile is a file the API answered with (a CSV export) and the name it suggests. */
export interface DownloadedFile {
  blob: Blob;
  filename: string;
}

/** requestFile performs one GET of a file; failures become HttpError like requestJson's. */
export async function requestFile(url: string, opts: RequestOptions = {}): Promise<DownloadedFile> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'GET', headers: opts.headers, signal: opts.signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new HttpError(0, '', {});
  }
  if (!res.ok) throw errorFromBody(res.status, await res.text());
  const match = /filename="?([^";]+)"?/.exec(res.headers.get('Content-Disposition') ?? '');
  return { blob: await res.blob(), filename: match?.[1] ?? 'download' };
}
