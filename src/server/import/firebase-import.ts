import { sql } from 'kysely';
import { bookingCategories, bookingLimits, bookingStatuses, uncategorized } from '../../common/bookings.ts';
import type { BookingCategory, BookingStatus } from '../../common/bookings.ts';
import { slugify } from '../../common/catalogue.ts';
import { categories, type Category } from '../../common/roles.ts';
import { isCalendarDate, isTimeOfDay, sastInstant } from '../../common/sast.ts';
import { encodeFirebaseHash, type FirebaseHashConfig } from '../auth/firebase-password.ts';
import type { Db } from '../db/create-db.ts';
import { uniquePaymentReference } from '../modules/bookings/bookings.usecases.ts';
import { createBookingsRepository } from '../modules/bookings/bookings.repository.ts';
import { createCatalogueRepository } from '../modules/catalogue/catalogue.repository.ts';
import { createQaRepository } from '../modules/qa/qa.repository.ts';
import type { QaRepository } from '../modules/qa/qa.storage.ts';
import { ImportStoppedError, type ExportedUser } from './firebase-auth-export.ts';
import type { FirestoreData, SourceDoc } from './firestore-source.ts';

/**
 * `npm run cli -- import firebase`: the old site's Firestore collections and Firebase Authentication users
 * (spec §3) written into TutorBook's storage, in one transaction, so an import either happens whole or not at
 * all. Old document ids are kept as ids, so a second run finds every record and writes nothing new.
 * Decision 0023 says why each mapping is as it is.
 */

export const importKinds = ['users', 'modules', 'questions', 'answers', 'bookings', 'enrolments'] as const;
export type ImportKind = (typeof importKinds)[number];

export interface ImportCounts {
  read: number;
  new: number;
  /** Already here and left alone: from an earlier run, or (users) a verified account with the same address. */
  unchanged: number;
  /**
   * Already here with other values, now the old site's: a module's price or category, or (users) an address
   * signed up with here but never verified, which goes to its old owner.
   */
  updated: number;
  skipped: number;
}

export interface ImportReport {
  dryRun: boolean;
  counts: Record<ImportKind, ImportCounts>;
  /** Each record left out, named as in Firebase (`bookings/<id>`), and why. */
  skipped: { record: string; reason: string }[];
}

export interface ImportSource {
  firestore: FirestoreData;
  /** The Authentication export's users; empty without `--auth-export`. */
  users: ExportedUser[];
  hashConfig?: FirebaseHashConfig;
}

/** Thrown inside the transaction of a dry run, so that everything it wrote is rolled back. */
class DryRunRollback extends Error {}

export async function importFirebase(
  db: Db,
  source: ImportSource,
  options: { dryRun: boolean; now: Date },
): Promise<ImportReport> {
  if (!source.hashConfig && source.users.some((u) => u.passwordHash))
    throw new ImportStoppedError(
      'The Authentication export holds password hashes: give the project’s hash parameters with --hash-config.',
    );
  const report: ImportReport = {
    dryRun: options.dryRun,
    counts: Object.fromEntries(
      importKinds.map((k) => [k, { read: 0, new: 0, unchanged: 0, updated: 0, skipped: 0 }]),
    ) as Record<ImportKind, ImportCounts>,
    skipped: [],
  };
  try {
    await db.transaction().execute(async (trx) => {
      const run = new ImportRun(trx, report, options.now);
      await run.users(source.users, source.hashConfig);
      await run.modules(source.firestore.modules);
      await run.questions(source.firestore.questions);
      await run.bookings(source.firestore.bookings);
      await run.enrolments(source.firestore.enrolments);
      if (options.dryRun) throw new DryRunRollback();
    });
  } catch (error) {
    if (!(error instanceof DryRunRollback)) throw error;
  }
  return report;
}

/** A record that cannot be kept as it is: skipped, with the reason in the report. */
class Skip extends Error {}

class ImportRun {
  /** Old Firebase uid → our user id (the same, or the account that already had the address). */
  private readonly userIds = new Map<string, string | null>();
  private readonly db: Db;
  /** The board's repository on the import's transaction (questions and answers are written here with SQL). */
  private readonly qa: QaRepository;
  private readonly report: ImportReport;
  private readonly now: Date;
  private readonly nowIso: string;

