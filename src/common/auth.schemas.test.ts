import { sessionMessages } from './session.messages.ts';
import { fieldErrors } from './validation.ts';
import { describe, expect, test } from 'vitest';
import {
  authMessages,
  limits,
  loginInputSchema,
  newPasswordSchema,
  passwordResetRequestSchema,
  signUpInputSchema,
} from './auth.schemas.ts';

const valid = { name: 'Naledi Sithole', email: 'naledi@example.com', password: 'correct horse' };

/** The per-field messages a form would show for `input`, or undefined when it passes. */
function errorsOf(schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, input: unknown) {
  const result = schema.safeParse(input);
  return result.success ? undefined : fieldErrors(result.error as never);
}

describe('sign-up form', () => {
  test('accepts a valid form and trims the name and e-mail', () => {
    expect(signUpInputSchema.parse({ ...valid, name: '  Naledi Sithole ', email: ' naledi@example.com  ' })).toEqual(
      valid,
    );
  });

  test('keeps the password exactly as typed, spaces included', () => {
    expect(signUpInputSchema.parse({ ...valid, password: '  spaced out  ' }).password).toBe('  spaced out  ');
  });

  test.each([
    [{ email: 'naledi@' }, { email: 'Invalid email address. Please enter a valid email.' }],
    [{ email: 'naledi.example.com' }, { email: 'Invalid email address. Please enter a valid email.' }],
    [{ email: '   ' }, { email: 'Please enter your email address.' }],
    [{ email: `${'a'.repeat(245)}@example.com` }, { email: 'Email must be at most 254 characters.' }],
    [{ name: '' }, { name: 'Please enter your name.' }],
    [{ name: ' \t ' }, { name: 'Please enter your name.' }],
    [{ name: 'n'.repeat(101) }, { name: 'Name must be at most 100 characters.' }],
    [{ password: 'x'.repeat(7) }, { password: 'Password must be at least 8 characters.' }],
    [{ password: 'x'.repeat(129) }, { password: 'Password must be at most 128 characters.' }],
    [{ role: 'admin' }, { _form: 'Unknown field: role.' }],
    [{ role: 'admin', isAdmin: true }, { _form: 'Unknown fields: role, isAdmin.' }],
    [
      { name: '', email: 'x', password: '' },
      {
        name: 'Please enter your name.',
        email: 'Invalid email address. Please enter a valid email.',
        password: 'Password must be at least 8 characters.',
      },
    ],
  ])('refuses %j with %j', (override, expected) => {
    expect(errorsOf(signUpInputSchema, { ...valid, ...override })).toEqual(expected);
  });

  test('accepts the limits exactly', () => {
    expect(limits).toEqual({ nameMax: 100, passwordMax: 128, passwordMin: 8, emailMax: 254 });
    expect(errorsOf(signUpInputSchema, { ...valid, name: 'n'.repeat(100), password: 'p'.repeat(128) })).toBeUndefined();
    expect(errorsOf(signUpInputSchema, { ...valid, password: 'p'.repeat(8) })).toBeUndefined();
  });

  test('a missing field gets a message of its own', () => {
    const errors = errorsOf(signUpInputSchema, { email: valid.email });
    expect(Object.keys(errors ?? {}).sort()).toEqual(['name', 'password']);
  });
});

describe('login form', () => {
  test('needs a password, of any length up to the limit', () => {
    expect(loginInputSchema.parse({ email: valid.email, password: 'x' })).toEqual({
      email: valid.email,
      password: 'x',
    });
    expect(errorsOf(loginInputSchema, { email: valid.email, password: '' })).toEqual({
      password: 'Please enter your password.',
    });
    expect(errorsOf(loginInputSchema, { email: valid.email, password: 'x'.repeat(129) })).toEqual({
      password: 'Password must be at most 128 characters.',
    });
  });

  test('checks the e-mail like sign-up does', () => {
    expect(errorsOf(loginInputSchema, { email: 'nope', password: 'x' })).toEqual({ email: authMessages.invalidEmail });
  });
});

describe('password reset forms', () => {
  test('the request needs an e-mail (spec message when empty)', () => {
    expect(errorsOf(passwordResetRequestSchema, { email: '' })).toEqual({ email: 'Please enter your email address.' });
    expect(passwordResetRequestSchema.parse({ email: ' a@example.com ' })).toEqual({ email: 'a@example.com' });
  });

  test('the new password follows the sign-up rules and needs a token', () => {
    expect(errorsOf(newPasswordSchema, { token: 't', newPassword: 'short' })).toEqual({
      newPassword: 'Password must be at least 8 characters.',
    });
    expect(errorsOf(newPasswordSchema, { token: '', newPassword: 'long enough' })).toHaveProperty('token');
    expect(newPasswordSchema.parse({ token: 't', newPassword: 'long enough' })).toEqual({
      token: 't',
      newPassword: 'long enough',
    });
  });
});

describe('spec messages', () => {
  test('are word for word', () => {
    expect(authMessages.incorrectCredentials).toBe('Incorrect email or password. Please try again.');
    expect(authMessages.tooManyAttempts).toBe('Too many login attempts. Please wait and try again later.');
    expect(authMessages.verifyFirst).toBe(
      'Please verify your email before logging in. Check your inbox or spam folder.',
    );
    expect(authMessages.invalidEmail).toBe('Invalid email address. Please enter a valid email.');
    expect(authMessages.welcome('Naledi')).toBe(
      'Welcome, Naledi! Please check your email inbox or spam folder to verify your account.',
    );
    expect(sessionMessages.signedUpWithGoogle('Naledi')).toBe('Signed up with Google as Naledi!');
  });
});
