import type { ComponentType } from 'react';
import { formDeleteMessage } from '../forms/formDelete';
import { AddPageModal } from '../pages/AddPageModal';
import { signOutUser } from '../../api/twoFactor';
import { sendNewsletter, sendTest } from '../../api/newsletters';
import type { RowAction, RowLink } from './CollectionTable';

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
  // A newsletter is tested on the sender's own address, then sent to every confirmed signup;
  // the list shows its state and counts as the sending goes (issue 33).
  newsletters: {
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
