import { describe, expect, test } from 'vitest';
import { authMessages } from '../../common/auth.messages.ts';
import { signUpInputSchema } from '../../common/auth.schemas.ts';
import { ApiError, NetworkError } from './api.ts';
import { toFormErrors, validate } from './forms.ts';

describe('checking a form before it is sent', () => {
  test('valid values come back as the data to send, with no errors', () => {
    const values = { name: 'Thandi Mokoena', email: 'thandi@example.com', password: 'correct horse battery' };
    expect(validate(signUpInputSchema, values)).toEqual({ data: values });
  });

  test('each bad field gets its own message, the first one only', () => {
    const { errors } = validate(signUpInputSchema, { name: '', email: '', password: 'short' });
    expect(errors).toEqual({
      form: undefined,
      fields: {
        name: 'Please enter your name.',
        email: authMessages.emailRequired,
        password: 'Password must be at least 8 characters.',
      },
    });
  });

  test('a field the form does not know is said above the form, not next to a field', () => {
    const { errors } = validate(signUpInputSchema, {
      name: 'Thandi',
      email: 'thandi@example.com',
      password: 'correct horse battery',
      role: 'admin',
    });
    expect(errors).toEqual({ form: 'Unknown field: role.', fields: {} });
  });
});

describe('showing why the server refused a form', () => {
  test("the server's field messages go next to their fields, with no message above the form", () => {
    const refusal = new ApiError(400, 'validation', 'Check the form.', { email: authMessages.invalidEmail });
    expect(toFormErrors(refusal)).toEqual({ form: undefined, fields: { email: authMessages.invalidEmail } });
  });

  test("a refusal without fields shows the server's message above the form", () => {
    const refusal = new ApiError(401, 'auth.invalid_credentials', authMessages.incorrectCredentials);
    expect(toFormErrors(refusal)).toEqual({ form: authMessages.incorrectCredentials, fields: {} });
  });

  test("a server failure shows the form's catch-all, never the server's own words", () => {
    const failure = new ApiError(500, 'internal', 'TypeError: cannot read properties of undefined');
    expect(toFormErrors(failure, 'Could not save your profile.')).toEqual({
      form: 'Could not save your profile.',
      fields: {},
    });
    expect(toFormErrors(failure)).toEqual({ form: authMessages.somethingWentWrong, fields: {} });
  });

  test('being offline is said as such', () => {
    const offline = new NetworkError();
    expect(toFormErrors(offline)).toEqual({ form: offline.message, fields: {} });
  });
});
