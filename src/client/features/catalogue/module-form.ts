import { useState } from 'react';
import { catalogueMessages, randToCents, type Module } from '../../../common/catalogue.ts';
import { ApiError, NetworkError } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { toFormErrors, type FormErrors } from '../../lib/forms.ts';
import { toast } from '../../lib/toast.ts';

/** The add and edit forms' values, as typed. */
export type ModuleFormValues = { name: string; price: string; category: string; description: string; topics: string };

export const emptyForm: ModuleFormValues = { name: '', price: '', category: '', description: '', topics: '' };

/** "Limits, Derivatives\nIntegrals" → three topics: one per line or comma-separated, blanks dropped. */
export const parseTopics = (text: string) =>
  text
    .split(/[\n,]/)
    .map((t) => t.trim())
    .filter(Boolean);

const priceFormatError = 'Enter the price in rand, for example 90 or 90.50.';

/**
 * The typed price as the schema should see it: blank is `blank` (missing), and text that is not a price is
 * NaN, which the schema refuses like any bad price (and `fieldMessage` words as `priceFormatError`), so
 * the other fields are still checked.
 */
export const typedCents = <B>(text: string, blank: B) =>
  text.trim() === '' ? blank : (randToCents(text) ?? Number.NaN);

/** 9050 → "90.50", 9000 → "90": a price as the admin types it. */
const centsToRandText = (cents: number) => (cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2));

/** A module as the edit form opens with it. */
export const toFormValues = (module: Module): ModuleFormValues => ({
  name: module.name,
  price: centsToRandText(module.priceCents),
  category: module.category,
  description: module.description,
  topics: module.topics.join('\n'),
});

/** The form's price field and the schema's, so a message lands next to the field it is about. */
const valueKey = (field: string) => (field === 'priceCents' ? 'price' : field);

/**
 * A field's message is about the value that was sent: once the admin changes that field it no longer
 * applies (a name refused as taken says nothing about the next name), so it goes, and the other fields'
 * messages stay.
 */
export function useMessagesForSentValues(values: ModuleFormValues) {
  const [sent, setSent] = useState<ModuleFormValues>();
  return {
    markSent: () => setSent(values),
    stillApplies: (field: string) => {
      const key = valueKey(field) as keyof ModuleFormValues;
      return sent !== undefined && sent[key] === values[key];
    },
  };
}

/** What a failed catalogue write shows: offline and bad input in the form, anything else as the spec's text. */
export function writeErrors(fallback: string) {
  return (error: unknown): FormErrors => {
    if (error instanceof ApiError && error.status === 409)
      return { fields: { name: error.message || catalogueMessages.duplicateName } };
    if (error instanceof ApiError && error.status === 400) return toFormErrors(error, fallback);
    const form = errorText(error, fallback, { offline: catalogueMessages.offline });
    if (!(error instanceof NetworkError)) toast.error(form);
    return { form, fields: {} };
  };
}

/** What a field shows: the spec's one message for a missing field is 'Required.' next to each (spec §5). */
export function fieldMessage(
  errors: FormErrors,
  field: string,
  values: ModuleFormValues,
  stillApplies: (field: string) => boolean,
): string | undefined {
  const message = stillApplies(field) ? errors.fields[field] : undefined;
  // A price that is there but is not a price is its own mistake, not a missing field.
  if (message && field === 'priceCents' && Number.isNaN(typedCents(values.price, 0))) return priceFormatError;
  return message === catalogueMessages.fillAllFields ? 'Required.' : message;
}

/** `set('name')`: the change handler that writes one field of the form's values. */
export const setter =
  (setValues: React.Dispatch<React.SetStateAction<ModuleFormValues>>) =>
  (key: keyof ModuleFormValues) =>
  (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));
