import { z } from './zod.ts';
import { authMessages, limits } from './auth.messages.ts';
import { isOneLine, textMessages } from './validation.ts';

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

/** A display name: what sign-up, the profile and the staff CLI accept. */
export const nameSchema = z
  .string()
  .trim()
  .min(1, 'Please enter your name.')
  .max(limits.nameMax, `Name must be at most ${limits.nameMax} characters.`)
  .refine(isOneLine, textMessages.oneLine);

export const signUpInputSchema = z.strictObject({ name: nameSchema, email, password });
export type SignUpInput = z.infer<typeof signUpInputSchema>;

export const loginInputSchema = z.strictObject({
  email,
  password: z
    .string()
    .min(1, 'Please enter your password.')
    .max(limits.passwordMax, `Password must be at most ${limits.passwordMax} characters.`),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

/**
 * A login that also confirms the address: the token comes from the e-mailed verification link, which opens
 * the login page (docs/decisions/0003). A JWT of a few hundred characters; bounded so it cannot be a payload.
 */
export const confirmingLoginInputSchema = loginInputSchema.extend({
  verificationToken: z.string().min(1).max(2000).optional(),
});
export type ConfirmingLoginInput = z.infer<typeof confirmingLoginInputSchema>;

export const passwordResetRequestSchema = z.strictObject({ email });
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

/** "Send the link again" on the check-your-inbox screen. */
export const resendVerificationSchema = z.strictObject({ email });

export const newPasswordSchema = z.strictObject({ token: z.string().min(1).max(200), newPassword: password });
export type NewPasswordInput = z.infer<typeof newPasswordSchema>;

/** The profile's name form. */
export const updateNameSchema = z.strictObject({ name: nameSchema });
export type UpdateNameInput = z.infer<typeof updateNameSchema>;

/** The profile's password form: the current password is asked for again, whatever the session. */
export const changePasswordSchema = z.strictObject({
  currentPassword: z
    .string()
    .min(1, 'Please enter your current password.')
    .max(limits.passwordMax, `Password must be at most ${limits.passwordMax} characters.`),
  newPassword: password,
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;
