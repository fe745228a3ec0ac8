/** Upload rules of SPEC §5 and §9, mirrored from shared/media (the server has the final word). */

/** MAX_UPLOAD_BYTES is the upload size limit: 5,242,880 bytes (5 MB). */
export const MAX_UPLOAD_BYTES = 5_242_880;
export const MSG_TOO_LARGE = 'Maximum file size is 5 MB';
export const MSG_NOT_IMAGE = 'Please choose an image file (PNG, JPEG, GIF or WebP).';
export const MSG_EMPTY = 'The file is empty.';
export const MSG_UPLOADED = 'File Uploaded successfully!';
export const MSG_LINK_COPIED = 'Link Copied';
export const MSG_DELETED = 'Media Deleted';
export const CONFIRM_DELETE = 'Are you sure to delete?';

export type MediaType = 'IMAGE' | 'VIDEO' | 'AUDIO' | 'DOCUMENT' | 'OTHER';
export type Accept = 'image' | 'file';

/** MediaItem is a media record (SPEC §3); fileUrl is relative to the tenant's objectUrlPrefix. */
export interface MediaItem {
  id: string;
  name: string;
  fileUrl: string;
  fileSize: number;
  mimeType: string;
  mediaType: MediaType;
  /** width and height are an image's size as shown; variants its sized copies, once made. */
  width?: number;
  height?: number;
  variants?: { width: number; height: number; fileUrl: string }[];
  /** altText is an image's text alternative; decorative says it needs none (the website writes alt=""). */
  altText?: string;
  caption?: string;
  decorative?: boolean;
  createdAt: string;
  updatedAt: string;
}

const DOCUMENT_TYPES = new Set([
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'text/plain',
]);

/** mediaTypeOf derives SPEC §5's media type from a mime type (as the server does). */
export function mediaTypeOf(mimeType: string): MediaType {
  const mt = mimeType.split(';')[0].trim().toLowerCase();
  if (mt.startsWith('image/')) return 'IMAGE';
  if (mt.startsWith('video/')) return 'VIDEO';
  if (mt.startsWith('audio/')) return 'AUDIO';
  if (DOCUMENT_TYPES.has(mt)) return 'DOCUMENT';
  return 'OTHER';
}

/** isRasterImage says whether a mime type is an image the server accepts (SVG can carry script). */
export function isRasterImage(mimeType: string): boolean {
  const mt = mimeType.toLowerCase();
  return mt.startsWith('image/') && !mt.includes('svg') && !mt.endsWith('+xml');
}

/** checkUploadFile returns why a chosen file cannot be uploaded, or null when it may be. */
export function checkUploadFile(file: { size: number; type: string }, accept: Accept = 'file'): string | null {
  if (file.size > MAX_UPLOAD_BYTES) return MSG_TOO_LARGE;
  if (file.size <= 0) return MSG_EMPTY;
  if (accept === 'image' && !isRasterImage(file.type)) return MSG_NOT_IMAGE;
  return null;
}

/** inputAccept is the file input's accept attribute for a picker. */
export function inputAccept(accept: Accept): string | undefined {
  return accept === 'image' ? 'image/png,image/jpeg,image/gif,image/webp,image/avif,image/bmp' : undefined;
}

/**
 * formEntries orders a presigned POST's form: every policy field first, the file last (S3
 * ignores fields that follow the file).
 */
export function formEntries(fields: Record<string, string>): [string, string][] {
  return Object.entries(fields).filter(([k]) => k !== 'file');
}

/** s3ErrorMessage turns S3's XML error body into a message a user can act on. */
export function s3ErrorMessage(status: number, body: string): string {
  const code = /<Code>([^<]*)<\/Code>/.exec(body)?.[1] ?? '';
  const message = /<Message>([^<]*)<\/Message>/.exec(body)?.[1] ?? '';
  if (code === 'EntityTooLarge') return MSG_TOO_LARGE;
  if (code === 'EntityTooSmall') return MSG_EMPTY;
  if (/expired/i.test(message)) return 'The upload link expired. Please try again.';
  if (status === 0) return 'The upload failed: the file storage could not be reached. Check your connection and try again.';
  return `The upload failed${code ? ` (${code})` : ` (status ${status})`}. Please try again.`;
}

/** mediaFilter narrows the library's list to what a picker accepts (images only, or every file). */
export function mediaFilter(accept: Accept = 'file'): Record<string, string> {
  return accept === 'image' ? { mediaType: 'IMAGE' } : {};
}

export const ALT_HELP = 'Describe what the image shows for people who cannot see it (a sentence or two; not "image of").';
export const ALT_REQUIRED = 'Describe the image, or switch on Decorative if it adds nothing a reader needs.';
export const ALT_SAVED = 'Alt text saved';

/** needsAlt says whether an image still lacks its text alternative (neither alt text nor decorative). */
export function needsAlt(item: Pick<MediaItem, 'mediaType' | 'altText' | 'decorative'>): boolean {
  return item.mediaType === 'IMAGE' && !item.decorative && !(item.altText ?? '').trim();
}

/**
 * altPatch is the PATCH /media/{id} body of the alt text form, or null when it says nothing: a
 * decorative image keeps no alt text; any other needs one.
 */
export function altPatch(alt: string, decorative: boolean): { altText: string; decorative: boolean } | null {
  if (decorative) return { altText: '', decorative: true };
  const text = alt.trim().replace(/\s+/g, ' ');
  return text ? { altText: text, decorative: false } : null;
}
