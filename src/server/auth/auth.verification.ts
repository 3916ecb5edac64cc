import { isAPIError } from 'better-auth/api';
import { createError } from '../http/errors.ts';
import type { Auth } from './auth.ts';

export const invalidVerificationLinkMessage =
  'This verification link is invalid or has expired. Ask for a new one below.';

const invalidLink = () =>
  createError({ code: 'auth.invalid_verification_link', message: invalidVerificationLinkMessage, status: 400 });

/**
 * The address a verification token is for, read without checking the signature (`confirmAddress` checks it):
 * enough to refuse a token for another account before better-auth is asked.
 */
export function tokenEmail(token: string): string | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const email = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { email?: unknown }).email;
    return typeof email === 'string' ? email.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Marks `email` verified with the token of its e-mailed link. Called only once the account's password has
 * matched, so the address and the password are proven by the same person (docs/decisions/0003).
 */
export async function confirmAddress(auth: Auth, email: string, token: string): Promise<void> {
  if (tokenEmail(token) !== email.toLowerCase()) throw invalidLink();
  try {
    await auth.api.verifyEmail({ query: { token } });
  } catch (error) {
    // A bad signature, an expired token, an account deleted meanwhile.
    if (isAPIError(error)) throw invalidLink();
    throw error;
  }
}
