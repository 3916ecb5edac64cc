import type {
  Booking,
  BookingCategory,
  BookingChanges,
  BookingPage,
  BookingStatus,
  RescheduleBookingInput,
} from '../../../common/bookings.ts';
import type { PayFastCheckout, PayFastCheckoutInput } from '../../../common/payfast.ts';
import type { RecordPaymentInput } from '../../../common/payments.ts';
import type { BankMapping, StatementPreview } from '../../../common/statements.ts';
import type { Position } from '../../../common/positions.ts';

/** What the admin's device sends to record money: the note may be left out. */
export type RecordPaymentRequest = Omit<RecordPaymentInput, 'note'> & { note?: string };
import { receiptPath } from '../../../common/receipts.ts';
import { fetchPdf, readJson } from '../../lib/api.ts';
import {
  ifNoneMatch,
  readRevalidated,
  readSent,
  syncedToOf,
  type Revalidated,
  type Sent,
} from '../../lib/revalidated.ts';
import { client } from '../../lib/api-client.ts';
import type { Change } from '../../offline/engine.ts';
import type { BookingRequestInput } from './booking-rules.ts';

/** The staff's filters of `GET /api/bookings` (a student's list is always their own). */
export interface BookingFilters {
  status?: BookingStatus | undefined;
  category?: BookingCategory | undefined;
  /** Session dates from and to, inclusive, `YYYY-MM-DD`. */
  from?: string | undefined;
  to?: string | undefined;
}

const bookings = client.api.bookings;
/** hc puts path parameters into the URL as they are. */
const booking = (id: string) => ({ param: { id: encodeURIComponent(id) } });

/** Every call the bookings feature makes, in one place. */
/** A time limit longer than the default, for a statement of thousands of lines (apiFetch reads `timeoutMs`). */
const longer = (timeoutMs: number) => ({ timeoutMs }) as RequestInit;

