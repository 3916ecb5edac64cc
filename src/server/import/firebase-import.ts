import { bookingCategories, bookingLimits, bookingStatuses, uncategorized } from '../../common/bookings.ts';
import type { BookingCategory, BookingStatus } from '../../common/bookings.ts';
import { slugify } from '../../common/catalogue.ts';
import { categories, type Category } from '../../common/roles.ts';
import { isCalendarDate, isTimeOfDay, sastInstant } from '../../common/sast.ts';
import type { ImportedLogin } from '../auth/accounts.storage.ts';
import { encodeFirebaseHash, type FirebaseHashConfig } from '../auth/firebase-password.ts';
import type { BookingRecord } from '../modules/bookings/bookings.storage.ts';
import { uniquePaymentReference } from '../modules/bookings/bookings.usecases.ts';
import type { StoredEnrolment } from '../modules/profile/profile.storage.ts';
import type { NewAnswer, NewQuestion } from '../modules/qa/qa.storage.ts';
import type { Repositories, Storage } from '../storage/storage.ts';
import { ImportStoppedError, type ExportedUser } from './firebase-auth-export.ts';
import type { FirestoreData, SourceDoc } from './firestore-source.ts';

/**
 * `npm run cli -- import firebase`: the old site's Firestore collections and Firebase Authentication users
 * (spec §3) written into TutorBook's storage through its repositories: on SQL in one transaction, so an import
 * happens whole or not at all; on Firestore in a transaction per batch (`runInBatches` says why and how). Old
 * document ids are kept as ids, so a second run finds every record and writes nothing new.
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
  /**
   * The accounts here whose unproven address an imported one took over (`reclaim`): their sessions ended, which
   * the servers must hear of (the CLI publishes it: docs/decisions/0032).
   */
  handedOver: string[];
}

export interface ImportSource {
  firestore: FirestoreData;
  /** The Authentication export's users; empty without `--auth-export`. */
  users: ExportedUser[];
  hashConfig?: FirebaseHashConfig;
}

/** Thrown inside the transaction of a dry run, so that everything it wrote is rolled back. */
class DryRunRollback extends Error {}

/**
 * On Firestore, how many records one transaction writes at most: a transaction holds what it read until it
 * commits, so a whole site's worth in one would grow past Firestore's limits and lock out the running server.
 */
export const firestoreBatchSize = 100;

/** One step of the import: records of one kind, written with the repositories of one transaction. */
type Step = (repos: Repositories) => Promise<void>;

export async function importFirebase(
  storage: Storage,
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
    handedOver: [],
  };
  const run = new ImportRun(report, options.now);
  // In this order: questions, bookings and enrolments find their users, bookings and enrolments their modules.
  const size = storage.kind === 'firestore' ? firestoreBatchSize : Number.POSITIVE_INFINITY;
  const steps: Step[] = [
    ...batches(source.users, size).map(
      (users): Step =>
        (repos) =>
          run.users(repos, users, source.hashConfig),
    ),
    ...batches(source.firestore.modules, size).map(
      (docs): Step =>
        (repos) =>
          run.modules(repos, docs),
    ),
    ...batches(source.firestore.questions, size).map(
      (docs): Step =>
        (repos) =>
          run.questions(repos, docs),
    ),
    ...batches(source.firestore.bookings, size).map(
      (docs): Step =>
        (repos) =>
          run.bookings(repos, docs),
    ),
    ...batches(source.firestore.enrolments, size).map(
      (docs): Step =>
        (repos) =>
          run.enrolments(repos, docs),
    ),
  ];
  if (storage.kind === 'firestore') await runInBatches(storage, steps, run, options.dryRun);
  else await runAtOnce(storage, steps, options.dryRun);
  return report;
}

/** SQL: every step in one transaction, so the import happens whole or not at all. */
async function runAtOnce(storage: Storage, steps: Step[], dryRun: boolean) {
  try {
    await storage.transaction(async (repos) => {
      for (const step of steps) await step(repos);
      if (dryRun) throw new DryRunRollback();
    });
  } catch (error) {
    if (!(error instanceof DryRunRollback)) throw error;
  }
}

