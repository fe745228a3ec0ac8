/** The page screens' texts (SPEC §5, §8), verbatim. */
export const PAGE_MSG = {
  titleRequired: 'Title is required!',
  created: 'Page created successfully!',
  createFailed: 'Error in creating page!',
  leave: 'You have unsaved changes. Leave this page and lose them?',
  conflict:
    'Someone else saved this page after you opened it, so your save was not applied. Your changes are still here: copy what you need, then reload to see the latest version.',
} as const;