  constructor(db: Db, report: ImportReport, now: Date) {
    this.db = db;
    this.qa = createQaRepository(db);
    this.report = report;
    this.now = now;
    this.nowIso = now.toISOString();
  }

  /** Runs `work` for one record, counting it; a `Skip` it throws becomes a line of the report. */
  private async each(kind: ImportKind, record: string, work: () => Promise<'new' | 'unchanged' | 'updated'>) {
    const counts = this.report.counts[kind];
    counts.read += 1;
    try {
      counts[await work()] += 1;
    } catch (error) {
      if (!(error instanceof Skip)) throw error;
      counts.skipped += 1;
      this.report.skipped.push({ record, reason: error.message });
    }
  }

  /** Our id for an old uid: an account imported now or before, or null (the account was deleted). */
  private async userFor(uid: unknown): Promise<string | null> {
    if (typeof uid !== 'string' || !uid) return null;
    if (!this.userIds.has(uid)) {
      const row = await this.db.selectFrom('users').select('id').where('id', '=', uid).executeTakeFirst();
      this.userIds.set(uid, row?.id ?? null);
    }
    return this.userIds.get(uid)!;
  }

  async users(users: ExportedUser[], hashConfig: FirebaseHashConfig | undefined) {
    for (const u of users) {
      await this.each('users', `users/${u.localId}`, async () => {
        if (!u.email) throw new Skip('no e-mail address (a phone or anonymous sign-in), which TutorBook needs');
        if (u.disabled) throw new Skip('disabled in Firebase Authentication');
        const email = u.email.toLowerCase();
        const password =
          u.passwordHash && u.salt && hashConfig ? encodeFirebaseHash(hashConfig, u.salt, u.passwordHash) : null;
        const same = await this.db
          .selectFrom('users')
          .select(['id', 'email_verified'])
          .where((eb) => eb.or([eb('id', '=', u.localId), eb('email', '=', email)]))
          .executeTakeFirst();
        if (same) {
          this.userIds.set(u.localId, same.id);
          // Here before (an earlier run), or someone verified this address here (signed up, made staff): the
          // old records follow that account, and its login stays as it is.
          if (same.id === u.localId || same.email_verified === true || same.email_verified === 1) return 'unchanged';
          return this.reclaim(same.id, u, password);
        }
        const createdAt = u.createdAt ? new Date(Number(u.createdAt)) : this.now;
        await this.db
          .insertInto('users')
          .values({
            id: u.localId,
            name: u.displayName?.trim() || email.split('@')[0]!,
            email,
            // Unverified addresses stay unverified: their owners verify as anyone else does.
            email_verified: u.emailVerified === true,
            image: u.photoUrl ?? null,
            created_at: createdAt,
            updated_at: this.now,
          })
          .execute();
        this.userIds.set(u.localId, u.localId);
        await this.addLogins(u.localId, u, password, createdAt);
        return 'new';
      });
    }
  }

  /**
   * Someone signed up here with the old user's address and never verified it. As `staff add` does (decision
   * 0003), the address goes to the person who had it on the old site: that sign-up's password and sessions
   * go, the old password (and Google link) come in. Left alone once it already holds the old password.
   */
  private async reclaim(userId: string, u: ExportedUser, password: string | null): Promise<'unchanged' | 'updated'> {
    const credential = await this.db
      .selectFrom('accounts')
      .select('password')
      .where('user_id', '=', userId)
      .where('provider_id', '=', 'credential')
      .executeTakeFirst();
    if ((credential?.password ?? null) === password && u.emailVerified !== true) return 'unchanged';
    await this.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('accounts').where('user_id', '=', userId).execute();
    await this.db
      .updateTable('users')
      .set({
        name: u.displayName?.trim() || u.email!.toLowerCase().split('@')[0]!,
        email_verified: u.emailVerified === true,
        updated_at: this.now,
      })
      .where('id', '=', userId)
      .execute();
    await this.addLogins(userId, u, password, this.now);
    return 'updated';
  }

