import type { RowLink } from './CollectionTable';

/** ScreenOptions change how a collection's list reaches its editor; most collections need none. */
export interface ScreenOptions {
  /** Add goes to this route instead of opening the form modal. */
  createPath?: string;
  /** Edit goes to this route instead of opening the form modal. */
  editPath?: (id: string) => string;
  /** Extra per-row links. */
  rowLinks?: RowLink[];
}

export const SCREEN_OPTIONS: Record<string, ScreenOptions> = {
  // The form builder and submissions screens have their own routes (SPEC §2).
  'custom-forms': {
    createPath: '/custom-forms/create',
    editPath: (id) => `/custom-forms/${encodeURIComponent(id)}`,
    rowLinks: [{ label: 'View Submissions', to: (id) => `/custom-forms/${encodeURIComponent(id)}/submissions` }],
  },
};
