import { z } from 'zod';
import { authMessages, fieldErrors } from '../../../common/auth.schemas.ts';
import { api, ApiError, NetworkError } from '../../lib/api.ts';

/** Thin calls to better-auth's endpoints (behind our validating front in src/server/auth/auth.routes.ts). */
export const authApi = {
  signUp: (body: { name: string; email: string; password: string }) =>
    api.post('/api/auth/sign-up/email', { ...body, callbackURL: '/login?verified=1' }),
  signIn: (body: { email: string; password: string }) => api.post('/api/auth/sign-in/email', body),
  requestPasswordReset: (email: string) =>
    api.post('/api/auth/request-password-reset', { email, redirectTo: `${location.origin}/change-password` }),
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

export interface FormErrors {
  form?: string | undefined;
  fields: Record<string, string>;
}

/** Checks a form against the shared schema; `undefined` when it passes. */
export function validate<T>(schema: z.ZodType<T>, values: unknown): { data: T; errors?: undefined } | { data?: undefined; errors: FormErrors } {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { data: parsed.data };
  const { _form, ...fields } = fieldErrors(parsed.error);
  return { errors: { form: _form, fields } };
}

/** Turns a failed call into what the form shows; `fallback` is the spec's catch-all for that form. */
export function toFormErrors(error: unknown, fallback: string = authMessages.somethingWentWrong): FormErrors {
  if (error instanceof ApiError) {
    const { _form, ...fields } = error.fields;
    const hasFields = Object.keys(fields).length > 0;
    return { form: hasFields ? _form : (_form ?? (error.status >= 500 ? fallback : error.message)), fields };
  }
  if (error instanceof NetworkError) return { form: error.message, fields: {} };
  return { form: fallback, fields: {} };
}
