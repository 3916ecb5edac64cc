import type { Booking, BookingCategory } from '../../../common/bookings.ts';
import { seriesSessionId, weeksAfter } from '../../../common/booking-series.ts';
import { formatSastDate } from '../../../common/sast.ts';
import { firstCursor } from '../../lib/revalidated.ts';
import { defineLocalTable } from '../../offline/db.ts';
import { defineMutation, defineSource, engine } from '../../offline/engine.ts';
import type { BookingFormValues, BookingRequestInput } from './booking-rules.ts';
import { bookingsApi } from './bookings-api.ts';
import { chosenModuleKey } from './chosen-module.ts';

/**
 * Bookings on the local-first engine (src/client/offline): the bookings the signed-in user may see (a
 * student's own, a tutor's categories', all for the admin), kept for reading offline; the booking form's draft;
 * and the one write that works offline, the booking request. Staff changes need the connection (DESIGN,
 * offline model) and are not queued. Only types come from common/bookings.ts: this file loads with the app.
 */

/** The form as the student left it, so a reload or a closed tab loses nothing. One per user. */
export interface BookingDraftRow {
  id: 'current';
  values: BookingFormValues;
  /** The request this draft was last submitted as: the draft stays until the server has accepted it. */
  requestId: string | null;
  updatedAt: string;
}

// The next person on a shared device starts with no module chosen.
engine.forgetAtLogOut(chosenModuleKey);

export const bookingsTable = defineLocalTable<Booking>({
  name: 'bookings',
  schema: 'id, date',
  version: 1,
  scope: 'user',
});
export const bookingDraftsTable = defineLocalTable<BookingDraftRow>({
  name: 'bookingDrafts',
  schema: 'id',
  version: 1,
  scope: 'user',
});

/**
 * The newest page the first time, then every change since the last version seen (new requests, confirmations,
 * statuses, cancellations), which is also how a device catches up after a day offline. The changes start
 * from the first page's `Synced-To`, the position of all bookings it reflects.
 */
export const bookingsSource = defineSource({
  name: 'bookings',
  tables: ['bookings'],
  needsUser: true,
  listensTo: ['bookings'],
  collection: 'bookings',
  pull: async ({ cursor, signal, etag }) => {
    if (cursor === null) {
      const page = await bookingsApi.list({}, undefined, signal);
      return {
        put: { bookings: page.bookings },
        cursor: firstCursor(page.syncedTo, page.bookings),
        syncedTo: page.syncedTo,
      };
    }
    // The position's text as the server wrote it: on Firestore it is not a number (0027).
    const answer = await bookingsApi.changes(cursor, etag, signal);
    if (answer.notModified) return answer;
    const changes = answer.body;
    return {
      put: { bookings: changes.bookings },
      cursor: String(changes.version),
      more: changes.more,
      etag: answer.etag,
      syncedTo: answer.syncedTo,
    };
  },
});

/**
 * A booking request as queued: what `POST /api/bookings` takes, plus what the optimistic row shows until the
 * server's copy arrives (who, the category and rate the page quoted, when).
 */
export interface BookingRequestPayload extends BookingRequestInput {
  student: { id: string; name: string; email: string };
  moduleCategory: BookingCategory;
  priceCentsPerHour: number;
  createdAt: string;
}

export const requestBooking = defineMutation<BookingRequestPayload, Booking>({
  name: 'bookings.request',
  version: 1,
  collection: 'bookings',
  target: (p) => ({ table: 'bookings', id: p.id }),
  describe: (p) => ({
    label: `Booking: ${p.module}, ${formatSastDate(p.date)}`,
    href: `/student-dashboard#booking-${p.id}`,
  }),
  apply: async (p, tx) => {
    // Once the server's copy is here (sent, but the answer lost), it is the truth.
    if (await bookingsTable.in(tx).get(p.id)) return;
    // A weekly series: a booking a week, named as the server will name them; the first is the request's.
    const weeks = p.weeks ?? 1;
    await bookingsTable.in(tx).bulkPut(
      Array.from({ length: weeks }, (_, index) => ({
        ...requested(p),
        id: seriesSessionId(p.id, index),
        date: weeksAfter(p.date, index),
        ...(weeks > 1 ? { series: { id: p.id, index, count: weeks } } : {}),
      })),
    );
  },
  send: (p, change) =>
    bookingsApi.request(
      {
        id: p.id,
        module: p.module,
        date: p.date,
        slots: p.slots,
        hours: p.hours,
        concepts: p.concepts,
        ...(p.weeks ? { weeks: p.weeks } : {}),
        ...(p.questionId ? { questionId: p.questionId } : {}),
      },
      change,
    ),
  acknowledge: async (p, booking, tx) => {
    await bookingsTable.in(tx).put(booking);
    // The server has it: the draft it came from has done its job. A refused request keeps its draft.
    const drafts = bookingDraftsTable.in(tx);
    const draft = await drafts.get('current');
    if (draft?.requestId === p.id) await drafts.delete('current');
  },
  revert: async (p, tx) => {
    await bookingsTable
      .in(tx)
      .bulkDelete(Array.from({ length: p.weeks ?? 1 }, (_, index) => seriesSessionId(p.id, index)));
  },
});

/** The booking as the request shows it until the server's copy arrives. */
function requested(p: BookingRequestPayload): Booking {
  return {
    id: p.id,
    student: { id: p.student.id, name: p.student.name, email: p.student.email },
    moduleName: p.module,
    moduleCategory: p.moduleCategory,
    date: p.date,
    slots: p.slots,
    confirmedSlot: null,
    hours: p.hours,
    concepts: p.concepts,
    status: 'Pending',
    priceCentsPerHour: p.priceCentsPerHour,
    totalCents: p.hours * p.priceCentsPerHour,
    // The server gives the reference; until then there is none to pay with.
    paymentReference: '',
    lateCancellation: false,
    createdAt: p.createdAt,
    version: 0,
    history: [],
  };
}

/**
 * The student's move of a session to three new times (issue 36), queued as a request is: shown at once as
 * pending at the new date, sent once when there is a connection. Refused (a tutor confirmed it meanwhile, or it
 * is now within the cut-off), the booking is put back as it was and the engine reads it again; the refusal stays
 * on the card until dealt with.
 */
export interface ReschedulePayload {
  id: string;
  date: string;
  slots: [string, string, string];
  /** The booking's version as the student saw it: the server refuses the move if it has changed since. */
  version: number;
  /** The booking as it was, to put back if the move is refused. */
  before: Booking;
}

export const rescheduleBooking = defineMutation<ReschedulePayload, Booking>({
  name: 'bookings.reschedule',
  version: 1,
  collection: 'bookings',
  target: (p) => ({ table: 'bookings', id: p.id }),
  describe: (p) => ({
    label: `Move: ${p.before.moduleName} to ${formatSastDate(p.date)}`,
    href: `/student-dashboard#booking-${p.id}`,
  }),
  apply: async (p, tx) => {
    const row = await bookingsTable.in(tx).get(p.id);
    if (!row) return;
    await bookingsTable
      .in(tx)
      .put({ ...row, status: 'Pending', date: p.date, slots: [...p.slots], confirmedSlot: null });
  },
  send: (p, change) => bookingsApi.reschedule(p.id, { date: p.date, slots: p.slots, version: p.version }, change),
  acknowledge: async (_p, booking, tx) => {
    await bookingsTable.in(tx).put(booking);
  },
  revert: async (p, tx) => {
    await bookingsTable.in(tx).put(p.before);
  },
});
