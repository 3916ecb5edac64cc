import { useEffect, useId, useRef, useState } from 'react';
import {
  createTestimonialInputSchema,
  testimonialLimits,
  testimonialMessages,
  updateTestimonialInputSchema,
  type Testimonial,
} from '../../../common/testimonials.ts';
import { FormField, TextareaField } from '../../components/form-field.tsx';
import { Notice } from '../../components/notice.tsx';
import { SaveCancel } from '../../components/save-cancel.tsx';
import { ApiError, isOffline, NetworkError } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { toFormErrors, useFormSubmit, type FormErrors } from '../../lib/forms.ts';
import { toast } from '../../lib/toast.ts';
import { testimonialsAdminApi } from './testimonials-admin-api.ts';

type Values = { name: string; course: string; quote: string };
const empty: Values = { name: '', course: '', quote: '' };

/** Bad input next to its field; offline and anything else above the form. */
const writeErrors =
  (fallback: string) =>
  (error: unknown): FormErrors =>
    error instanceof ApiError && error.status === 400
      ? toFormErrors(error, fallback)
      : { form: errorText(error, fallback, { offline: testimonialMessages.offline }), fields: {} };

/**
 * Adds a testimonial (no `testimonial`), or edits one: only the fields the admin changed are sent, so what
 * another admin changed meanwhile (hiding it, say) is not written back over. `onDone` gets what the server saved.
 */
export function TestimonialForm({
  testimonial,
  onDone,
  onCancel,
}: {
  testimonial?: Testimonial;
  onDone: (saved: Testimonial) => void;
  onCancel: () => void;
}) {
  const headingId = useId();
  const form = useRef<HTMLFormElement>(null);
  const [initial] = useState<Values>(() =>
    testimonial ? { name: testimonial.name, course: testimonial.course, quote: testimonial.quote } : empty,
  );
  const [values, setValues] = useState(initial);
  const changes = Object.fromEntries(
    (Object.keys(empty) as (keyof Values)[])
      .filter((key) => values[key] !== initial[key])
      .map((key) => [key, values[key]]),
  );
  const { errors, busy, onSubmit } = useFormSubmit({
    schema: testimonial ? updateTestimonialInputSchema : createTestimonialInputSchema,
    values: testimonial ? changes : values,
    toErrors: writeErrors(testimonial ? testimonialMessages.updateFailed : testimonialMessages.addFailed),
    send: async (data) => {
      if (isOffline()) throw new NetworkError();
      const saved = testimonial
        ? await testimonialsAdminApi.update(testimonial.id, data)
        : // Without a testimonial the schema was the add form's: every field is there.
          await testimonialsAdminApi.create(data as Values);
      toast.success(testimonial ? testimonialMessages.updated : testimonialMessages.added);
      onDone(saved);
    },
  });

  useEffect(() => {
    form.current?.querySelector('input')?.focus();
  }, []);

  const set = (key: keyof Values) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));
  const title = testimonial ? `Edit the testimonial of ${testimonial.name}` : 'Add a testimonial';

  return (
    <form
      ref={form}
      noValidate
      aria-labelledby={headingId}
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        // Saving what is already there needs no request.
        if (testimonial && Object.keys(changes).length === 0) {
          event.preventDefault();
          return onCancel();
        }
        void onSubmit(event);
      }}
    >
      <h3 id={headingId} className={testimonial ? 'sr-only' : 'text-lg font-semibold'}>
        {title}
      </h3>
      {errors.form && <Notice tone="error">{errors.form}</Notice>}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Student’s name"
          name="name"
          autoComplete="off"
          maxLength={testimonialLimits.nameMax}
          value={values.name}
          onChange={set('name')}
          error={errors.fields.name}
        />
        <FormField
          label="Course"
          name="course"
          autoComplete="off"
          hint="For example COMP102 or FET Mathematics."
          maxLength={testimonialLimits.courseMax}
          value={values.course}
          onChange={set('course')}
          error={errors.fields.course}
        />
      </div>
      <TextareaField
        label="Quote"
        name="quote"
        rows={4}
        maxLength={testimonialLimits.quoteMax}
        hint={`Up to ${testimonialLimits.quoteMax} characters.`}
        value={values.quote}
        onChange={set('quote')}
        error={errors.fields.quote}
      />
      <SaveCancel busy={busy} saveLabel={testimonial ? 'Save changes' : 'Add testimonial'} onCancel={onCancel} />
    </form>
  );
}