  /** The old password (a Firebase hash, checked at the first login) and the Google link, as Firebase had them. */
  private async addLogins(userId: string, u: ExportedUser, password: string | null, createdAt: Date) {
    const account = (providerId: string, accountId: string, hash: string | null) => ({
      id: crypto.randomUUID(),
      user_id: userId,
      account_id: accountId,
      provider_id: providerId,
      password: hash,
      access_token: null,
      refresh_token: null,
      id_token: null,
      access_token_expires_at: null,
      refresh_token_expires_at: null,
      scope: null,
      created_at: createdAt,
      updated_at: this.now,
    });
    if (password)
      await this.db
        .insertInto('accounts')
        .values(account('credential', userId, password))
        .execute();
    // Google's own user id: better-auth finds the account by it when "Continue with Google" comes back.
    const google = u.providerUserInfo?.find((p) => p.providerId === 'google.com' && p.rawId);
    if (google)
      await this.db
        .insertInto('accounts')
        .values(account('google', google.rawId!, null))
        .execute();
  }

  async modules(docs: SourceDoc[]) {
    for (const doc of docs) {
      await this.each('modules', `modules/${doc.id}`, async () => {
        const name = text(doc.data.name).trim();
        if (!name) throw new Skip('no name');
        const category = doc.data.category;
        if (!categories.includes(category as Category))
          throw new Skip(`category ${JSON.stringify(category)} is not one of ${categories.join(', ')}`);
        const priceCents = randToCents(doc.data.price);
        if (priceCents === undefined)
          throw new Skip(`price ${JSON.stringify(doc.data.price)} is not an amount in rand per hour`);
        const slug = slugify(name);
        const existing = await this.db
          .selectFrom('modules')
          .select(['id', 'category', 'price_cents'])
          .where((eb) => eb.or([eb(sql`lower(name)`, '=', name.toLowerCase()), eb('slug', '=', slug)]))
          .executeTakeFirst();
        if (existing) {
          if (existing.category === category && existing.price_cents === priceCents) return 'unchanged';
          // The old site's admin-managed list is what the owner charges; our seed was the spec's guess.
          await this.db
            .updateTable('modules')
            .set({ category: category as Category, price_cents: priceCents, updated_at: this.nowIso })
            .where('id', '=', existing.id)
            .execute();
          return 'updated';
        }
        await this.db
          .insertInto('modules')
          .values({
            id: doc.id,
            slug,
            name,
            category: category as Category,
            price_cents: priceCents,
            created_at: this.nowIso,
            updated_at: this.nowIso,
          })
          .execute();
        return 'new';
      });
    }
  }

  async questions(docs: FirestoreData['questions']) {
    for (const doc of docs) {
      let questionHere = false;
      await this.each('questions', `questions/${doc.id}`, async () => {
        const title = text(doc.data.title).trim();
        const body = text(doc.data.text).trim();
        if (!title || !body) throw new Skip(title ? 'no text' : 'no title');
        questionHere = true;
        if (await this.qa.findQuestion(doc.id)) return 'unchanged';
        const [upvotes, downvotes] = [voteCount(doc.data.upvotes), voteCount(doc.data.downvotes)];
        await this.db
          .insertInto('questions')
          .values({
            id: doc.id,
            // Null when the author has deleted their account: the board says "Deleted user", as for ours.
            user_id: await this.userFor(doc.data.user_id),
            title,
            text: body,
            search: `${title}\n${body}`.toLowerCase(),
            created_at: isoTime(doc.data.createdAt, doc.createTime),
            upvotes,
            downvotes,
            imported_upvotes: upvotes,
            imported_downvotes: downvotes,
            version: (await this.qa.takeStamps(1))[0]!.version,
          })
          .execute();
        return 'new';
      });
      for (const answer of doc.answers) {
        await this.each('answers', `questions/${doc.id}/answers/${answer.id}`, async () => {
          if (!questionHere) throw new Skip('its question was skipped');
          const body = text(answer.data.text).trim();
          if (!body) throw new Skip('no text');
          if (await this.qa.findAnswer(answer.id)) return 'unchanged';
          await this.db
            .insertInto('answers')
            .values({
              id: answer.id,
              question_id: doc.id,
              user_id: await this.userFor(answer.data.user_id),
              text: body,
              created_at: isoTime(answer.data.createdAt, answer.createTime),
            })
            .execute();
          // The question's version moves with its answers, so clients that sync `since` fetch them.
          await this.qa.setVersion(doc.id, (await this.qa.takeStamps(1))[0]!);
          return 'new';
        });
      }
    }
  }

