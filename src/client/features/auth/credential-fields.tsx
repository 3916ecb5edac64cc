import type { ChangeEventHandler } from 'react';
import { limits } from '../../../common/auth.messages.ts';
import { FormField, PasswordField } from '../../components/form-field.tsx';

interface CredentialProps {
  value: string;
  onChange: ChangeEventHandler<HTMLInputElement>;
  error?: string | undefined;
  /** Left out where the form's own check says what is missing (the forgot-password form). */
  required?: boolean;
}

/** An account's e-mail address: log-in, sign-up, a reset link. */
export function EmailField({ required = true, ...field }: CredentialProps) {
  return (
    <FormField
      label="Email"
      name="email"
      type="email"
      autoComplete="email"
      required={required}
      maxLength={limits.emailMax}
      {...field}
    />
  );
}

/** An account's password: the one it has (`current`, log-in) or one being chosen (`new`, with its rule). */
export function AccountPasswordField({ purpose, ...field }: CredentialProps & { purpose: 'current' | 'new' }) {
  return (
    <PasswordField
      label="Password"
      name="password"
      autoComplete={`${purpose}-password`}
      required
      maxLength={limits.passwordMax}
      hint={purpose === 'new' ? `At least ${limits.passwordMin} characters.` : undefined}
      {...field}
    />
  );
}