export const bookingsApi = {
  /** A page of the bookings the caller may see, newest session first. The route answers changes when asked with `since`: `nextCursor` tells them apart. */
  async list(
    filters: BookingFilters = {},
    cursor?: string,
    signal?: AbortSignal,
  ): Promise<BookingPage & { syncedTo: Position | null }> {
    const response = await bookings.$get({ query: { ...filters, cursor } }, { init: { signal } });
    const body = await readJson(response);
    if (!('nextCursor' in body)) throw new Error('Asked for a page of bookings, the server sent changes.');
    return { ...body, syncedTo: syncedToOf(response) };
  },
  /** What changed after `since` (the cursor of the bookings source), unless the answer is still the one `etag` names. */
  async changes(since: string, etag: string | null, signal?: AbortSignal): Promise<Revalidated<BookingChanges>> {
    const answer = await readRevalidated(
      await bookings.$get({ query: { since } }, { init: { signal }, headers: ifNoneMatch(etag) }),
    );
    if (answer.notModified) return answer;
    if ('nextCursor' in answer.body) throw new Error('Asked for changes to the bookings, the server sent a page.');
    return { ...answer, body: answer.body };
  },
  /** Replay-safe: the same id again answers with the stored booking. Sent from the outbox, with its headers. */
  request: async (input: BookingRequestInput, { headers }: Change): Promise<Sent<Booking>> =>
    readSent(await bookings.$post({ json: input }, { headers })),
  /** `tutorId`: the admin names the session's tutor; without it the server keeps the booking's, or takes the only one. */
  /** `series`: the later pending weeks of a weekly series at the same time too. */
  confirm: async (id: string, slot: string, version: number, tutorId?: string, series?: boolean): Promise<Booking> =>
    readJson(
      await bookings[':id'].confirm.$post({
        ...booking(id),
        json: { slot, version, tutorId, ...(series ? { series } : {}) },
      }),
    ),
  /** `beforeStart`: Completed for a session still to come, which the staff member has confirmed. */
  setStatus: async (id: string, status: BookingStatus, version: number, beforeStart?: true): Promise<Booking> =>
    readJson(await bookings[':id'].status.$put({ ...booking(id), json: { status, version, beforeStart } })),
  cancel: async (id: string): Promise<Booking> => readJson(await bookings[':id'].cancel.$post(booking(id))),
  /** The student's move to three new times (issue 36). Sent from the outbox, with its headers. */
  reschedule: async (id: string, input: RescheduleBookingInput, { headers }: Change): Promise<Sent<Booking>> =>
    readSent(await bookings[':id'].reschedule.$post({ ...booking(id), json: input }, { headers })),
  /** Staff move a confirmed session to a new date and time. */
  move: async (id: string, date: string, slot: string, version: number): Promise<Booking> =>
    readJson(await bookings[':id'].move.$post({ ...booking(id), json: { date, slot, version } })),
  /** After the session (issue 39 §4): the tutor's notes, the student's consent, the summary on the question. */
  writeNotes: async (id: string, json: { covered: string; practise: string; version: number }): Promise<Booking> =>
    readJson(await bookings[':id'].notes.$put({ ...booking(id), json })),
  setSummaryConsent: async (id: string, consent: boolean, version: number): Promise<Booking> =>
    readJson(await bookings[':id']['summary-consent'].$put({ ...booking(id), json: { consent, version } })),
  postSummary: async (id: string, version: number): Promise<Booking> =>
    readJson(await bookings[':id'].summary.$post({ ...booking(id), json: { version } })),
  /** The admin records a payment, refund or waiver against the booking (issue 37). */
  recordPayment: async (id: string, json: RecordPaymentRequest): Promise<Booking> =>
    readJson(await bookings[':id'].payments.$post({ ...booking(id), json })),
  /** The sessions of the next day whose reminder did not reach the student (the staff). */
  reminderProblems: async (signal?: AbortSignal) =>
    readJson(await bookings['reminder-problems'].$get({}, { init: { signal } })),
  /** Every booking with money owing, the oldest session first (the admin). */
  unpaid: async (signal?: AbortSignal) => readJson(await bookings.unpaid.$get({}, { init: { signal } })),
  /** The month's figures (the admin): money in per week, unpaid per month, hours per tutor. */
  figures: async (month: string, signal?: AbortSignal) =>
    readJson(await bookings.figures.$get({ query: { month } }, { init: { signal } })),
  /** A payment's receipt, as the server makes it (a PDF; the booking's student or the admin). */
  receipt: (bookingId: string, paymentId: string): Promise<Blob> => fetchPdf(receiptPath(bookingId, paymentId)),
  /** A reminder of what is owing, e-mailed to the booking's student (the admin). */
  remindPayment: async (id: string, version: number): Promise<void> => {
    await readJson(await bookings[':id']['payment-reminder'].$post({ ...booking(id), json: { version } }));
  },
  /** How each bank's statement was read last time (the admin). */
  bankMappings: async (): Promise<BankMapping[]> => (await readJson(await bookings['bank-mappings'].$get())).mappings,
  /** A bank statement read and matched: what each line would record; nothing is written (the admin). */
  previewStatement: async (mapping: BankMapping, csv: string): Promise<StatementPreview> =>
    readJson(await bookings.statements.preview.$post({ json: { mapping, csv } }, { init: longer(60_000) })),
  /** The statement's chosen lines recorded, and its waiting lines ignored or taken back, by their keys (the admin). */
  importStatement: async (
    mapping: BankMapping,
    csv: string,
    decision: { lines: { key: string; reference?: string }[]; ignore: string[]; unignore: string[] },
  ) =>
    readJson(
      await bookings.statements.import.$post({ json: { mapping, csv, ...decision } }, { init: longer(120_000) }),
    ),
  /** Staff keep the time a session had before its student asked to move it. */
  keepTime: async (id: string, version: number): Promise<Booking> =>
    readJson(await bookings[':id']['keep-time'].$post({ ...booking(id), json: { version } })),
  /**
   * The booking rules the server enforces (`BOOKING_MIN_LEAD_HOURS`, `BOOKING_RESCHEDULE_MIN_HOURS`), and whether
   * students may pay online (PayFast configured).
   */
  rules: async (
    signal?: AbortSignal,
  ): Promise<{ bookingMinLeadHours: number; bookingRescheduleMinHours: number; payOnline: boolean }> =>
    readJson(await client.api.config.$get({}, { init: { signal } })),
  /** PayFast's payment page, signed, for what the student owes on one of their bookings or packages. */
  payFastCheckout: async (input: PayFastCheckoutInput): Promise<PayFastCheckout> =>
    readJson(await client.api.payfast.checkout.$post({ json: input })),
};
