import { api } from '../../lib/api.ts';

/** Thin calls to better-auth's endpoints (behind our validating front in src/server/auth/auth.routes.ts). */
export const authApi = {
  signUp: (body: { name: string; email: string; password: string }) => api.post('/api/auth/sign-up/email', body),
  /** With the token of the e-mailed verification link, the login also confirms the address. */
  signIn: (body: { email: string; password: string; verificationToken?: string | undefined }) => api.post('/api/auth/sign-in/email', body),
  requestPasswordReset: (email: string) => api.post('/api/auth/request-password-reset', { email }),
  /** "Send it again": the server sends at most one a minute to an address, and answers the same for any address. */
  resendVerification: (email: string) => api.post('/api/auth/send-verification-email', { email }),
  updateName: (name: string) => api.post('/api/auth/update-user', { name }),
  /** Ends every other session; this one goes on with a new cookie. */
  changePassword: (body: { currentPassword: string; newPassword: string }) => api.post('/api/auth/change-password', body),
  resetPassword: (body: { token: string; newPassword: string }) => api.post('/api/auth/reset-password', body),
  /** Leaves the app for Google; comes back to /offers with `?google=login|signup`. */
  async startGoogle(): Promise<void> {
    const { url } = await api.post<{ url: string }>('/api/auth/sign-in/social', {
      provider: 'google',
      callbackURL: '/offers?google=login',
      newUserCallbackURL: '/offers?google=signup',
      errorCallbackURL: '/login?google_error=1',
    });
    location.assign(url);
  },
  config: () => api.get<{ googleSignIn: boolean }>('/api/config'),
};
