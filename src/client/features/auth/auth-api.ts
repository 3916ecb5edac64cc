import { apiFetch, apiRequest, readJson } from '../../lib/api.ts';
import type { client } from '../../lib/api-client.ts';

const post = (path: string, body: unknown) => apiRequest('POST', path, body);

/** Thin calls to better-auth's endpoints (behind our validating front in src/server/auth/auth.routes.ts). */
export const authApi = {
  signUp: (body: { name: string; email: string; password: string }) => post('/api/auth/sign-up/email', body),
  /** With the token of the e-mailed verification link, the login also confirms the address. */
  signIn: (body: { email: string; password: string; verificationToken?: string | undefined }) =>
    post('/api/auth/sign-in/email', body),
  requestPasswordReset: (email: string) => post('/api/auth/request-password-reset', { email }),
  /** "Send it again": the server sends at most one a minute to an address, and answers the same for any address. */
  resendVerification: (email: string) => post('/api/auth/send-verification-email', { email }),
  /** Ends every other session; this one goes on with a new cookie. */
  changePassword: (body: { currentPassword: string; newPassword: string }) => post('/api/auth/change-password', body),
  resetPassword: (body: { token: string; newPassword: string }) => post('/api/auth/reset-password', body),
  /** Leaves the app for Google; comes back to /offers with `?google=login|signup`. */
  async startGoogle(): Promise<void> {
    const answer = await post('/api/auth/sign-in/social', {
      provider: 'google',
      callbackURL: '/offers?google=login',
      newUserCallbackURL: '/offers?google=signup',
      errorCallbackURL: '/login?google_error=1',
    });
    // better-auth's answer is not in our API's types: the one field used is checked rather than assumed.
    const url = (answer as { url?: unknown } | undefined)?.url;
    if (typeof url !== 'string') throw new Error('The answer to sign-in/social has no url.');
    location.assign(url);
  },
  /**
   * `client.api.config.$get()` without the typed client (Hono's, ~3 KB), which the login and sign-up pages
   * need for nothing else (their JavaScript budget): the same request, the answer typed by the route.
   */
  config: async () => readJson(await (apiFetch('/api/config') as ReturnType<typeof client.api.config.$get>)),
};
