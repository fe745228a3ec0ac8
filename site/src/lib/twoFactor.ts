/** Helpers of the two-factor screens (pure, unit-tested). */

/** groupKey shows a base32 key in groups of four, as authenticator apps accept it typed. */
export function groupKey(secret: string): string {
  return (secret.match(/.{1,4}/g) ?? []).join(' ');
}

/** recoveryFile is the text file of recovery codes a user downloads. */
export function recoveryFile(institution: string, username: string, codes: string[], at: Date): string {
  return [
    `Recovery codes for ${username} at ${institution}`,
    `Made ${at.toISOString().slice(0, 10)}. Each code signs you in once, instead of a code from your app.`,
    '',
    ...codes,
    '',
  ].join('\n');
}

/** normalizeCode keeps the digits of a typed app code ("123 456" -> "123456"). */
export function normalizeCode(input: string): string {
  return input.replace(/\D/g, '').slice(0, 6);
}

/** describeClient names a browser and system from a User-Agent, for the sessions list. */
export function describeClient(ua: string): string {
  if (!ua) return 'Unknown browser';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\//.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\/|Chromium\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : 'Browser';
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : '';
  return os ? `${browser} on ${os}` : browser;
}
