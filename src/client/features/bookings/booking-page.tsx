import { ArrowLeft, Clock } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { bookingLimits, bookingMessages, latestBookableDate } from '../../../common/bookings.ts';
import type { Module } from '../../../common/catalogue.ts';
import { formatRand } from '../../../common/money.ts';
import { isTimeOfDay } from '../../../common/sast.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { FormField, TextareaField } from '../../components/form-field.tsx';
import { TimeInput } from '../../components/time-input.tsx';
import { Notice } from '../../components/notice.tsx';
import { PageMeta } from '../../components/page-meta.tsx';
import { errorText } from '../../lib/error-text.ts';
import { useSession } from '../../lib/session.tsx';
import { discardItem, type ChangeState } from '../../offline/engine.ts';
import { useSyncStatus } from '../../offline/hooks.ts';
import {
  checkBookingForm,
  earliestBookableDate,
  moduleInfo,
  quoteCents,
  tooSoonSlots,
  type BookingFormErrors,
  type BookingFormValues,
  type ModuleInfo,
} from './booking-rules.ts';
import { requestBooking } from './bookings.sync.ts';
import { moduleFromState, storeChosenModule, storedChosenModule, type ChosenModule } from './chosen-module.ts';
import { useBookingDraft, useLeadHours } from './use-booking-draft.ts';
import { useDraftRequest } from './use-draft-request.ts';
import { formatCount } from '../../../common/locale.ts';

const muted = 'text-slate-700 dark:text-slate-300';
const sastNote = 'Times are SAST (South African Standard Time, UTC+2), on the 24-hour clock: 14:30, or 1430.';

/**
 * /booking (spec §2 Booking page, §4 Booking form, §5, §8 Booking): the module chosen with Book Now (or the
 * last one chosen on this device), and the form. The form is a draft in IndexedDB until the server accepts the
 * request; offline, the request waits in the outbox and is sent when the connection returns, and the student
 * goes on to the dashboard as they do online (use-draft-request.ts). `modules`: the catalogue, handed in by
 * app/ (features do not import each other); undefined until it has been read.
 */
export function BookingPage({ modules }: { modules: Module[] | undefined }) {
  const { state } = useLocation();
  const fromState = useMemo(() => moduleFromState(state), [state]);
  const [chosen, setChosen] = useState<ChosenModule | null>(() => fromState ?? storedChosenModule());

  useEffect(() => {
    if (fromState) storeChosenModule(fromState);
  }, [fromState]);

  const choose = (module: ChosenModule) => {
    storeChosenModule(module);
    setChosen(module);
  };

  const info = chosen && modules ? moduleInfo(chosen.name, modules) : undefined;
  return (
    <div className="container-page py-8 sm:py-10">
      <PageMeta
        title="Book a session"
        description="Book a one-on-one tutoring session: choose a date, three times that suit you and what you need help with."
      />
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Book a session</h1>
      {!chosen ? (
        <ChooseModule onChoose={choose} />
      ) : (
        <div className="mt-6 grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <ModuleSummary name={chosen.name} info={info} />
          {info ? (
            <BookingForm module={info} />
          ) : (
            <div aria-hidden className="card h-96 animate-pulse bg-slate-100 lg:order-first dark:bg-slate-800" />
          )}
        </div>
      )}
      <p className="mt-8">
        <Link to="/offers" className="link inline-flex min-h-11 items-center gap-1">
          <ArrowLeft aria-hidden size={18} />
          Back to Courses
        </Link>
      </p>
    </div>
  );
}

