import { seatFollows } from './bookings.seats.ts';
import { bookingMessages } from '../../../common/bookings.ts';
import type { Deps, Uses } from '../../deps.ts';
import type { Audience } from '../../events/events.ts';
import type { PersonalDataPart } from '../../personal-data.ts';
import { cancelledForStaffEmail } from './bookings.emails.ts';
import {
  audienceOf,
  deletedUser,
  historyEntry,
  staffToTell,
  toBooking,
  updated,
  withHistory,
} from './bookings.records.ts';
import type { BookingRecord, BookingUpdate } from './bookings.storage.ts';

/**
 * The bookings' part of the data export, of account deletion and of a rename (personal-data.ts; POPIA, and
 * docs/decisions/0025 for the name).
 */

/** Ids per notice when one change touches many bookings: a notice stays far under NOTIFY's 8,000 bytes. */
const idsPerNotice = 100;

export const bookingsPersonalData: PersonalDataPart = {
  async exportFor(deps, me) {
    const { bookings, payments, packages } = deps.repos;
    const own = await bookings.listOf(me.id);
    // The money recorded against their bookings, without who recorded it (the admin's, not theirs).
    const paid = await payments.listForBookings(own.map((row) => row.id));
    return {
      bookings: await withHistory(bookings, own),
      payments: paid.map(({ id, kind, method, amountCents, paidOn, reference, note, allocations }) => ({
        id,
        kind,
        method,
        amountCents,
        paidOn,
        reference,
        note,
        bookings: allocations,
      })),
      // The monthly packages they bought (issue 37 §3), whole: they are theirs.
      packages: await packages.ofStudent(me.id),
    };
  },

  /**
   * The user's future Pending and Confirmed bookings are cancelled (their tutors and the admins are told, so
   * nobody waits for a session that will not happen); on all their bookings the name, address and concepts are
   * scrubbed, and their name leaves every booking's history. Each booking touched gets a new version.
   */
  async eraseFor(tx, userId) {
    const { bookings } = tx.repos;
    await bookings.beginChanges();
    const now = tx.clock.now().toISOString();
    const touched = await bookings.listTouchedBy(userId);
    // A tutor's group sessions keep their time and seats, under 'Deleted user' (read before any write).
    const groupsRun = await tx.repos.groups.ofTutor(userId);
    // The payments an admin recorded stay, under 'Deleted user'.
    await tx.repos.payments.setRecorderName(userId, deletedUser.name, true);
    // The packages they bought stay in the books, under 'Deleted user', with no address.
    await tx.repos.packages.setStudent(userId, { name: bookingMessages.deletedUser, email: '' }, true);
    const forgetGroups = async () => {
      for (const group of groupsRun) await tx.repos.groups.setTutor(group.id, { id: null, name: deletedUser.name });
    };
    if (touched.length === 0) return forgetGroups();
    // All it reads comes before its writes: which bookings it cancels, and whom to tell of each.
    const toCancel = new Set(
      touched.filter(
        (r) => r.student.id === userId && (r.status === 'Pending' || r.status === 'Confirmed') && r.startsAt > now,
      ),
    );
    const staff = await staffOfEach(tx, [...toCancel]);
    // The seats of the sessions cancelled go back to their groups.
    const seats = [];
    for (const row of toCancel) seats.push(await seatFollows(tx, row, 'Cancelled'));
    const stamps = await bookings.takeStamps(
      touched.length,
      touched.map((row) => row.version),
    );
    const cancelled: BookingRecord[] = [];
    for (const [i, row] of touched.entries()) {
      const stamp = stamps[i]!;
      if (toCancel.has(row)) {
        const update: BookingUpdate = { status: 'Cancelled', lateCancellation: false, updatedAt: now, stamp };
        await bookings.updateIfAtVersion(row.id, row.version, update);
        await bookings.addChange(historyEntry(row.id, stamp.version, now, deletedUser, row.status, 'Cancelled'));
        cancelled.push(updated(row, update));
      } else {
        await bookings.setVersion(row.id, stamp);
      }
    }
    for (const giveBack of seats) await giveBack();
    await forgetGroups();
    await bookings.scrubStudent(userId, bookingMessages.deletedUser, now);
    await bookings.forgetInHistory(userId, bookingMessages.deletedUser);
    for (const row of cancelled) {
      // Nothing of the student's, nor their id: this notice outlives their account (profile deletes the rest).
      const scrubbed = toBooking(
        { ...row, student: { id: null, name: bookingMessages.deletedUser, email: '' }, concepts: '' },
        [],
      );
      await tx.mail.enqueue(
        ...staff
          .get(row.moduleCategory)!
          .map((person) => cancelledForStaffEmail(scrubbed, person, tx.config.publicUrl, 'account-deleted')),
      );
    }
    // The deleted user hears nothing more.
    publishTouched(
      tx,
      touched.map((row) =>
        audienceOf(row.student.id === userId ? { ...row, student: { ...row.student, id: null } } : row),
      ),
      touched,
      stamps.at(-1)!.version,
    );
  },

  /**
   * Bookings show a person's current name (docs/decisions/0025): a rename reaches the student's bookings and
   * the history entries the user made (a tutor's confirmations), each booking with a new version, so every
   * device that holds one refreshes it and nobody's list shows two names for one person.
   */
  async renameFor(tx, userId, name) {
    const { bookings } = tx.repos;
    await bookings.beginChanges();
    const touched = await bookings.listTouchedBy(userId);
    const groupsRun = await tx.repos.groups.ofTutor(userId);
    await tx.repos.payments.setRecorderName(userId, name, false);
    await tx.repos.packages.setStudent(userId, { name }, false);
    if (touched.length === 0) {
      for (const group of groupsRun) await tx.repos.groups.setTutor(group.id, { id: userId, name });
      return;
    }
    const stamps = await bookings.takeStamps(
      touched.length,
      touched.map((row) => row.version),
    );
    for (const [i, row] of touched.entries()) await bookings.setVersion(row.id, stamps[i]!);
    await bookings.setStudentName(userId, name, tx.clock.now().toISOString());
    await bookings.setNameInHistory(userId, name);
    for (const group of groupsRun) await tx.repos.groups.setTutor(group.id, { id: userId, name });
    publishTouched(tx, touched.map(audienceOf), touched, stamps.at(-1)!.version);
  },
};

/** Whom to tell of each of `rows`, by category: a read per category, one after another (one connection). */
async function staffOfEach(tx: Uses<'accounts'>, rows: BookingRecord[]) {
  const staff = new Map<BookingRecord['moduleCategory'], Awaited<ReturnType<typeof staffToTell>>>();
  for (const row of rows)
    if (!staff.has(row.moduleCategory)) staff.set(row.moduleCategory, await staffToTell(tx, row.moduleCategory));
  return staff;
}

/**
 * Tells who may see each of `touched` (its audience, same index) that it changed: one notice per audience and
 * at most `idsPerNotice` ids, each with `version`, the last one the change set (they all commit together).
 */
function publishTouched(tx: Pick<Deps, 'events'>, audiences: Audience[], touched: { id: string }[], version: number) {
  const groups = Map.groupBy(
    touched.map((row, i) => ({ id: row.id, audience: audiences[i]! })),
    (n) => JSON.stringify(n.audience),
  );
  for (const notices of groups.values()) {
    for (let i = 0; i < notices.length; i += idsPerNotice) {
      tx.events.publish({
        table: 'bookings',
        ids: notices.slice(i, i + idsPerNotice).map((n) => n.id),
        audience: notices[0]!.audience,
        version,
      });
    }
  }
}