/**
 * Firestore: a transaction per step (one kind, at most `firestoreBatchSize` records). An import stopped
 * part-way keeps the steps that committed; every record is looked up by its old id first, so running it again
 * finds those, writes the rest, and a third run says "0 new". A dry run rolls each step back; the report is
 * the same (a later step finds imported users by the ids the run noted, not in the database).
 */
async function runInBatches(storage: Storage, steps: Step[], run: ImportRun, dryRun: boolean) {
  for (const step of steps) {
    const restore = run.checkpoint();
    try {
      await storage.transaction(async (repos) => {
        // Firestore runs a contended transaction again: its counts and notes start over with it.
        restore();
        await step(repos);
        if (dryRun) throw new DryRunRollback();
      });
    } catch (error) {
      if (!(error instanceof DryRunRollback)) throw error;
    }
  }
}

function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A record that cannot be kept as it is: skipped, with the reason in the report. */
class Skip extends Error {}

/**
 * The import's rules, written through the repositories (decision 0026). Each step has 0026's shape: its reads
 * (and the decision, counted, for each record), then the stamps it needs in one call, then its writes.
 */
class ImportRun {
  /** Old Firebase uid → our user id (the same, or the account that already had the address). */
  private readonly userIds = new Map<string, string | null>();
  /** Modules written by this run, by lower-cased name and slug (Firestore's queries do not see them yet). */
  private readonly moduleKeys = new Set<string>();
  private readonly report: ImportReport;
  private readonly now: Date;
  private readonly nowIso: string;

  constructor(report: ImportReport, now: Date) {
    this.report = report;
    this.now = now;
    this.nowIso = now.toISOString();
  }

