/**
 * Spec §8 texts shown by the app shell (navbar, return from Google), word for word. Apart from the form
 * texts in auth.messages.ts so the first page load needs neither those nor the form validation.
 */
export const sessionMessages = {
  logoutConfirm: 'Are you sure you want to log out?',
  logoutFailed: 'Failed to log out. Please try again.',
  loggedInWithGoogle: 'Logged in with Google!',
  signedUpWithGoogle: (name: string) => `Signed up with Google as ${name}!`,
} as const;
