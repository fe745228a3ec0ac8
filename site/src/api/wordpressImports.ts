/**
 * The Import screen's calls (issue 34): an import job is created for an export file, the file goes
 * straight to the media bucket through the presigned POST the job carries, then the job is checked
 * (a dry run) and imported, both outside the request; the screen polls the job for its progress.
 * Administrators only: the server answers everyone else 403.
 */
import { api } from './client';
import type { Envelope } from './types';

export type ImportState = 'uploading' | 'checking' | 'checked' | 'importing' | 'imported' | 'failed';
export type ImportPhase = '' | 'media' | 'content' | 'menu' | 'redirects' | 'done';

/** ImportProgress is where a run is: its phase and the steps done of the total (0 before it counts). */
export interface ImportProgress {
  phase: ImportPhase;
  done: number;
  total: number;
}

/** ReportSection is one part of the report, as cmsctl prints it: a title and its lines. */
export interface ReportSection {
  title: string;
  lines: string[];
}

/** ImportJob is one uploaded export and its last run (a check, or the import). */
export interface ImportJob {
  id: string;
  fileName: string;
  size: number;
  state: ImportState;
  /** dryRun: the run under way, or the last one, is a check. */
  dryRun: boolean;
  progress: ImportProgress;
  /** report is empty in the list of recent imports. */
  report: ReportSection[] | null;
  /** error is why a failed run stopped. */
  error?: string;
  by: string;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
}

/** UploadTicket is the presigned POST an export is uploaded with. */
export interface UploadTicket {
  url: string;
  fields: Record<string, string>;
}

export interface NewImport extends ImportJob {
  upload: UploadTicket;
}

/** MAX_EXPORT_BYTES is the largest export the server accepts: 100 MB. */
export const MAX_EXPORT_BYTES = 100 * 1024 * 1024;
export const MSG_EXPORT_TOO_LARGE = 'The export is larger than 100 MB.';
export const MSG_EXPORT_EMPTY = 'The file is empty.';
/** EXPORT_TYPE is the content type the upload's policy requires. */
export const EXPORT_TYPE = 'text/xml';

const PATH = '/wordpress-imports';
const one = (id: string) => `${PATH}/${encodeURIComponent(id)}`;

/** checkExportFile says why a chosen file cannot be sent (too large, empty), or null. */
export function checkExportFile(file: { size: number }): string | null {
  if (file.size <= 0) return MSG_EXPORT_EMPTY;
  if (file.size > MAX_EXPORT_BYTES) return MSG_EXPORT_TOO_LARGE;
  return null;
}

/** createImport makes a job for a file of name and size; it answers the job and its upload. */
export async function createImport(file: { name: string; size: number }): Promise<NewImport> {
  return (await api.post<Envelope<NewImport>>(PATH, { name: file.name, size: file.size })).result;
}

/** listImports answers the ten latest imports, newest first (their reports left out). */
export async function listImports(): Promise<ImportJob[]> {
  return (await api.get<Envelope<ImportJob[]>>(PATH)).result ?? [];
}

export async function getImport(id: string): Promise<ImportJob> {
  return (await api.get<Envelope<ImportJob>>(one(id))).result;
}

/** checkImport starts the dry run of an uploaded export. */
export async function checkImport(id: string): Promise<ImportJob> {
  return (await api.post<Envelope<ImportJob>>(`${one(id)}/check`, {})).result;
}

/** startImport starts the import of a checked export (a failed one goes on where it stopped). */
export async function startImport(id: string): Promise<ImportJob> {
  return (await api.post<Envelope<ImportJob>>(`${one(id)}/import`, {})).result;
}

/**
 * exportForm is the upload's form: every policy field first (S3 ignores fields after the file),
 * then the file as `file`, typed text/xml as the policy requires whatever the browser guessed.
 */
export function exportForm(ticket: UploadTicket, file: Blob, name: string): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(ticket.fields)) {
    if (k !== 'file') form.append(k, v);
  }
  form.append('file', new Blob([file], { type: EXPORT_TYPE }), name);
  return form;
}

/** uploadErrorMessage turns S3's XML error answer into a message a user can act on. */
export function uploadErrorMessage(status: number, body: string): string {
  const code = /<Code>([^<]*)<\/Code>/.exec(body)?.[1] ?? '';
  const message = /<Message>([^<]*)<\/Message>/.exec(body)?.[1] ?? '';
  if (code === 'EntityTooLarge') return MSG_EXPORT_TOO_LARGE;
  if (code === 'EntityTooSmall') return MSG_EXPORT_EMPTY;
  if (/expired/i.test(message)) return 'The upload link expired. Please try again.';
  if (status === 0) return 'The upload failed: the file storage could not be reached. Check your connection and try again.';
  return `The upload failed${code ? ` (${code})` : ` (status ${status})`}. Please try again.`;
}

/** UploadError carries a message meant for the user. */
export class UploadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UploadError';
  }
}

/** Xhr is what the upload uses of XMLHttpRequest (a test gives its own). */
export interface Xhr {
  open(method: string, url: string): void;
  send(body: FormData): void;
  readonly status: number;
  readonly responseText: string;
  onload: (() => void) | null;
  onerror: (() => void) | null;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null };
}

/**
 * uploadExport posts the file with the job's presigned form, reporting the fraction sent. It goes
 * to the media bucket, not the API, and uses XMLHttpRequest because fetch reports no upload progress.
 */
export function uploadExport(
  ticket: UploadTicket,
  file: Blob,
  name: string,
  onProgress: (fraction: number) => void,
  newXhr: () => Xhr = () => new XMLHttpRequest() as unknown as Xhr,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = newXhr();
    xhr.open('POST', ticket.url);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve();
      } else {
        reject(new UploadError(uploadErrorMessage(xhr.status, xhr.responseText)));
      }
    };
    xhr.onerror = () => reject(new UploadError(uploadErrorMessage(0, '')));
    xhr.send(exportForm(ticket, file, name));
  });
}
