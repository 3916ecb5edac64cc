import { useId } from 'react';
import { useSyncStatus } from '../../offline/hooks.ts';
import { PackageQuote } from './package-quote.tsx';
import { BookingFields } from './booking-fields.tsx';
import { BookingQuote } from './booking-quote.tsx';
import { weeksOf, type ModuleInfo } from './booking-rules.ts';
import { BookingStatusLine, statusOf } from './booking-status.tsx';
import { DraftQuestionLink } from './question-link.tsx';
import { useBookingForm, type QuestionLink } from './use-booking-form.ts';
import { WaitingActions } from './waiting-actions.tsx';

/** Where the form will be, while the module or the lead time is still being read. */
export function BookingFormSkeleton() {
  return <div aria-hidden className="card h-96 animate-pulse bg-slate-100 lg:order-first dark:bg-slate-800" />;
}

/**
 * Spec §4 Booking form: the fields, the price, the status line, and Submit (or, while the request is on its
 * way, where to go next). The state and the submit are useBookingForm's.
 */
export function BookingForm({ module, link }: { module: ModuleInfo; link?: QuestionLink }) {
  const { formRef, me, values, leadHours, ready, current, waiting, submitting, localError, shown, set, submit, clear } =
    useBookingForm(module, link);
  const { online } = useSyncStatus();
  const quoteId = useId();

  // The form waits for the server's lead time (or, offline, the one it said last): its hint and the date's
  // first day are then right from the first render.
  if (!values || !me || leadHours === undefined || !ready) return <BookingFormSkeleton />;
  return (
    <form
      ref={formRef}
      noValidate
      aria-labelledby="booking-form-title"
      className="card flex flex-col gap-5 lg:order-first"
      onSubmit={(e) => void submit(e)}
    >
      <h2 id="booking-form-title" className="text-xl font-semibold">
        Your session
      </h2>
      {values.questionId && (
        <DraftQuestionLink questionId={values.questionId} onRemove={() => set({ questionId: null })} />
      )}
      <BookingFields
        category={module.category}
        values={values}
        errors={shown}
        leadHours={leadHours}
        disabled={waiting || submitting}
        onChange={set}
      />
      <BookingQuote id={quoteId} hours={values.hours} rateCents={module.rateCents} weeks={weeksOf(values)}>
        <PackageQuote userId={me.id} module={module} date={values.date} />
      </BookingQuote>
      <BookingStatusLine status={statusOf(current, online, submitting)} localError={localError} />
      {waiting ? (
        <WaitingActions onAnother={clear} />
      ) : (
        <button type="submit" className="btn-primary self-start" aria-describedby={quoteId} disabled={submitting}>
          Submit booking request
        </button>
      )}
    </form>
  );
}
