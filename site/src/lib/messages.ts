/** User-facing texts from SPEC §5 and §8, kept verbatim in one place. */
export const MSG = {
  generic: 'Some error occured!',
  /** The server's 403 message, shown when a 403 comes without one. */
  forbidden: 'You do not have permission to do this.',
  loginFailed: 'Could not login!',
  loginSuccess: 'Logged in Successfully!',
  fillDetails: 'Please Fill Details!',
  tenantNotFound: 'Could not find institution!',
  profileFailed: 'Could not update profile!',
  profileUpdated: 'Profile updated!',
  mandatory: 'Please fillup mandatory fields!',
  invalidEmail: 'Please enter a valid email!',
  invalidPhone: 'Please enter a 10 digit phone number!',
  shortPassword: 'Password should be atleast 6 characters!',
  invalidPasscode: 'Passcode must be exactly 6 digits!',
  comingLater: 'This screen is coming in a later release.',
  confirmDelete: 'Do you really want to delete?',
  menuSaved: 'Menu Items Updated',
  menuSaveFailed: 'Error in saving changes!',
  unsavedChanges: 'You have unsaved changes. Leave without saving them?',
  themeSettingsSaved: 'Theme settings updated!',
  themeActivated: (name: string) => `Active theme now updated to ${name}!`,
} as const;
