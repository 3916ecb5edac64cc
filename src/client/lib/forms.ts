import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { authMessages } from '../../common/auth.messages.ts';
import { fieldErrors } from '../../common/validation.ts';
import { ApiError } from './api.ts';
import { errorText } from './error-text.ts';

/** What a form shows: one message above it, and messages next to fields. */
export interface FormErrors {
  form?: string | undefined;
  fields: Record<string, string>;
}

const noErrors: FormErrors = { fields: {} };

/** Checks values against a shared schema (the same one the server uses). */
export function validate<T>(
  schema: z.ZodType<T>,
  values: unknown,
): { data: T; errors?: undefined } | { data?: undefined; errors: FormErrors } {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { data: parsed.data };
  const { _form, ...fields } = fieldErrors(parsed.error);
  return { errors: { form: _form, fields } };
}

/** Turns a failed call into what the form shows; `fallback` is the catch-all for that form. */
export function toFormErrors(error: unknown, fallback: string = authMessages.somethingWentWrong): FormErrors {
  if (error instanceof ApiError) {
    const { _form, ...fields } = error.fields;
    const hasFields = Object.keys(fields).length > 0;
    return { form: hasFields ? _form : (_form ?? errorText(error, fallback)), fields };
  }
  return { form: errorText(error, fallback), fields: {} };
}

/**
 * The submit cycle every form shares: check with the schema, send, show what went wrong. The values stay in
 * the form's own state whatever happens, so nothing typed is lost.
 */
export function useFormSubmit<T>(args: {
  /** The schema, or a loader for it: a public page loads form validation (zod) on the first submit, not before. */
  schema: z.ZodType<T> | (() => Promise<z.ZodType<T>>);
  values: unknown;
  send: (data: T) => Promise<void>;
  toErrors?: (error: unknown) => FormErrors;
  /** Asked once the values are valid, before anything is sent or the form looks busy; false stops here. */
  confirm?: (data: T) => Promise<boolean>;
}) {
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    let schema: z.ZodType<T>;
    try {
      schema = typeof args.schema === 'function' ? await args.schema() : args.schema;
    } catch (error) {
      // Its chunk could not be fetched (offline before it was ever cached).
      return setErrors(toFormErrors(error));
    }
    const checked = validate(schema, args.values);
    if (checked.errors) return setErrors(checked.errors);
    setErrors(noErrors);
    if (args.confirm && !(await args.confirm(checked.data))) return;
    setBusy(true);
    setErrors(noErrors);
    try {
      await args.send(checked.data);
    } catch (error) {
      setErrors((args.toErrors ?? toFormErrors)(error));
    } finally {
      setBusy(false);
    }
  }

  return { errors, busy, onSubmit };
}
