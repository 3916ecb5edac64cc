import { z } from './zod.ts';
import { authMessages, limits } from './auth.messages.ts';

export { authMessages, limits };

const email = z
  .string()
  .trim()
  .min(1, authMessages.emailRequired)
  .max(limits.emailMax, `Email must be at most ${limits.emailMax} characters.`)
  .pipe(z.email(authMessages.invalidEmail));

const password = z
  .string()
  .min(limits.passwordMin, `Password must be at least ${limits.passwordMin} characters.`)
  .max(limits.passwordMax, `Password must be at most ${limits.passwordMax} characters.`);

export const signUpInputSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'Please enter your name.')
    .max(limits.nameMax, `Name must be at most ${limits.nameMax} characters.`),
  email,
  password,
});
export type SignUpInput = z.infer<typeof signUpInputSchema>;

export const loginInputSchema = z.strictObject({
  email,
  password: z.string().min(1, 'Please enter your password.').max(limits.passwordMax, `Password must be at most ${limits.passwordMax} characters.`),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

export const passwordResetRequestSchema = z.strictObject({ email });
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

export const newPasswordSchema = z.strictObject({ token: z.string().min(1), newPassword: password });
export type NewPasswordInput = z.infer<typeof newPasswordSchema>;
