import { lazy, type ComponentType } from 'react';
import { formDeleteMessage } from '../forms/formDelete';
import { AddPageModal } from '../pages/AddPageModal';
import { signOutUser } from '../../api/twoFactor';
import { sendNewsletter, sendTest } from '../../api/newsletters';
import type { ApiRecord } from '../../lib/collections';
import { NewsletterState } from '../newsletters/NewsletterState';
import { refreshInterval as newsletterRefresh } from '../newsletters/newsletter';
import type { RowAction, RowDialog, RowLink } from './CollectionTable';

/** FormDialog is a button of the create/edit form opening a dialog over it with what the form holds (its payload, unsaved). */
export interface FormDialog {
  label: string;
  Dialog: ComponentType<{ body: Record<string, unknown>; onClose: () => void }>;
}

// The newsletter preview is its own chunk, fetched when a preview is first opened.
const RowPreview = lazy(() => import('../newsletters/NewsletterPreview').then((m) => ({ default: m.RowPreview })));
const DraftPreview = lazy(() => import('../newsletters/NewsletterPreview').then((m) => ({ default: m.DraftPreview })));

/** ScreenOptions change how a collection's list reaches its editor; most collections need none. */
export interface ScreenOptions {
  /** Add goes to this route instead of opening the form modal. */
  createPath?: string;
  /** Add opens this dialog instead of the generic form (it handles what follows the create). */
  CreateModal?: ComponentType<{ onClose: () => void }>;
  /** Edit goes to this route instead of opening the form modal. */
  editPath?: (id: string) => string;
  /** Extra per-row links. */
  rowLinks?: RowLink[];
  /** Extra per-row actions (shown to those who may edit), each confirmed first. */
  rowActions?: RowAction[];
  /** Extra per-row dialogs (shown to every viewer), opened without a question: a preview. */
  rowDialogs?: RowDialog[];
  /** Dialogs the create/edit form opens over itself with what it holds (a preview of unsaved input). */
  formDialogs?: FormDialog[];
  /** Cells drawn by their own component instead of by field type, by field name. */
  cells?: Record<string, ComponentType<{ row: ApiRecord }>>;
  /** How often (ms) the list is read again given the rows on screen; 0 or absent: never on its own. */
  refreshInterval?: (rows: ApiRecord[]) => number;
  /** The delete confirmation's text, when it says more than SPEC's question (what goes with the record). */
  deleteMessage?: (id: string) => Promise<string>;
}

export const SCREEN_OPTIONS: Record<string, ScreenOptions> = {
  // SPEC §2: 'Add Page' asks for a title and description, then opens the page editor.
  pages: { CreateModal: AddPageModal, editPath: (id) => `/pages/${encodeURIComponent(id)}` },
  // The form builder and submissions screens have their own routes (SPEC §2).
  'custom-forms': {
    createPath: '/custom-forms/create',
    editPath: (id) => `/custom-forms/${encodeURIComponent(id)}`,
    rowLinks: [{ label: 'View Submissions', to: (id) => `/custom-forms/${encodeURIComponent(id)}/submissions` }],
    // A form goes to the trash with its submissions: the confirmation says how many.
    deleteMessage: formDeleteMessage,
  },
  // A newsletter is previewed (saved, or unsaved from its form), tested on the sender's own
  // address, then sent to every confirmed signup; while it is being sent its row shows its
  // progress, read again every few seconds, and the list its counts (issue 33).
  newsletters: {
    rowDialogs: [{ label: 'Preview', Dialog: RowPreview }],
    formDialogs: [{ label: 'Preview', Dialog: DraftPreview }],
    cells: { state: NewsletterState },
    refreshInterval: newsletterRefresh,
    rowActions: [
      {
        label: 'Send a test to me',
        confirm: (row) => `Send "${String(row.subject ?? 'this newsletter')}" to your own email address as a test?`,
        run: (row) => sendTest(row.id),
      },
      {
        label: 'Send',
        confirm: (row) =>
          `Send "${String(row.subject ?? 'this newsletter')}" to every confirmed subscriber now? A newsletter cannot be changed or sent again once it is sent.`,
        run: (row) => sendNewsletter(row.id),
      },
    ],
  },
  // An administrator (or a user who may edit users) ends every session of a user.
  users: {
    rowActions: [
      {
        label: 'Sign out everywhere',
        confirm: (row) => `Sign ${String(row.username ?? 'this user')} out on every device?`,
        run: (row) => signOutUser(row.id),
      },
    ],
  },
};
