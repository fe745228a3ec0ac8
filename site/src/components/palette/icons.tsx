/** The palette's kind icons: small inline SVGs in the shell's style (shell/icons.tsx), hidden from screen readers. */
import type { ReactNode } from 'react';

const svg = (path: ReactNode) => (
  <svg width={16} height={16} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    {path}
  </svg>
);

const PATHS: Record<string, ReactNode> = {
  // A compass arrow: go to a screen.
  screen: <path d="M5 12h14M13 6l6 6-6 6" />,
  recent: <><circle cx="12" cy="12" r="9" /><path d="M12 7v5l3 2" /></>,
  pages: <><path d="M14 3H6a1 1 0 0 0-1 1v16a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1V8z" /><path d="M14 3v5h5M8 13h8M8 17h5" /></>,
  'custom-forms': <><rect x="5" y="4" width="14" height="17" rx="1" /><path d="M9 4V3h6v1M8 10h8M8 14h8M8 18h4" /></>,
  events: <><rect x="3" y="5" width="18" height="16" rx="2" /><path d="M16 3v4M8 3v4M3 10h18" /></>,
  notices: <><path d="M3 11v3l13 5V6z" /><path d="M16 8a4 4 0 0 1 0 8M7 15l1 5h3l-1-4" /></>,
  'staff-members': <><rect x="4" y="3" width="16" height="18" rx="2" /><circle cx="12" cy="10" r="3" /><path d="M8 17a4 4 0 0 1 8 0" /></>,
  albums: <><rect x="3" y="6" width="14" height="14" rx="1" /><path d="M7 3h14v14M3 16l4-4 4 4 2-2 4 4" /></>,
  media: <><rect x="3" y="4" width="18" height="16" rx="2" /><circle cx="9" cy="10" r="2" /><path d="M21 16l-5-5-9 9" /></>,
  users: <><circle cx="12" cy="8" r="4" /><path d="M4 21a8 8 0 0 1 16 0" /></>,
};

/** KindIcon is the icon of an entry's kind ('screen', 'recent' or a record kind). */
export function KindIcon({ kind }: { kind: string }) {
  return svg(PATHS[kind] ?? PATHS.screen);
}