  /** What the run has counted and noted so far; the function it returns puts it back (a step run again). */
  checkpoint(): () => void {
    const saved = structuredClone({
      counts: this.report.counts,
      skipped: this.report.skipped,
      handedOver: this.report.handedOver,
      userIds: this.userIds,
      moduleKeys: this.moduleKeys,
    });
    return () => {
      Object.assign(
        this.report,
        structuredClone({ counts: saved.counts, skipped: saved.skipped, handedOver: saved.handedOver }),
      );
      this.userIds.clear();
      for (const [uid, id] of saved.userIds) this.userIds.set(uid, id);
      this.moduleKeys.clear();
      for (const key of saved.moduleKeys) this.moduleKeys.add(key);
    };
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
  private async userFor(repos: Repositories, uid: unknown): Promise<string | null> {
    if (typeof uid !== 'string' || !uid) return null;
    if (!this.userIds.has(uid)) this.userIds.set(uid, (await repos.accounts.findById(uid))?.id ?? null);
    return this.userIds.get(uid)!;
  }

  async users(repos: Repositories, users: ExportedUser[], hashConfig: FirebaseHashConfig | undefined) {
    for (const u of users) {
      await this.each('users', `users/${u.localId}`, async () => {
        if (!u.email) throw new Skip('no e-mail address (a phone or anonymous sign-in), which TutorBook needs');
        if (u.disabled) throw new Skip('disabled in Firebase Authentication');
        const email = u.email.toLowerCase();
        const password =
          u.passwordHash && u.salt && hashConfig ? encodeFirebaseHash(hashConfig, u.salt, u.passwordHash) : null;
        const same = (await repos.accounts.findById(u.localId)) ?? (await repos.accounts.findByEmail(email));
        if (same) {
          this.userIds.set(u.localId, same.id);
          // Here before (an earlier run), or someone verified this address here (signed up, made staff): the
          // old records follow that account, and its login stays as it is.
          if (same.id === u.localId || same.emailVerified) return 'unchanged';
          return this.reclaim(repos, same.id, u, password);
        }
        await repos.accounts.insertImported(
          {
            id: u.localId,
            name: u.displayName?.trim() || email.split('@')[0]!,
            email,
            // Unverified addresses stay unverified: their owners verify as anyone else does.
            emailVerified: u.emailVerified === true,
            image: u.photoUrl ?? null,
            createdAt: u.createdAt ? new Date(Number(u.createdAt)).toISOString() : this.nowIso,
          },
          loginsOf(u.localId, u, password),
          this.now,
        );
        this.userIds.set(u.localId, u.localId);
        return 'new';
      });
    }
  }

  /**
   * Someone signed up here with the old user's address and never verified it. As `staff add` does (decision
   * 0003), the address goes to the person who had it on the old site: that sign-up's password and sessions
   * go, the old password (and Google link) come in. Left alone once it already holds the old password.
   */
  private async reclaim(
    repos: Repositories,
    userId: string,
    u: ExportedUser,
    password: string | null,
  ): Promise<'unchanged' | 'updated'> {
    if ((await repos.accounts.passwordHashOf(userId)) === password && u.emailVerified !== true) return 'unchanged';
    await repos.accounts.handOverToImported(
      userId,
      { name: u.displayName?.trim() || u.email!.toLowerCase().split('@')[0]!, emailVerified: u.emailVerified === true },
      loginsOf(userId, u, password),
      this.now,
    );
    this.report.handedOver.push(userId);
    return 'updated';
  }

  async modules(repos: Repositories, docs: SourceDoc[]) {
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
        // Twice on the old site: the first one counts (SQL would find it; Firestore's query would not yet).
        if (this.moduleKeys.has(`name:${name.toLowerCase()}`) || this.moduleKeys.has(`slug:${slug}`))
          return 'unchanged';
        const existingId = await repos.catalogue.findClash(name, slug);
        const existing = existingId === undefined ? undefined : await repos.catalogue.findById(existingId);
        if (existing) {
          if (existing.category === category && existing.priceCents === priceCents) return 'unchanged';
          // The old site's admin-managed list is what the owner charges; our seed was the spec's guess.
          await repos.catalogue.update(existing.id, {
            category: category as Category,
            priceCents,
            updatedAt: this.nowIso,
          });
          return 'updated';
        }
        await repos.catalogue.insert({
          id: doc.id,
          slug,
          name,
          category: category as Category,
          priceCents,
          description: '',
          topics: [],
          createdAt: this.nowIso,
          updatedAt: this.nowIso,
        });
        this.moduleKeys.add(`name:${name.toLowerCase()}`).add(`slug:${slug}`);
        return 'new';
      });
    }
  }

  async questions(repos: Repositories, docs: FirestoreData['questions']) {
    const { qa } = repos;
    await qa.beginChanges();
    // Reads: what is here already, and each new post's author.
    const plans: { id: string; question?: Omit<NewQuestion, 'stamp'>; version?: number; answers: NewAnswer[] }[] = [];
    for (const doc of docs) {
      const plan: (typeof plans)[number] = { id: doc.id, answers: [] };
      let questionHere = false;
      await this.each('questions', `questions/${doc.id}`, async () => {
        const title = text(doc.data.title).trim();
        const body = text(doc.data.text).trim();
        if (!title || !body) throw new Skip(title ? 'no text' : 'no title');
        questionHere = true;
        const found = await qa.findQuestion(doc.id);
        if (found) {
          plan.version = found.version;
          return 'unchanged';
        }
        const search = `${title}\n${body}`.toLowerCase();
        plan.question = {
          id: doc.id,
          // Null when the author has deleted their account: the board says "Deleted user", as for ours.
          userId: await this.userFor(repos, doc.data.user_id),
          title,
          text: body,
          searchText: search,
          createdAt: isoTime(doc.data.createdAt, doc.createTime),
          importedVotes: { upvotes: voteCount(doc.data.upvotes), downvotes: voteCount(doc.data.downvotes) },
        };
        return 'new';
      });
      for (const answer of doc.answers) {
        await this.each('answers', `questions/${doc.id}/answers/${answer.id}`, async () => {
          if (!questionHere) throw new Skip('its question was skipped');
          const body = text(answer.data.text).trim();
          if (!body) throw new Skip('no text');
          if (await qa.findAnswer(answer.id)) return 'unchanged';
          plan.answers.push({
            id: answer.id,
            questionId: doc.id,
            userId: await this.userFor(repos, answer.data.user_id),
            text: body,
            createdAt: isoTime(answer.data.createdAt, answer.createTime),
          });
          return 'new';
        });
      }
      if (plan.question || plan.answers.length > 0) plans.push(plan);
    }
    if (plans.length === 0) return;
    // One stamp per question written or given new answers, so clients that sync `since` fetch them.
    const above = plans.flatMap((p) => (p.version === undefined ? [] : [p.version]));
    const stamps = await qa.takeStamps(plans.length, above);
    for (const [i, plan] of plans.entries()) {
      if (plan.question) await qa.insertQuestion({ ...plan.question, stamp: stamps[i]! });
      for (const answer of plan.answers) await qa.insertAnswer(answer);
      if (!plan.question) await qa.setVersion(plan.id, stamps[i]!);
    }
  }

  async bookings(repos: Repositories, docs: SourceDoc[]) {
    const { bookings, catalogue } = repos;
    await bookings.beginChanges();
    const plans: { booking: Omit<BookingRecord, 'version'>; steps: BookingStatus[]; userId: string | null }[] = [];
    const references = new Set<string>();
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
        const userId = await this.userFor(repos, d.uid);
        const createdAt = isoTime(d.createdAt, doc.createTime);
        // Unique among the stored ones and this run's (which a Firestore query does not see before the commit).
        let paymentReference: string;
        do paymentReference = await uniquePaymentReference(bookings);
        while (references.has(paymentReference));
        references.add(paymentReference);
        plans.push({
          booking: {
            id: doc.id,
            student: {
              id: userId,
              name: text(d.student_name).trim() || 'Anonymous',
              email: text(d.student_email).trim().toLowerCase(),
            },
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
          // Its history: the request, and where the old site had taken it (who did that, it did not record).
          steps: status === 'Pending' ? ['Pending'] : ['Pending', status],
          userId,
        });
        return 'new';
      });
    }
    if (plans.length === 0) return;
    // One call for the step: a booking's stamps follow one another, one per step of its history.
    const stamps = await bookings.takeStamps(plans.reduce((n, p) => n + p.steps.length, 0));
    let next = 0;
    for (const { booking, steps, userId } of plans) {
      const own = stamps.slice(next, next + steps.length);
      next += steps.length;
      await bookings.insert(booking, own.at(-1)!);
      for (const [i, to] of steps.entries()) {
        const byOldSite = i > 0;
        await bookings.addChange({
          id: crypto.randomUUID(),
          bookingId: booking.id,
          version: own[i]!.version,
          at: booking.createdAt,
          by: {
            id: byOldSite ? null : userId,
            name: byOldSite ? 'The old site' : booking.student.name,
            role: byOldSite ? null : 'student',
          },
          from: i === 0 ? null : steps[i - 1]!,
          to,
          slot: to === 'Confirmed' ? booking.confirmedSlot : null,
        });
      }
    }
  }

  async enrolments(repos: Repositories, docs: SourceDoc[]) {
    const { profile, catalogue } = repos;
    const writes: StoredEnrolment[] = [];
    for (const doc of docs) {
      const record = `enrolments/${doc.id}`;
      const uid = text(doc.data.uid) || doc.id;
      const names: unknown = doc.data.modules;
      // An emptied record (spec §4: deleting an account writes one) holds nothing to keep.
      if (Array.isArray(names) && names.length === 0) continue;
      const userId = await this.userFor(repos, uid);
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
      const held = new Set((await profile.enrolmentsOf(userId)).map((e) => e.moduleName.toLowerCase()));
      for (const entry of names) {
        const name = text(entry).trim();
        await this.each('enrolments', `${record} (${JSON.stringify(entry)})`, async () => {
          if (!name) throw new Skip('not a module name');
          if (held.has(name.toLowerCase())) return 'unchanged';
          held.add(name.toLowerCase());
          const module = await catalogue.findByName(name);
          writes.push({
            id: crypto.randomUUID(),
            userId,
            // A module the catalogue does not have stays readable by name, as one deleted later does.
            moduleId: module?.id ?? null,
            moduleName: module?.name ?? name,
            createdAt: doc.createTime,
          });
          return 'new';
        });
      }
    }
    for (const enrolment of writes) await profile.insertImportedEnrolment(enrolment);
  }
}

/** The old password (a Firebase hash, checked at the first login) and the Google link, as Firebase had them. */
function loginsOf(userId: string, u: ExportedUser, password: string | null): ImportedLogin[] {
  const logins: ImportedLogin[] = [];
  if (password) logins.push({ providerId: 'credential', accountId: userId, passwordHash: password });
  // Google's own user id: better-auth finds the account by it when "Continue with Google" comes back.
  const google = u.providerUserInfo?.find((p) => p.providerId === 'google.com' && p.rawId);
  if (google) logins.push({ providerId: 'google', accountId: google.rawId!, passwordHash: null });
  return logins;
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