  async bookings(docs: SourceDoc[]) {
    const bookings = createBookingsRepository(this.db);
    const catalogue = createCatalogueRepository(this.db);
    for (const doc of docs) {
      await this.each('bookings', `bookings/${doc.id}`, async () => {
        if (await bookings.findById(doc.id)) return 'unchanged';
        const d = doc.data;
        const date = text(d.date);
        if (!isCalendarDate(date)) throw new Skip(`date ${JSON.stringify(d.date)} is not a date (YYYY-MM-DD)`);
        const slots = [d.timeslot1, d.timeslot2, d.timeslot3].map(text);
        const badSlot = slots.find((s) => !isTimeOfDay(s));
        if (badSlot !== undefined) throw new Skip(`time slot ${JSON.stringify(badSlot)} is not a time (HH:MM)`);
        const confirmed = text(d.confirmed_timeslot) || null;
        if (confirmed !== null && !isTimeOfDay(confirmed))
          throw new Skip(`confirmed_timeslot ${JSON.stringify(confirmed)} is not a time (HH:MM)`);
        const hours = Number(d.hours);
        if (!Number.isInteger(hours) || hours < bookingLimits.hoursMin || hours > bookingLimits.hoursMax)
          throw new Skip(`hours ${JSON.stringify(d.hours)} is not a whole number from 1 to 8`);
        const status = bookingStatusOf(d.status);
        if (!status) throw new Skip(`status ${JSON.stringify(d.status)} is not one of ${bookingStatuses.join(', ')}`);

        const module = await catalogue.findByName(text(d.module_name));
        const category: BookingCategory = bookingCategories.includes(d.module_category as BookingCategory)
          ? (d.module_category as BookingCategory)
          : (module?.category ?? uncategorized);
        // The old site kept no price: the module's rate now, or the custom-subject rate, as a new request gets.
        const priceCentsPerHour = module?.priceCents ?? bookingLimits.customRateCents;
        const userId = await this.userFor(d.uid);
        const createdAt = isoTime(d.createdAt, doc.createTime);
        const studentName = text(d.student_name).trim() || 'Anonymous';
        const steps = status === 'Pending' ? 1 : 2;
        await bookings.beginChanges();
        const paymentReference = await uniquePaymentReference(bookings);
        // The booking at its last step's version; its history at each step's (one booking: one shard).
        const stamps = await bookings.takeStamps(steps);
        const first = stamps[0]!.version;
        await bookings.insert(
          {
            id: doc.id,
            student: { id: userId, name: studentName, email: text(d.student_email).trim().toLowerCase() },
            moduleName: module?.name ?? (text(d.module_name).trim() || 'Custom subject'),
            moduleCategory: category,
            priceCentsPerHour,
            totalCents: hours * priceCentsPerHour,
            date,
            slots,
            confirmedSlot: confirmed,
            startsAt: sastInstant(date, confirmed ?? [...slots].sort()[0]!).toISOString(),
            hours,
            concepts: text(d.concepts),
            status,
            lateCancellation: false,
            paymentReference,
            reminderSentAt: null,
            createdAt,
            updatedAt: createdAt,
          },
          stamps.at(-1)!,
        );
        // Its history: the request, and where the old site had taken it (who did that, it did not record).
        const change = (version: number, from: BookingStatus | null, to: BookingStatus, by: string | null) => ({
          id: crypto.randomUUID(),
          bookingId: doc.id,
          version,
          at: createdAt,
          by: {
            id: by === null ? userId : null,
            name: by ?? studentName,
            role: by === null ? ('student' as const) : null,
          },
          from,
          to,
          slot: to === 'Confirmed' ? confirmed : null,
        });
        await bookings.addChange(change(first, null, 'Pending', null));
        if (status !== 'Pending') await bookings.addChange(change(first + 1, 'Pending', status, 'The old site'));
        return 'new';
      });
    }
  }

