/**
 * Spec §8 texts, word for word. The client shows them; the server maps its refusals to them. Not its
 * password-reset "user-not-found" text: every address gets the same answer (DESIGN "Product decisions").
 */
export const authMessages = {
  incorrectCredentials: 'Incorrect email or password. Please try again.',
  tooManyAttempts: 'Too many login attempts. Please wait and try again later.',
  somethingWentWrong: 'Something went wrong. Please try again later.',
  verifyFirst: 'Please verify your email before logging in. Check your inbox or spam folder.',
  welcome: (name: string) => `Welcome, ${name}! Please check your email inbox or spam folder to verify your account.`,
  resetSent: 'Password reset email sent! Check your inbox.',
  invalidEmail: 'Invalid email address. Please enter a valid email.',
  resetFailed: 'Failed to send password reset email. Please try again.',
  emailRequired: 'Please enter your email address.',
} as const;

export const limits = {
  nameMax: 100,
  /** Long enough for any passphrase; bounded so hashing cannot be used to burn CPU. */
  passwordMax: 128,
  passwordMin: 8,
  emailMax: 254,
} as const;