/** No Book Now and nothing stored: choose on Courses, or name a subject (a custom one is welcome). */
function ChooseModule({ onChoose }: { onChoose: (module: ChosenModule) => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  return (
    <section aria-labelledby="choose-title" className="card mt-6 max-w-2xl">
      <h2 id="choose-title" className="text-xl font-semibold">
        No module chosen yet
      </h2>
      <p className={`mt-1 ${muted}`}>
        Choose one on{' '}
        <Link to="/offers" className="link">
          Courses
        </Link>{' '}
        with Book Now, or name the subject you need help with.
      </p>
      <form
        noValidate
        className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start"
        onSubmit={(event) => {
          event.preventDefault();
          if (!name.trim()) return setError(bookingMessages.moduleRequired);
          onChoose({ name: name.trim() });
        }}
      >
        <FormField
          label="Subject"
          name="subject"
          className="grow"
          maxLength={200}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={error}
        />
        <button type="submit" className="btn-primary sm:mt-7">
          Continue
        </button>
      </form>
    </section>
  );
}

/** Spec §2: the module's name, description and common topics; a custom subject says so. */
function ModuleSummary({ name, info }: { name: string; info: ModuleInfo | undefined }) {
  return (
    <section aria-labelledby="module-title" className="card lg:sticky lg:top-24">
      <p className={`text-sm ${muted}`}>Your module</p>
      <h2 id="module-title" className="mt-1 text-xl font-semibold">
        {name}
      </h2>
      {info && (
        <>
          <p className="mt-1 text-sm font-semibold tracking-wide text-brand-800 uppercase dark:text-brand-200">
            {info.category}
          </p>
          <p className="mt-3 font-semibold">{formatRand(info.rateCents)}/hour</p>
          {info.custom ? (
            <p className={`mt-3 ${muted}`}>{bookingMessages.customSubject}</p>
          ) : (
            info.description && <p className={`mt-3 ${muted}`}>{info.description}</p>
          )}
          {info.topics.length > 0 && (
            <>
              <h3 className="mt-4 font-semibold">Common topics</h3>
              <ul className={`mt-1 list-disc space-y-1 pl-6 ${muted}`}>
                {info.topics.map((topic) => (
                  <li key={topic}>{topic}</li>
                ))}
              </ul>
            </>
          )}
          {info.slug && (
            <Link to={`/modules/${info.slug}`} className="link mt-2 inline-flex min-h-11 items-center">
              Module details
            </Link>
          )}
        </>
      )}
    </section>
  );
}

type Status = { text: string; tone: 'info' | 'error' | 'success' } | undefined;

/** Spec §8 Booking: the status line, from where the draft's request is. */
function statusOf(request: ChangeState | undefined, online: boolean, submitting: boolean): Status {
  if (submitting) return { text: bookingMessages.sending, tone: 'info' };
  switch (request?.state) {
    case 'sending':
      return { text: bookingMessages.sending, tone: 'info' };
    case 'waiting':
      // Offline it goes when the connection returns; online, a try that failed (no answer, a busy server, too
      // many requests) is tried again by itself.
      if (!online) return { text: bookingMessages.queued, tone: 'info' };
      return { text: request.attempts === 0 ? bookingMessages.sending : bookingMessages.retrying, tone: 'info' };
    case 'attention':
      return { text: `${bookingMessages.failed} ${request.error.message}`.trim(), tone: 'error' };
    case 'done':
      return { text: bookingMessages.sent, tone: 'success' };
    default:
      return undefined;
  }
}

const slotLabels = ['First choice', 'Second choice', 'Third choice'] as const;

function BookingForm({ module }: { module: ModuleInfo }) {
  const { session } = useSession();
  const me = session.me;
  const confirm = useConfirm();
  const draft = useBookingDraft();
  const leadHours = useLeadHours();
  const { online } = useSyncStatus();
  const [errors, setErrors] = useState<BookingFormErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [localError, setLocalError] = useState<string>();
  // The request's fate decides what becomes of the draft and the page (not while a submit is relinking it).
  const { current, ready, submitting: submittingAs } = useDraftRequest(draft, submitting);
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstError = useRef(false);
  const ids = { slots: useId(), quote: useId() };

  const values = draft.values;
  const state = current?.state;

  useEffect(() => {
    if (!focusFirstError.current) return;
    focusFirstError.current = false;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  });

  // A refused request: the fields say what the server said, where the rule is one the form knows (a date
  // now too close, say), until the student has put it right.
  const refused = state === 'attention';
  const refusal = useMemo(
    () =>
      refused && values && leadHours !== undefined
        ? (checkBookingForm({ id: crypto.randomUUID(), module: module.name, values }, { now: new Date(), leadHours })
            .errors ?? {})
        : {},
    [refused, values, module.name, leadHours],
  );
  const shown: BookingFormErrors = { ...refusal, ...errors };

  // The form waits for the server's lead time (or, offline, the one it said last): its hint and the date's
  // first day are then right from the first render.
  if (!values || !me || leadHours === undefined || !ready)
    return <div aria-hidden className="card h-96 animate-pulse bg-slate-100 lg:order-first dark:bg-slate-800" />;
  const now = new Date();
  const tooSoon = tooSoonSlots(values, { now, leadHours });

  const waiting = state === 'waiting' || state === 'sending';
  const status = statusOf(current, online, submitting);
  const quote = quoteCents(values.hours, module.rateCents);
  const set = (patch: Partial<BookingFormValues>) => {
    draft.update({ ...values, ...patch });
    // A message is about what was there when it was checked: changing the field takes it away.
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([field]) => !(field in patch))));
  };
  const setSlot = (index: number, slot: string) =>
    set({ slots: values.slots.map((s, i) => (i === index ? slot : s)) as BookingFormValues['slots'] });
  // Each message marks the times it is about.
  const slotInvalid = (index: number) => {
    const slot = values.slots[index]!;
    switch (shown.slots) {
      case undefined:
        return false;
      case bookingMessages.slotsRequired:
        return slot === '';
      case bookingMessages.slotsDistinct:
        return values.slots.filter((s) => s === slot).length > 1;
      case bookingMessages.slotInvalid:
        return !isTimeOfDay(slot);
      default:
        // The lead time's message names the times too soon: those are marked.
        return tooSoon.length > 0 ? tooSoon.includes(index) : true;
    }
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!values || !me || submitting || waiting || leadHours === undefined) return;
    setLocalError(undefined);
    const id = crypto.randomUUID();
    const checked = checkBookingForm({ id, module: module.name, values }, { now: new Date(), leadHours });
    if (checked.errors) {
      setErrors(checked.errors);
      focusFirstError.current = true;
      return;
    }
    setErrors({});
    if (
      !(await confirm({
        title: 'Submit booking request',
        message: bookingMessages.confirmSubmit,
        confirmLabel: 'Submit',
      }))
    )
      return;
    setSubmitting(true);
    try {
      // A refused earlier request from this draft is replaced by this one (with a new id: the old one may be
      // refused for its id alone).
      if (current?.state === 'attention') await discardItem(current.seq);
      submittingAs(id);
      // Queued and linked to the draft in one transaction: a page that dies in between cannot leave the draft
      // editable with its request already queued (submitted again, it would book twice).
      await draft.submit(id, (linkDraft) =>
        requestBooking(
          {
            ...checked.data,
            student: { id: me.id, name: me.name, email: me.email },
            moduleCategory: module.category,
            priceCentsPerHour: module.rateCents,
            createdAt: new Date().toISOString(),
          },
          { also: linkDraft },
        ),
      );
    } catch (error) {
      // Not even saved on this device (storage full, say): nothing was queued, the form keeps everything.
      submittingAs(null);
      setLocalError(errorText(error, bookingMessages.failed));
    } finally {
      setSubmitting(false);
    }
  }

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
      <fieldset disabled={waiting || submitting} className="flex min-w-0 flex-col gap-5">
        <FormField
          label="Date"
          name="date"
          type="date"
          min={earliestBookableDate(now, leadHours)}
          max={latestBookableDate(now)}
          value={values.date}
          onChange={(e) => set({ date: e.target.value })}
          error={shown.date}
          hint={bookingMessages.leadTime(leadHours)}
        />
        <fieldset aria-describedby={`${ids.slots}-hint${shown.slots ? ` ${ids.slots}-error` : ''}`} className="min-w-0">
          <legend className="font-medium">Three times that suit you</legend>
          <p
            id={`${ids.slots}-hint`}
            className="mt-1 flex items-center gap-1.5 text-sm text-slate-600 dark:text-slate-400"
          >
            <Clock aria-hidden size={16} className="shrink-0" />
            {sastNote}
          </p>
          <div className="mt-2 grid gap-3 sm:grid-cols-3">
            {slotLabels.map((label, index) => (
              <SlotInput
                key={label}
                label={label}
                value={values.slots[index]!}
                invalid={slotInvalid(index)}
                errorId={shown.slots ? `${ids.slots}-error` : undefined}
                onChange={(slot) => setSlot(index, slot)}
              />
            ))}
          </div>
          {shown.slots && (
            <p id={`${ids.slots}-error`} className="mt-1 text-sm font-medium text-red-700 dark:text-red-400">
              {shown.slots}
            </p>
          )}
        </fieldset>
        <FormField
          label="Hours"
          name="hours"
          type="number"
          inputMode="numeric"
          min={bookingLimits.hoursMin}
          max={bookingLimits.hoursMax}
          step={1}
          className="max-w-40"
          value={values.hours}
          onChange={(e) => set({ hours: e.target.value })}
          error={shown.hours}
          hint={`${bookingLimits.hoursMin} to ${bookingLimits.hoursMax} hours.`}
        />
        <TextareaField
          label="Concepts you need help with"
          name="concepts"
          rows={5}
          maxLength={bookingLimits.conceptsMax}
          value={values.concepts}
          onChange={(e) => set({ concepts: e.target.value })}
          error={shown.concepts}
          hint={`${formatCount(values.concepts.length)} of ${formatCount(bookingLimits.conceptsMax)} characters.`}
        />
      </fieldset>

      <div id={ids.quote} className="rounded-lg bg-brand-50 p-4 dark:bg-brand-900/40">
        <p className="text-sm text-slate-700 dark:text-slate-300">Price</p>
        {quote === undefined ? (
          <p className="font-medium">Enter the hours to see the price.</p>
        ) : (
          <p>
            <span className="text-2xl font-bold">{formatRand(quote)}</span>{' '}
            <span className="text-sm text-slate-700 dark:text-slate-300">
              ({values.hours} {values.hours === '1' ? 'hour' : 'hours'} × {formatRand(module.rateCents)}/hour, paid by
              EFT once a tutor confirms a time)
            </span>
          </p>
        )}
      </div>

      <p role="status" aria-live="polite" className={status || localError ? '' : 'sr-only'}>
        {localError ? (
          <span className="font-medium text-red-700 dark:text-red-400">{localError}</span>
        ) : (
          status && (
            <span
              className={
                status.tone === 'error'
                  ? 'font-medium text-red-700 dark:text-red-400'
                  : status.tone === 'success'
                    ? 'font-medium text-green-800 dark:text-green-300'
                    : 'font-medium'
              }
            >
              {status.text}
            </span>
          )
        )}
      </p>

      {waiting ? (
        <WaitingActions onAnother={() => void draft.clear()} />
      ) : (
        <button type="submit" className="btn-primary self-start" aria-describedby={ids.quote} disabled={submitting}>
          Submit booking request
        </button>
      )}
    </form>
  );
}

function SlotInput(props: {
  label: string;
  value: string;
  invalid: boolean;
  errorId: string | undefined;
  onChange: (slot: string) => void;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {props.label}
      </label>
      <TimeInput
        id={id}
        value={props.value}
        aria-invalid={props.invalid || undefined}
        aria-describedby={props.invalid ? props.errorId : undefined}
        onChange={props.onChange}
      />
    </div>
  );
}

/** The request is on its way: the form is locked to it until it ends, and the student may move on. */
function WaitingActions({ onAnother }: { onAnother: () => void }) {
  return (
    <div className="flex flex-col gap-3">
      <Notice tone="info">It shows on your dashboard as waiting to send until it reaches us.</Notice>
      <div className="flex flex-wrap gap-3">
        <Link to="/student-dashboard" className="btn-primary">
          Go to your dashboard
        </Link>
        <button type="button" className="btn-secondary" onClick={onAnother}>
          Book another session
        </button>
      </div>
    </div>
  );
}