  async enrolments(docs: SourceDoc[]) {
    for (const doc of docs) {
      const record = `enrolments/${doc.id}`;
      const uid = text(doc.data.uid) || doc.id;
      const names: unknown = doc.data.modules;
      // An emptied record (spec §4: deleting an account writes one) holds nothing to keep.
      if (Array.isArray(names) && names.length === 0) continue;
      const userId = await this.userFor(uid);
      if (!userId || !Array.isArray(names)) {
        await this.each('enrolments', record, async () => {
          throw new Skip(
            userId
              ? `modules ${JSON.stringify(names)} is not a list of module names`
              : `no account for user ${uid} (deleted, or not in the Authentication export)`,
          );
        });
        continue;
      }
      const seen = new Set<string>();
      for (const entry of names) {
        const name = text(entry).trim();
        await this.each('enrolments', `${record} (${JSON.stringify(entry)})`, async () => {
          if (!name) throw new Skip('not a module name');
          if (seen.has(name.toLowerCase())) return 'unchanged';
          seen.add(name.toLowerCase());
          const existing = await this.db
            .selectFrom('enrolments')
            .select('id')
            .where('user_id', '=', userId)
            .where(sql`lower(module_name)`, '=', name.toLowerCase())
            .executeTakeFirst();
          if (existing) return 'unchanged';
          const module = await this.db
            .selectFrom('modules')
            .select(['id', 'name'])
            .where(sql`lower(name)`, '=', name.toLowerCase())
            .executeTakeFirst();
          await this.db
            .insertInto('enrolments')
            .values({
              id: crypto.randomUUID(),
              user_id: userId,
              // A module the catalogue does not have stays readable by name, as one deleted later does.
              module_id: module?.id ?? null,
              module_name: module?.name ?? name,
              created_at: doc.createTime,
            })
            .execute();
          return 'new';
        });
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Field values as the old site may have stored them

const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

/** A Firestore Timestamp, a date string or milliseconds; else the document's own creation time. */
function isoTime(value: unknown, fallback: string): string {
  if (value && typeof value === 'object' && 'toDate' in value && typeof value.toDate === 'function')
    return (value.toDate() as Date).toISOString();
  if (typeof value === 'string' || typeof value === 'number') {
    const time = new Date(value);
    if (!Number.isNaN(time.getTime())) return time.toISOString();
  }
  return fallback;
}

/** A count of votes; anything else (missing, negative, text) counts none. */
function voteCount(value: unknown): number {
  const n = typeof value === 'string' ? Number(value.trim()) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : 0;
}

/** 90, "90", "R90", "R 90.50" → cents; undefined when it is no positive amount the catalogue allows. */
function randToCents(value: unknown): number | undefined {
  const amount =
    typeof value === 'number' ? value : typeof value === 'string' ? Number(value.replace(/^\s*R\s*/i, '')) : NaN;
  const cents = Math.round(amount * 100);
  return Number.isFinite(amount) && cents > 0 && cents <= 10_000_000 ? cents : undefined;
}

/** The spec's four statuses, in any case; a booking without one is still a request (Pending). */
function bookingStatusOf(value: unknown): BookingStatus | undefined {
  if (value === undefined || value === null || value === '') return 'Pending';
  return bookingStatuses.find((s) => s.toLowerCase() === String(value).trim().toLowerCase());
}

// ---------------------------------------------------------------------------------------------------------
// The report

export function formatReport(report: ImportReport, projectId: string): string {
  const lines = [`Read from Firebase project ${projectId}:`];
  for (const kind of importKinds) {
    const c = report.counts[kind];
    const parts = [`${c.new} new`, `${c.unchanged} already here`];
    if (c.updated) parts.push(`${c.updated} updated`);
    parts.push(`${c.skipped} skipped`);
    lines.push(`  ${kind.padEnd(10)} ${String(c.read).padStart(5)} read: ${parts.join(', ')}`);
  }
  if (report.skipped.length > 0) {
    lines.push('Skipped:');
    for (const s of report.skipped) lines.push(`  ${s.record}: ${s.reason}`);
  }
  const total = (key: 'new' | 'updated') => importKinds.reduce((n, k) => n + report.counts[k][key], 0);
  lines.push(
    report.dryRun
      ? `Dry run: nothing was written (${total('new')} new, ${total('updated')} updated had it run).`
      : `Written: ${total('new')} new, ${total('updated')} updated.`,
  );
  return lines.join('\n');
}
