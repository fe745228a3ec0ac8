import { useState } from 'react';
import { mediaUrl } from '../../lib/format';

/**
 * thumbRef is the reference of an image's smallest sized copy (at most 320 pixels wide), which the
 * server makes beside the original once it is uploaded: "{id}/w/thumb" for "{id}/{name}". Empty
 * for anything that is not a library reference (an absolute URL, a blob preview).
 */
export function thumbRef(ref: string): string {
  const m = /^([0-9A-HJKMNP-TV-Z]{26})\/[^/]+$/.exec(ref);
  return m ? `${m[1]}/w/thumb` : '';
}

/** CONTENT_WIDTH is the widest copy rich text embeds: a page's text column is narrower. */
const CONTENT_WIDTH = 1280;

/**
 * contentRef is the reference rich text embeds for a library image: its widest copy up to
 * CONTENT_WIDTH (no metadata, sized for a page), else the original (copies not made yet).
 */
export function contentRef(item: { fileUrl: string; variants?: { width: number; fileUrl: string }[] }): string {
  const fit = (item.variants ?? []).filter((v) => v.width <= CONTENT_WIDTH);
  return fit.length ? fit[fit.length - 1].fileUrl : item.fileUrl;
}

interface Props {
  /** fileUrl is the original's reference. */
  fileUrl: string;
  objectUrlPrefix: string;
  alt: string;
  className?: string;
}

/**
 * Thumbnail shows an image of the library by its small copy, so a grid or a list moves kilobytes
 * instead of each full photo; until the copy exists (just uploaded) or when there is none, it
 * falls back to the original.
 */
export function Thumbnail({ fileUrl, objectUrlPrefix, alt, className }: Props) {
  const small = thumbRef(fileUrl);
  const [failed, setFailed] = useState<string>('');
  const src = small && failed !== fileUrl ? mediaUrl(small, objectUrlPrefix) : mediaUrl(fileUrl, objectUrlPrefix);
  return <img className={className} src={src} alt={alt} data-file={fileUrl} loading="lazy" decoding="async" onError={() => setFailed(fileUrl)} />;
}
