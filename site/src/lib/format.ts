/** Small display helpers for list cells (SPEC §9). */

export const TRIM_AT = 30;
export const MEDIA_NAME_TRIM_AT = 40;

/** trimText cuts text longer than n characters and adds an ellipsis. */
export function trimText(text: string, n: number = TRIM_AT): string {
  const chars = [...text];
  return chars.length > n ? chars.slice(0, n).join('') + '...' : text;
}

const KB = 1024;
const MB = 1024 * 1024;

/** formatBytes shows a size in KB, or in MB when over 1 MB, with up to 2 decimals. */
export function formatBytes(bytes: unknown): string {
  const n = typeof bytes === 'number' ? bytes : Number(bytes);
  if (bytes === null || bytes === undefined || bytes === '' || !Number.isFinite(n)) return '';
  const round = (v: number) => String(Math.round(v * 100) / 100);
  return n > MB ? `${round(n / MB)} MB` : `${round(n / KB)} KB`;
}

/** toBool reads the API's boolean-like values: 1, '1', true, 'true' are true (DESIGN §2). */
export function toBool(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

/** stripHtml turns rich text into plain text for a table cell. */
export function stripHtml(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/\s+/g, ' ').trim();
}

/** mediaUrl turns a stored file reference ("{ulid}/{name}") into a URL under the tenant's prefix. */
export function mediaUrl(value: string, objectUrlPrefix: string): string {
  if (!value) return '';
  if (/^(https?:)?\/\//.test(value) || value.startsWith('/') || value.startsWith('data:') || value.startsWith('blob:')) return value;
  const prefix = objectUrlPrefix.endsWith('/') || !objectUrlPrefix ? objectUrlPrefix : objectUrlPrefix + '/';
  return prefix + value;
}

/** formatDateTime renders a time as "November 21, 2026 at 5:40 PM" (en-US, with 'at'). */
export function formatDateTime(value: string | number | Date, timeZone?: string): string {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  const date = d.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone });
  const time = d.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', timeZone });
  return `${date} at ${time}`.replace(/[\u202f\u00a0]/g, ' ');
}
