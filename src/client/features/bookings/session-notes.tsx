import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { Booking } from '../../../common/bookings.ts';
import { sessionMessages, sessionNotesLimits } from '../../../common/session-notes.ts';
import { TextareaField } from '../../components/form-field.tsx';
import { ApiError, isOffline, isSessionEnded } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { toast } from '../../lib/toast.ts';
import { engine } from '../../offline/engine.ts';
import { bookingsApi } from './bookings-api.ts';
import { offlineText, storeBookings } from './use-bookings.ts';

/**
 * From a question to a session, after it (issue 39 §4): the question a booking came from, the tutor's notes the
 * student reads with her booking (from IndexedDB, so offline too), her consent to a summary on her question, and
 * the staff's notes form and "Post summary". Changes need the connection, as the staff's changes do.
 */

/** Sends one change and keeps the server's copy of the booking; offline or refused, says why. */
async function send(action: () => Promise<Booking>, failed: string): Promise<Booking | undefined> {
  if (isOffline()) {
    toast.error(offlineText);
    return undefined;
  }
  const generation = engine.generation();
  try {
    const booking = await action();
    await storeBookings([booking], generation);
    return booking;
  } catch (error) {
    if (!isSessionEnded(error))
      toast.error(error instanceof ApiError && error.status < 500 ? error.message : errorText(error, failed));
    return undefined;
  }
}

/** "From your question: …", linking to it on the board. */
export function BookingQuestion({ booking, forStaff = false }: { booking: Booking; forStaff?: boolean }) {
  if (!booking.question) return null;
  return (
    <p className="mt-3 text-sm">
      <span className="text-slate-600 dark:text-slate-400">
        {forStaff ? sessionMessages.fromQuestionStaff : sessionMessages.fromQuestion}
      </span>{' '}
      <Link to={`/qa/${booking.question.id}`} className="link">
        {booking.question.title || 'the question on the board'}
      </Link>
    </p>
  );
}

/** The tutor's notes, as the student and the staff read them. */
export function SessionNotesView({ booking }: { booking: Booking }) {
  const titleId = useId();
  const { notes } = booking;
  if (!notes) return null;
  return (
    <section aria-labelledby={titleId} className="mt-4 rounded-lg border border-slate-200 p-3 dark:border-slate-700">
      <h4 id={titleId} className="font-semibold">
        {sessionMessages.notesTitle}
        <span className="font-normal text-slate-600 dark:text-slate-400"> by {notes.by.name}</span>
      </h4>
      <dl className="mt-2 flex flex-col gap-2">
        <div>
          <dt className="text-sm text-slate-600 dark:text-slate-400">{sessionMessages.covered}</dt>
          <dd className="whitespace-pre-line break-words">{notes.covered}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600 dark:text-slate-400">{sessionMessages.practise}</dt>
          <dd className="whitespace-pre-line break-words">{notes.practise}</dd>
        </div>
      </dl>
      {booking.summaryPostedAt && booking.question && (
        <p className="mt-2 text-sm">
          {sessionMessages.summaryPostedOn}{' '}
          <Link to={`/qa/${booking.question.id}`} className="link">
            Read it
          </Link>
        </p>
      )}
    </section>
  );
}

/** The student's consent to a summary on her question: once there are notes and the booking came from one. */
export function SummaryConsent({ booking }: { booking: Booking }) {
  // What she ticked, shown at once while it is sent; the booking's own value again once it is back (or refused).
  const [ticked, setTicked] = useState<boolean>();
  if (!booking.notes || !booking.question || booking.summaryPostedAt) return null;
  const toggle = async (consent: boolean) => {
    setTicked(consent);
    await send(() => bookingsApi.setSummaryConsent(booking.id, consent, booking.version), 'Your choice was not saved.');
    setTicked(undefined);
  };
  return (
    <label className="mt-3 flex min-h-11 items-center gap-3">
      <input
        type="checkbox"
        className="size-5 shrink-0"
        checked={ticked ?? Boolean(booking.summaryConsentAt)}
        disabled={ticked !== undefined}
        onChange={(e) => void toggle(e.target.checked)}
      />
      {sessionMessages.consentLabel}
    </label>
  );
}

/** The staff's part: the notes form once the session is Completed, and the summary once she agreed. */
export function StaffSessionNotes({ booking, nameId }: { booking: Booking; nameId: string }) {
  const [covered, setCovered] = useState(booking.notes?.covered ?? '');
  const [practise, setPractise] = useState(booking.notes?.practise ?? '');
  const [busy, setBusy] = useState(false);
  if (booking.status !== 'Completed') return null;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const done = await send(
      () => bookingsApi.writeNotes(booking.id, { covered, practise, version: booking.version }),
      'The notes were not saved.',
    );
    setBusy(false);
    if (done) toast.success(sessionMessages.notesSaved);
  };
  const post = async () => {
    setBusy(true);
    const done = await send(() => bookingsApi.postSummary(booking.id, booking.version), 'The summary was not posted.');
    setBusy(false);
    if (done) toast.success(sessionMessages.summaryPosted);
  };
  const canPost = booking.notes && booking.question && booking.summaryConsentAt && !booking.summaryPostedAt;
  return (
    <div className="mt-4 flex flex-col gap-3">
      <h4 className="font-semibold">Notes for the student</h4>
      <form className="flex flex-col gap-3" onSubmit={(e) => void save(e)} aria-describedby={nameId}>
        {/* The server's limit, so that a long note is stopped where it is typed, not refused with it. */}
        <TextareaField
          label={sessionMessages.covered}
          rows={3}
          value={covered}
          maxLength={sessionNotesLimits.textMax}
          onChange={(e) => setCovered(e.target.value)}
        />
        <TextareaField
          label={sessionMessages.practise}
          rows={3}
          value={practise}
          maxLength={sessionNotesLimits.textMax}
          onChange={(e) => setPractise(e.target.value)}
        />
        <button type="submit" className="btn-secondary self-start" disabled={busy}>
          {booking.notes ? 'Save the notes' : 'Write the notes'}
        </button>
      </form>
      {booking.question && !booking.summaryPostedAt && !booking.summaryConsentAt && booking.notes && (
        <p className="text-sm text-slate-600 dark:text-slate-400">{sessionMessages.awaitingConsent}</p>
      )}
      {booking.summaryPostedAt && booking.question && (
        <p className="text-sm">
          {sessionMessages.summaryPostedOn}{' '}
          <Link to={`/qa/${booking.question.id}`} className="link">
            Read it
          </Link>
        </p>
      )}
      {canPost && (
        <button
          type="button"
          className="btn-primary self-start"
          aria-describedby={nameId}
          disabled={busy}
          onClick={() => void post()}
        >
          {sessionMessages.postSummary}
        </button>
      )}
    </div>
  );
}
