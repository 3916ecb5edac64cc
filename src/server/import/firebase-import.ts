import {
  bookingCategories,
  bookingLimits,
  bookingStatuses,
  bookingTotalCents,
  uncategorized,
} from '../../common/bookings.ts';
import type { BookingCategory, BookingStatus } from '../../common/bookings.ts';
import { slugify } from '../../common/catalogue.ts';
import { categories, type Category } from '../../common/roles.ts';
import { isCalendarDate, isTimeOfDay, sastInstant } from '../../common/sast.ts';
import type { ImportedLogin } from '../auth/accounts.storage.ts';
import { encodeFirebaseHash, isFirebaseHash, type FirebaseHashConfig } from '../auth/firebase-password.ts';
import type { BookingRecord, BookingUpdate } from '../modules/bookings/bookings.storage.ts';
import { uniquePaymentReference } from '../modules/bookings/bookings.usecases.ts';
import type { StoredEnrolment } from '../modules/profile/profile.storage.ts';
import type { NewAnswer, NewQuestion } from '../modules/qa/qa.storage.ts';
import { restampPostsOf } from '../modules/qa/qa.usecases.ts';
import type { Repositories, Storage } from '../storage/storage.ts';
import { compareRecord, entryChanged, fingerprint, printsOf, type Fields } from './changes.ts';
import { ImportStoppedError, type ExportedUser } from './firebase-auth-export.ts';
import type { FirestoreData, SourceDoc } from './firestore-source.ts';
import type { LedgerEntry, LedgerKind } from './import-ledger.storage.ts';
import {
  answerTextOf,
  bookingModuleOf,
  bookingStatusOf,
  conceptsOf,
  emailOf,
  idProblem,
  imageOf,
  importedVotesMax,
  isoTime,
  moduleNameOf,
  nameOf,
  questionTextOf,
  questionTitleOf,
  randToCents,
  recordName,
  shown,
  text,
  voteCount,
} from './old-values.ts';

/**
 * `npm run cli -- import firebase`: the old site's Firestore collections and Firebase Authentication users
 * (spec §3) written into TutorBook's storage through its repositories: on SQL in one transaction, so an import
 * happens whole or not at all; on Firestore in a transaction per batch (`runInBatches` says why and how). Old
 * document ids are kept as ids. Run again, it brings what changed on the old site since (decision 0037): the
 * ledger (import-ledger.storage.ts) tells, per record and field, which side changed what.
 * Decisions 0023 and 0037 say why each mapping is as it is.
 */

export const importKinds = ['users', 'modules', 'questions', 'answers', 'bookings', 'enrolments'] as const;
export type ImportKind = (typeof importKinds)[number] & LedgerKind;

export interface ImportCounts {
  read: number;
  new: number;
  /** Already here, with nothing to bring: from an earlier run, or (users) a verified account with the address. */
  unchanged: number;
  /**
   * Already here, and brought up to date with what changed on the old site since the last run; or (users) an
   * address signed up with here but never verified, which goes to its old owner; or (enrolments) a module
   * the old site's record no longer lists, removed here.
   */
  updated: number;
  skipped: number;
}

/** A record of the report: named as in Firebase (`bookings/<id>`), and what happened to it. */
export interface ReportedRecord {
  record: string;
  reason: string;
}

export interface ImportReport {
  dryRun: boolean;
  counts: Record<ImportKind, ImportCounts>;
  /** Each record left out, and why. */
  skipped: ReportedRecord[];
  /** Each record written with a value brought within the rules (a bound, a fallback), and which. */
  adjusted: ReportedRecord[];
  /**
   * Each record changed on both sides since the last run, with the fields changed on both: the old site's
   * values were taken (decision 0037), so the owner can look.
   */
  changedOnBothSides: ReportedRecord[];
  /**
   * The accounts here the import changed: an unproven address taken over by its old owner (its sessions
   * ended), an account disabled on the old site (signed out), or renamed or verified there. The servers must
   * hear of it, to read their sessions again (the CLI publishes it: docs/decisions/0032).
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
    adjusted: [],
    changedOnBothSides: [],
    handedOver: [],
  };
  const run = new ImportRun(report, options.now, source.users);
  // In this order: questions, bookings and enrolments find their users, bookings and enrolments their modules.
  const size = storage.kind === 'firestore' ? firestoreBatchSize : Number.POSITIVE_INFINITY;
  const steps: Step[] = [
    ...batches(source.users, size).map(
      (users): Step =>
        (repos) =>
          run.users(repos, users, source.hashConfig),
    ),
    // The names the users' step changed, in the bookings that hold copies of them (decision 0025), and the
    // board's versions of their posts (decision 0047).
    (repos) => run.renames(repos),
    (repos) => run.boardRenames(repos),
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
  try {
    if (storage.kind === 'firestore') await runInBatches(storage, steps, run, options.dryRun);
    else await runAtOnce(storage, steps, options.dryRun);
  } catch (error) {
    // Never a stack trace: what stopped it, at which record, and what that means for the data.
    throw new ImportStoppedError(
      `The import stopped at ${run.current}: ${String((error as Error).message ?? error).replace(/\.+$/, '')}. ` +
        (storage.kind === 'firestore'
          ? 'The batches before it were written; run it again to finish.'
          : 'Nothing was written (the import is one transaction).'),
      { cause: error },
    );
  }
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

/** What a record's step decided: counted as such; `adjusted` notes go in the report once it is written. */
type Outcome = 'new' | 'unchanged' | 'updated';

/** The report's words for the fields the import compares. */
const fieldWords: Record<string, string> = {
  emailVerified: 'verified address',
  google: 'Google link',
  priceCents: 'price',
  confirmedSlot: 'confirmed time',
  slots: 'requested times',
};
const inWords = (fields: readonly string[]) =>
  fields.map((f) => fieldWords[f] ?? (f.startsWith('m:') ? 'a module' : f)).join(', ');

const deletedHere = 'deleted here since an earlier import: not brought back';

/**
 * The import's rules, written through the repositories (decision 0026). Each step has 0026's shape: its reads
 * (the ledger's entries first, then each record, and the decision, counted, for each), then the stamps it
 * needs in one call, then its writes, the ledger's last.
 */
class ImportRun {
  /** Old Firebase uid → our user id (the same, or the account that already had the address), or null (none). */
  private readonly userIds = new Map<string, string | null>();
  /** Accounts whose name this run changed (user id → the name): their bookings' copies follow (`renames`). */
  private readonly renamed = new Map<string, string>();
  /** Modules written by this run, by lower-cased name and slug (Firestore's queries do not see them yet). */
  private readonly moduleKeys = new Set<string>();
  /** The uids the Authentication export has as disabled (not imported, so their records have no account). */
  private readonly disabledUids: Set<string>;
  private readonly report: ImportReport;
  private readonly now: Date;
  private readonly nowIso: string;
  /** The record being read: what an error that stops the import is reported at. */
  current = 'the start';

  constructor(report: ImportReport, now: Date, users: readonly ExportedUser[]) {
    this.report = report;
    this.now = now;
    this.nowIso = now.toISOString();
    this.disabledUids = new Set(users.filter((u) => u.disabled).map((u) => u.localId));
  }

  /** What the run has counted and noted so far; the function it returns puts it back (a step run again). */
  checkpoint(): () => void {
    const saved = structuredClone({
      counts: this.report.counts,
      skipped: this.report.skipped,
      adjusted: this.report.adjusted,
      changedOnBothSides: this.report.changedOnBothSides,
      handedOver: this.report.handedOver,
      userIds: this.userIds,
      moduleKeys: this.moduleKeys,
      renamed: this.renamed,
    });
    return () => {
      const { userIds, moduleKeys, renamed, ...report } = structuredClone(saved);
      Object.assign(this.report, report);
      this.renamed.clear();
      for (const [id, name] of renamed) this.renamed.set(id, name);
      this.userIds.clear();
      for (const [uid, id] of userIds) this.userIds.set(uid, id);
      this.moduleKeys.clear();
      for (const key of moduleKeys) this.moduleKeys.add(key);
    };
  }

  /**
   * Runs `work` for one record, counting it; a `Skip` it throws becomes a line of the report, and the values
   * it `adjust`ed are reported once the record is written (new or updated).
   */
  private async each(kind: ImportKind, record: string, work: (adjust: (reason: string) => void) => Promise<Outcome>) {
    this.current = record;
    const counts = this.report.counts[kind];
    counts.read += 1;
    const adjusted: string[] = [];
    try {
      const outcome = await work((reason) => adjusted.push(reason));
      counts[outcome] += 1;
      if (outcome !== 'unchanged') for (const reason of adjusted) this.report.adjusted.push({ record, reason });
    } catch (error) {
      if (!(error instanceof Skip)) throw error;
      counts.skipped += 1;
      this.report.skipped.push({ record, reason: error.message });
    }
  }

  /** Notes a record changed on both sides since the last import (`fields`), or untracked and differing. */
  private bothSides(record: string, fields: readonly string[], untracked: boolean, note = '') {
    if (fields.length === 0) return;
    const why = untracked ? ' (imported before re-runs compared sides: either may have changed it)' : '';
    this.report.changedOnBothSides.push({ record, reason: `${inWords(fields)}${note}${why}` });
  }

  /**
   * The ledger's entry to save for a record: the sides as this run leaves them, when it wrote the record or
   * the record had none (imported before the ledger: compared directly, now recorded). A record left alone
   * keeps its entry, so a change made here stays a change "since the import last wrote it" until then.
   */
  private entry(
    stored: LedgerEntry | undefined,
    written: boolean,
    kind: LedgerKind,
    oldId: string,
    ourId: string,
    old: Fields,
    ours: Fields,
  ): LedgerEntry[] {
    if (stored && !written) return [];
    const next = { kind, oldId, ourId, old: printsOf(old), ours: printsOf(ours) };
    return entryChanged(stored, next) ? [{ ...next, importedAt: this.nowIso }] : [];
  }

  /**
   * Our id for an old uid: an account imported now or before (the ledger knows one merged into an account that
   * was here first, even in a run without the Authentication export), or null (none: deleted, or never here).
   */
  private async userFor(repos: Repositories, uid: unknown): Promise<string | null> {
    if (typeof uid !== 'string' || !uid || idProblem(uid)) return null;
    if (!this.userIds.has(uid)) {
      const entry = (await repos.importLedger.find('users', [uid])).get(uid);
      this.userIds.set(uid, (await repos.accounts.findById(entry?.ourId ?? uid))?.id ?? null);
    }
    return this.userIds.get(uid)!;
  }

  /** Why an old uid has no account here, for the records that name it. */
  private noAccount(uid: string): string {
    return this.disabledUids.has(uid)
      ? `the account of user ${uid} is disabled in Firebase Authentication, so it was not imported`
      : `no account for user ${uid} (deleted, or not in the Authentication export)`;
  }

  // -------------------------------------------------------------------------------------------------------
  // Users

  async users(repos: Repositories, users: ExportedUser[], hashConfig: FirebaseHashConfig | undefined) {
    const ledger = await repos.importLedger.find(
      'users',
      users.map((u) => u.localId).filter((id) => !idProblem(id)),
    );
    const entries: LedgerEntry[] = [];
    for (const u of users) {
      await this.each('users', recordName('users', u.localId), async (adjust) => {
        const problem = idProblem(u.localId);
        if (problem) throw new Skip(problem);
        if (!u.email) throw new Skip('no e-mail address (a phone or anonymous sign-in), which TutorBook needs');
        const email = emailOf(u.email);
        if (!email) throw new Skip(`e-mail address ${shown(u.email)} is not one sign-up accepts`);
        const entry = ledger.get(u.localId);
        const name = this.userName(u, email, adjust);
        const password =
          u.passwordHash && u.salt && hashConfig ? encodeFirebaseHash(hashConfig, u.salt, u.passwordHash) : null;
        const old: Fields = {
          name,
          emailVerified: u.emailVerified === true,
          password,
          google: googleIdOf(u),
          disabled: u.disabled === true,
        };

        const found = entry
          ? await repos.accounts.findById(entry.ourId)
          : ((await repos.accounts.findById(u.localId)) ?? (await repos.accounts.findByEmail(email)));
        // Disabled on the old site before it was ever imported: left out (TutorBook has no disabled accounts).
        // One imported earlier and disabled since is brought up to date: signed out, its ways in taken away.
        const disabled = new Skip('disabled in Firebase Authentication');
        if (!found) {
          if (entry) {
            this.userIds.set(u.localId, null);
            throw new Skip(deletedHere);
          }
          if (u.disabled) throw disabled;
          await repos.accounts.insertImported(
            {
              id: u.localId,
              name,
              email,
              // Unverified addresses stay unverified: their owners verify as anyone else does.
              emailVerified: u.emailVerified === true,
              image: imageOf(u.photoUrl),
              createdAt: isoTime(u.createdAt, this.nowIso),
            },
            loginsOf(u.localId, password, old.google as string | null),
            this.now,
          );
          this.userIds.set(u.localId, u.localId);
          entries.push(...this.entry(undefined, true, 'users', u.localId, u.localId, old, old));
          return 'new';
        }
        this.userIds.set(u.localId, found.id);
        if (!entry && found.id !== u.localId) {
          // Someone verified this address here (signed up, made staff): the old records follow that account,
          // and its login stays as it is.
          if (found.emailVerified) return 'unchanged';
          // Handed over by a run before the ledger: it holds the old password, and is the old user's.
          if ((await repos.accounts.passwordHashOf(found.id)) === password && password !== null)
            return this.updateUser(repos, u.localId, found, old, entry, entries);
          if (u.disabled) {
            this.userIds.set(u.localId, null);
            throw disabled;
          }
          await this.reclaim(repos, found.id, old);
          entries.push(...this.entry(undefined, true, 'users', u.localId, found.id, old, { ...old, disabled: false }));
          return 'updated';
        }
        return this.updateUser(repos, u.localId, found, old, entry, entries);
      });
    }
    await repos.importLedger.save(entries);
  }

  /** The old display name, held to the name rules; one that breaks them gives way to the address's first part. */
  private userName(u: ExportedUser, email: string, adjust: (reason: string) => void): string {
    const fallback = email.split('@')[0]!;
    const given = u.displayName?.trim();
    if (!given) return fallback;
    const checked = nameOf(given);
    if (checked.ok) return checked.value;
    adjust(`display name ${shown(given)}: ${checked.message} "${fallback}" is used`);
    return fallback;
  }

  /**
   * Someone signed up here with the old user's address and never verified it. As `staff add` does (decision
   * 0003), the address goes to the person who had it on the old site: that sign-up's password and sessions
   * go, the old password (and Google link) come in. Once done, the ledger holds it: a later run compares.
   */
  private async reclaim(repos: Repositories, userId: string, old: Fields) {
    await repos.accounts.handOverToImported(
      userId,
      { name: old.name as string, emailVerified: old.emailVerified as boolean },
      loginsOf(userId, old.password as string | null, old.google as string | null),
      this.now,
    );
    this.report.handedOver.push(userId);
    this.renamed.set(userId, old.name as string);
  }

  /**
   * The bookings' copies of the names this run changed: a booking shows its student's current name, and its
   * history its people's (decision 0025), as a rename here does (bookings' `renameFor`), each touched booking at
   * a new version so clients fetch it.
   */
  async renames(repos: Repositories) {
    if (this.renamed.size === 0) return;
    this.current = 'the renamed accounts’ bookings';
    const { bookings } = repos;
    await bookings.beginChanges();
    const touched = new Map<string, BookingRecord>();
    for (const userId of this.renamed.keys())
      for (const row of await bookings.listTouchedBy(userId)) touched.set(row.id, row);
    const rows = [...touched.values()];
    if (rows.length > 0) {
      const stamps = await bookings.takeStamps(
        rows.length,
        rows.map((row) => row.version),
      );
      for (const [i, row] of rows.entries()) await bookings.setVersion(row.id, stamps[i]!);
    }
    for (const [userId, name] of this.renamed) {
      await bookings.setStudentName(userId, name, this.nowIso);
      await bookings.setNameInHistory(userId, name);
    }
  }

  /**
   * The board names authors from their accounts, but a device pulls only the questions changed since its last
   * pull: each question a renamed account asked or answered gets a new version, as a rename here does (the
   * board's `renameFor`, decision 0047).
   */
  async boardRenames(repos: Repositories) {
    if (this.renamed.size === 0) return;
    this.current = 'the renamed accounts’ posts';
    await repos.qa.beginChanges();
    await restampPostsOf(repos.qa, this.renamed.keys());
  }

  /** An account imported before: what the old site changed since is brought, field by field. */
  private async updateUser(
    repos: Repositories,
    oldId: string,
    found: { id: string; name: string; emailVerified: boolean },
    old: Fields,
    entry: LedgerEntry | undefined,
    entries: LedgerEntry[],
  ): Promise<Outcome> {
    const record = recordName('users', oldId);
    const ours: Fields = {
      name: found.name,
      emailVerified: found.emailVerified,
      password: await repos.accounts.passwordHashOf(found.id),
      google: await repos.accounts.googleIdOf(found.id),
      // TutorBook has no disabled accounts: one is disabled here when the import last took the old site's.
      disabled: entry?.old.disabled === fingerprint(true),
    };
    const cmp = compareRecord({
      entry,
      old,
      ours,
      mapped: old,
      changeableHere: ['name', 'emailVerified', 'password', 'google'],
    });
    const take = new Set(cmp.fromOld);
    // Imported before the ledger and logged in here since: that login proved the password then, and nothing
    // tells whether the old site's changed after; the one here stays.
    if (cmp.untracked && typeof ours.password === 'string' && !isFirebaseHash(ours.password)) take.delete('password');
    // An address proven here stays proven.
    if (take.has('emailVerified') && ours.emailVerified === true) take.delete('emailVerified');
    const after: Fields = { ...ours };
    const changes: Parameters<Repositories['accounts']['updateImported']>[1] = {};
    if (take.has('name')) changes.name = after.name = old.name as string;
    if (take.has('emailVerified')) changes.emailVerified = after.emailVerified = old.emailVerified as boolean;
    if (take.has('password') || take.has('google') || take.has('disabled')) {
      const fresh = take.has('disabled');
      if (fresh) after.disabled = old.disabled;
      if (take.has('password') || fresh) after.password = old.password;
      if (take.has('google') || fresh) after.google = old.google;
      if (old.disabled === true) {
        // Disabled on the old site: signed out here, and no way in that the old site had is left.
        after.password = after.google = null;
        changes.endSessions = true;
      }
      changes.logins = loginsOf(found.id, after.password as string | null, after.google as string | null);
    }
    const written = Object.keys(changes).length > 0;
    if (written) {
      await repos.accounts.updateImported(found.id, changes, this.now);
      this.report.handedOver.push(found.id);
    }
    if (changes.name !== undefined && changes.name !== ours.name) this.renamed.set(found.id, changes.name);
    this.bothSides(
      record,
      cmp.bothSides.filter((f) => take.has(f)),
      cmp.untracked,
    );
    entries.push(...this.entry(entry, written, 'users', oldId, found.id, old, after));
    return written ? 'updated' : 'unchanged';
  }

  // -------------------------------------------------------------------------------------------------------
  // Modules

  async modules(repos: Repositories, docs: SourceDoc[]) {
    const ledger = await repos.importLedger.find(
      'modules',
      docs.map((d) => d.id),
    );
    const entries: LedgerEntry[] = [];
    for (const doc of docs) {
      await this.each('modules', recordName('modules', doc.id), async () => {
        const given = text(doc.data.name).trim();
        if (!given) throw new Skip('no name');
        const checkedName = moduleNameOf(given);
        if (!checkedName.ok) throw new Skip(`name ${shown(given)}: ${checkedName.message}`);
        const name = checkedName.value;
        const category = doc.data.category;
        if (!categories.includes(category as Category))
          throw new Skip(`category ${JSON.stringify(category)} is not one of ${categories.join(', ')}`);
        const priceCents = randToCents(doc.data.price);
        if (priceCents === undefined)
          throw new Skip(`price ${shown(doc.data.price)} is not an amount in rand per hour up to R100,000`);
        const old: Fields = { name, category, priceCents };
        const slug = slugify(name);
        // Twice on the old site: the first one counts (SQL would find it; Firestore's query would not yet).
        if (this.moduleKeys.has(`name:${name.toLowerCase()}`) || this.moduleKeys.has(`slug:${slug}`))
          return 'unchanged';
        const entry = ledger.get(doc.id);
        const existingId = entry ? entry.ourId : await repos.catalogue.findClash(name, slug);
        const existing = existingId === undefined ? undefined : await repos.catalogue.findById(existingId);
        if (!existing && entry) throw new Skip(deletedHere);
        if (!existing) {
          const problem = idProblem(doc.id);
          if (problem) throw new Skip(problem);
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
          entries.push(...this.entry(undefined, true, 'modules', doc.id, doc.id, old, old));
          return 'new';
        }
        this.moduleKeys.add(`name:${existing.name.toLowerCase()}`).add(`slug:${existing.slug}`);
        const ours: Fields = { name: existing.name, category: existing.category, priceCents: existing.priceCents };
        const cmp = compareRecord({
          entry,
          old,
          ours,
          mapped: old,
          changeableHere: ['name', 'category', 'priceCents'],
        });
        const take = new Set(cmp.fromOld);
        // Found by its name (ignoring case): the catalogue's spelling stays. The old site's admin-managed list
        // is what the owner charges; our seed was the spec's guess, so its price and category are taken.
        if (cmp.untracked) take.delete('name');
        if (take.has('name') && (await repos.catalogue.findClash(name, slugify(name), existing.id))) {
          take.delete('name');
          this.report.adjusted.push({
            record: recordName('modules', doc.id),
            reason: `renamed to ${shown(name)} on the old site, a name another module has here: the name stays`,
          });
        }
        const after: Fields = { ...ours };
        for (const field of take) after[field] = old[field];
        if (take.size > 0)
          await repos.catalogue.update(existing.id, {
            ...(take.has('name') && { name }),
            ...(take.has('category') && { category: category as Category }),
            ...(take.has('priceCents') && { priceCents }),
            updatedAt: this.nowIso,
          });
        this.bothSides(
          recordName('modules', doc.id),
          cmp.untracked ? [] : cmp.bothSides.filter((f) => take.has(f)),
          false,
        );
        entries.push(...this.entry(entry, take.size > 0, 'modules', doc.id, existing.id, old, after));
        return take.size > 0 ? 'updated' : 'unchanged';
      });
    }
    await repos.importLedger.save(entries);
  }

  // -------------------------------------------------------------------------------------------------------
  // Questions and answers

  async questions(repos: Repositories, docs: FirestoreData['questions']) {
    const { qa, importLedger } = repos;
    await qa.beginChanges();
    const [questionLedger, answerLedger] = [
      await importLedger.find(
        'questions',
        docs.map((d) => d.id),
      ),
      await importLedger.find(
        'answers',
        docs.flatMap((d) => d.answers.map((a) => a.id)),
      ),
    ];
    const entries: LedgerEntry[] = [];
    // Reads: what is here already, the old counts, and each new post's author.
    const plans: {
      id: string;
      question?: Omit<NewQuestion, 'stamp'>;
      update?: Parameters<Repositories['qa']['updateImportedQuestion']>[1];
      importedBefore?: { upvotes: number; downvotes: number };
      version?: number;
      answers: NewAnswer[];
      answerUpdates: { id: string; text: string }[];
    }[] = [];
    for (const doc of docs) {
      const plan: (typeof plans)[number] = { id: doc.id, answers: [], answerUpdates: [] };
      const record = recordName('questions', doc.id);
      /** Whether its answers can be here: the question is (or is coming), and not deleted here. */
      let answersWhy: string | undefined = 'its question was skipped';
      await this.each('questions', record, async (adjust) => {
        const title = text(doc.data.title).trim();
        const body = text(doc.data.text).trim();
        if (!title || !body) throw new Skip(title ? 'no text' : 'no title');
        const checkedTitle = questionTitleOf(title);
        if (!checkedTitle.ok) throw new Skip(`title of ${title.length} characters: ${checkedTitle.message}`);
        const checkedText = questionTextOf(body);
        if (!checkedText.ok) throw new Skip(`text of ${body.length} characters: ${checkedText.message}`);
        const votes = { upvotes: 0, downvotes: 0 };
        for (const key of ['upvotes', 'downvotes'] as const) {
          const { count, clamped } = voteCount(doc.data[key]);
          if (clamped) adjust(`${key} ${shown(doc.data[key])} is more than ${importedVotesMax}: kept as ${count}`);
          votes[key] = count;
        }
        const old: Fields = {
          title: checkedTitle.value,
          text: checkedText.value,
          votes: [votes.upvotes, votes.downvotes],
        };
        const entry = questionLedger.get(doc.id);
        const found = await qa.findQuestion(doc.id);
        if (!found && entry) throw new Skip(deletedHere);
        if (found?.deletedAt) {
          answersWhy = 'its question was deleted here';
          throw new Skip(deletedHere);
        }
        answersWhy = undefined;
        if (found) {
          plan.version = found.version;
          const imported = (await qa.importedVotesOf(doc.id)) ?? { upvotes: 0, downvotes: 0 };
          const ours: Fields = { title: found.title, text: found.text, votes: [imported.upvotes, imported.downvotes] };
          // Nothing of these changes here (votes cast here are counted apart from the old ones).
          const cmp = compareRecord({ entry, old, ours, mapped: old, changeableHere: [] });
          entries.push(
            ...this.entry(
              entry,
              cmp.fromOld.length > 0,
              'questions',
              doc.id,
              doc.id,
              old,
              cmp.fromOld.length ? old : ours,
            ),
          );
          if (cmp.fromOld.length === 0) return 'unchanged';
          plan.update = {
            title: checkedTitle.value,
            text: checkedText.value,
            searchText: `${checkedTitle.value}\n${checkedText.value}`.toLowerCase(),
            importedVotes: votes,
          };
          plan.importedBefore = imported;
          return 'updated';
        }
        const problem = idProblem(doc.id);
        if (problem) {
          answersWhy = 'its question was skipped';
          throw new Skip(problem);
        }
        plan.question = {
          id: doc.id,
          // Null when the author has deleted their account: the board says "Deleted user", as for ours.
          userId: await this.userFor(repos, doc.data.user_id),
          title: checkedTitle.value,
          text: checkedText.value,
          searchText: `${checkedTitle.value}\n${checkedText.value}`.toLowerCase(),
          createdAt: isoTime(doc.data.createdAt, doc.createTime),
          importedVotes: votes,
        };
        entries.push(...this.entry(undefined, true, 'questions', doc.id, doc.id, old, old));
        return 'new';
      });
      for (const answer of doc.answers) {
        await this.each('answers', `${record}/answers/${recordName('', answer.id).slice(1)}`, async () => {
          if (answersWhy) throw new Skip(answersWhy);
          const body = text(answer.data.text).trim();
          if (!body) throw new Skip('no text');
          const checked = answerTextOf(body);
          if (!checked.ok) throw new Skip(`text of ${body.length} characters: ${checked.message}`);
          const old: Fields = { text: checked.value };
          const entry = answerLedger.get(answer.id);
          const found = await qa.findAnswer(answer.id);
          if (!found && entry) throw new Skip(deletedHere);
          if (found) {
            const ours: Fields = { text: found.text };
            const cmp = compareRecord({ entry, old, ours, mapped: old, changeableHere: [] });
            entries.push(
              ...this.entry(
                entry,
                cmp.fromOld.length > 0,
                'answers',
                answer.id,
                answer.id,
                old,
                cmp.fromOld.length ? old : ours,
              ),
            );
            if (cmp.fromOld.length === 0) return 'unchanged';
            plan.answerUpdates.push({ id: answer.id, text: checked.value });
            return 'updated';
          }
          const problem = idProblem(answer.id);
          if (problem) throw new Skip(problem);
          plan.answers.push({
            id: answer.id,
            questionId: doc.id,
            userId: await this.userFor(repos, answer.data.user_id),
            text: checked.value,
            createdAt: isoTime(answer.data.createdAt, answer.createTime),
          });
          entries.push(...this.entry(undefined, true, 'answers', answer.id, answer.id, old, old));
          return 'new';
        });
      }
      if (plan.question || plan.update || plan.answers.length > 0 || plan.answerUpdates.length > 0) plans.push(plan);
    }
    if (plans.length > 0) {
      // One stamp per question written, or given new or changed answers, so clients that sync `since` fetch them.
      const above = plans.flatMap((p) => (p.version === undefined ? [] : [p.version]));
      const stamps = await qa.takeStamps(plans.length, above);
      for (const [i, plan] of plans.entries()) {
        this.current = recordName('questions', plan.id);
        const stamp = stamps[i]!;
        if (plan.question) await qa.insertQuestion({ ...plan.question, stamp });
        else if (plan.update) await qa.updateImportedQuestion(plan.id, plan.update, plan.importedBefore!, stamp);
        for (const answer of plan.answers) await qa.insertAnswer(answer);
        for (const answer of plan.answerUpdates) await qa.updateImportedAnswer(answer.id, answer.text);
        if (!plan.question && !plan.update) await qa.setVersion(plan.id, stamp);
      }
    }
    await importLedger.save(entries);
  }

  // -------------------------------------------------------------------------------------------------------
  // Bookings

  async bookings(repos: Repositories, docs: SourceDoc[]) {
    const { bookings, importLedger } = repos;
    await bookings.beginChanges();
    const ledger = await importLedger.find(
      'bookings',
      docs.map((d) => d.id),
    );
    const entries: LedgerEntry[] = [];
    const inserts: { booking: Omit<BookingRecord, 'version'>; userId: string | null }[] = [];
    const updates: { before: BookingRecord; update: Omit<BookingUpdate, 'stamp'>; statusFrom?: BookingStatus }[] = [];
    const references = new Set<string>();
    for (const doc of docs) {
      const record = recordName('bookings', doc.id);
      await this.each('bookings', record, async (adjust) => {
        const entry = ledger.get(doc.id);
        const existing = await bookings.findById(doc.id);
        if (!existing && entry) throw new Skip(deletedHere);
        const mapped = await this.mapBooking(repos, doc, adjust);
        const old = oldBookingFields(doc, mapped);
        if (!existing) {
          const problem = idProblem(doc.id);
          if (problem) throw new Skip(problem);
          // Unique among the stored ones and this run's (which a Firestore query does not see before the commit).
          let paymentReference: string;
          do paymentReference = await uniquePaymentReference(bookings);
          while (references.has(paymentReference));
          references.add(paymentReference);
          const booking = { ...mapped, paymentReference };
          inserts.push({ booking, userId: mapped.student.id });
          entries.push(...this.entry(undefined, true, 'bookings', doc.id, doc.id, old, ourBookingFields(booking)));
          return 'new';
        }
        const ours = ourBookingFields(existing);
        const cmp = compareRecord({
          entry,
          old,
          ours,
          mapped: ourBookingFields(mapped),
          changeableHere: ['student', 'confirmedSlot', 'status'],
        });
        const take = new Set(cmp.fromOld);
        // The student deleted their account here: their name and address are gone for good (POPIA), whatever the
        // old site still holds.
        const scrubbed = existing.student.id === null && existing.student.email === '';
        if (scrubbed) take.delete('student');
        if (take.size === 0) {
          entries.push(...this.entry(entry, false, 'bookings', doc.id, doc.id, old, ours));
          return 'unchanged';
        }
        const next: BookingRecord = { ...existing };
        if (take.has('student')) next.student = mapped.student;
        if (take.has('module')) {
          next.moduleName = mapped.moduleName;
          next.moduleCategory = mapped.moduleCategory;
          next.priceCentsPerHour = mapped.priceCentsPerHour;
        }
        if (take.has('date')) next.date = mapped.date;
        if (take.has('slots')) next.slots = mapped.slots;
        if (take.has('confirmedSlot')) next.confirmedSlot = mapped.confirmedSlot;
        if (take.has('hours')) next.hours = mapped.hours;
        if (take.has('concepts')) next.concepts = mapped.concepts;
        if (take.has('status')) next.status = mapped.status;
        next.totalCents = bookingTotalCents(next.hours, next.priceCentsPerHour);
        next.startsAt = startsAtOf(next.date, next.slots, next.confirmedSlot);
        const when = next.startsAt !== existing.startsAt;
        const moved =
          next.status !== existing.status ||
          (next.status === 'Confirmed' && next.confirmedSlot !== existing.confirmedSlot);
        updates.push({
          before: existing,
          update: {
            ...(take.has('student') && { student: next.student }),
            ...(take.has('module') && {
              moduleName: next.moduleName,
              moduleCategory: next.moduleCategory,
              priceCentsPerHour: next.priceCentsPerHour,
            }),
            ...(take.has('date') && { date: next.date }),
            ...(take.has('slots') && { slots: next.slots }),
            ...(take.has('confirmedSlot') && { confirmedSlot: next.confirmedSlot }),
            ...(take.has('hours') && { hours: next.hours }),
            ...(take.has('concepts') && { concepts: next.concepts }),
            // The old site's change of status is a staff change: never a student's late cancellation.
            ...(take.has('status') && { status: next.status, lateCancellation: false }),
            totalCents: next.totalCents,
            startsAt: next.startsAt,
            // A new time gets its reminder.
            ...(when && { reminderSentAt: null }),
            updatedAt: this.nowIso,
          },
          ...(moved && { statusFrom: existing.status }),
        });
        this.bothSides(
          record,
          cmp.bothSides.filter((f) => take.has(f)),
          cmp.untracked,
          moved ? ' (the change here stays in its history)' : '',
        );
        entries.push(...this.entry(entry, true, 'bookings', doc.id, doc.id, old, ourBookingFields(next)));
        return 'updated';
      });
    }
    if (inserts.length + updates.length > 0) {
      // One call for the step: a new booking's stamps follow one another, one per step of its history; a
      // changed one takes one above the version it has.
      const steps = inserts.map(({ booking }) => (booking.status === 'Pending' ? 1 : 2));
      const stamps = await bookings.takeStamps(
        steps.reduce((n, k) => n + k, 0) + updates.length,
        updates.map((u) => u.before.version),
      );
      let next = 0;
      for (const [i, { booking, userId }] of inserts.entries()) {
        this.current = recordName('bookings', booking.id);
        const own = stamps.slice(next, next + steps[i]!);
        next += steps[i]!;
        await bookings.insert(booking, own.at(-1)!);
        // Its history: the request, and where the old site had taken it (who did that, it did not record).
        await bookings.addChange({
          id: crypto.randomUUID(),
          bookingId: booking.id,
          version: own[0]!.version,
          at: booking.createdAt,
          by: { id: userId, name: booking.student.name, role: 'student' },
          from: null,
          to: 'Pending',
          slot: null,
        });
        if (booking.status !== 'Pending')
          await this.byOldSite(repos, booking, own[1]!.version, 'Pending', booking.createdAt);
      }
      for (const { before, update, statusFrom } of updates) {
        this.current = recordName('bookings', before.id);
        const stamp = stamps[next++]!;
        if (!(await bookings.updateIfAtVersion(before.id, before.version, { ...update, stamp })))
          throw new Error(`bookings/${before.id} changed while the import was writing it`);
        // The old site moved it: an entry of its own, after whatever happened to it here.
        if (statusFrom)
          await this.byOldSite(repos, { ...before, ...update, id: before.id }, stamp.version, statusFrom, this.nowIso);
      }
    }
    await importLedger.save(entries);
  }

  /** An entry of a booking's history made by the old site: from `from` to the booking's status. */
  private async byOldSite(
    repos: Repositories,
    booking: Pick<BookingRecord, 'id' | 'status' | 'confirmedSlot'>,
    version: number,
    from: BookingStatus,
    at: string,
  ) {
    await repos.bookings.addChange({
      id: crypto.randomUUID(),
      bookingId: booking.id,
      version,
      at,
      by: { id: null, name: 'The old site', role: null },
      from,
      to: booking.status,
      slot: booking.status === 'Confirmed' ? booking.confirmedSlot : null,
    });
  }

  /** An old booking as ours would be (no version or payment reference yet), or the reason it cannot be. */
  private async mapBooking(
    repos: Repositories,
    doc: SourceDoc,
    adjust: (reason: string) => void,
  ): Promise<Omit<BookingRecord, 'version' | 'paymentReference'>> {
    const d = doc.data;
    const date = text(d.date);
    if (!isCalendarDate(date)) throw new Skip(`date ${shown(d.date)} is not a date (YYYY-MM-DD)`);
    const slots = [d.timeslot1, d.timeslot2, d.timeslot3].map(text);
    const badSlot = slots.find((s) => !isTimeOfDay(s));
    if (badSlot !== undefined) throw new Skip(`time slot ${shown(badSlot)} is not a time (HH:MM)`);
    const confirmed = text(d.confirmed_timeslot) || null;
    if (confirmed !== null && !isTimeOfDay(confirmed))
      throw new Skip(`confirmed_timeslot ${shown(confirmed)} is not a time (HH:MM)`);
    const hours = Number(d.hours);
    if (!Number.isInteger(hours) || hours < bookingLimits.hoursMin || hours > bookingLimits.hoursMax)
      throw new Skip(`hours ${shown(d.hours)} is not a whole number from 1 to 8`);
    const status = bookingStatusOf(d.status);
    if (!status) throw new Skip(`status ${shown(d.status)} is not one of ${bookingStatuses.join(', ')}`);
    const moduleGiven = text(d.module_name).trim();
    if (moduleGiven) {
      const checked = bookingModuleOf(moduleGiven);
      if (!checked.ok) throw new Skip(`module_name ${shown(moduleGiven)}: ${checked.message}`);
    }
    const concepts = conceptsOf(text(d.concepts));
    if (!concepts.ok) throw new Skip(`concepts: ${concepts.message}`);
    if (concepts.cut) adjust(`concepts of ${concepts.cut} characters: cut at ${bookingLimits.conceptsMax}`);

    const userId = await this.userFor(repos, d.uid);
    const account = userId ? await repos.accounts.findById(userId) : undefined;
    // Every booking e-mail goes to this address, with the payment details: it is one address as sign-up takes
    // it, or the student's account's, or the booking is not kept.
    const givenEmail = text(d.student_email).trim();
    let email = emailOf(givenEmail);
    if (!email) {
      if (!account)
        throw new Skip(`student_email ${shown(givenEmail)} is not one address, and no account has the booking`);
      email = account.email;
      if (givenEmail) adjust(`student_email ${shown(givenEmail)} is not one address: the account's ${email} is used`);
    }
    // A booking of an account shows its current name (decision 0025); one without, the name it was made with.
    const givenName = text(d.student_name).trim();
    let name = account?.name ?? (givenName || 'Anonymous');
    if (!account && givenName) {
      const checked = nameOf(givenName);
      if (checked.ok) name = checked.value;
      else {
        name = email.split('@')[0]!;
        adjust(`student_name ${shown(givenName)}: ${checked.message} "${name}" is used`);
      }
    }
    const module = moduleGiven ? await repos.catalogue.findByName(moduleGiven) : undefined;
    const category: BookingCategory = bookingCategories.includes(d.module_category as BookingCategory)
      ? (d.module_category as BookingCategory)
      : (module?.category ?? uncategorized);
    // The old site kept no price: the module's rate now, or the custom-subject rate, as a new request gets.
    const priceCentsPerHour = module?.priceCents ?? bookingLimits.customRateCents;
    const createdAt = isoTime(d.createdAt, doc.createTime);
    return {
      id: doc.id,
      student: { id: userId, name, email },
      moduleName: module?.name ?? (moduleGiven || 'Custom subject'),
      moduleCategory: category,
      priceCentsPerHour,
      totalCents: bookingTotalCents(hours, priceCentsPerHour),
      date,
      slots,
      confirmedSlot: confirmed,
      startsAt: startsAtOf(date, slots, confirmed),
      hours,
      concepts: concepts.value,
      status,
      lateCancellation: false,
      reminderSentAt: null,
      createdAt,
      updatedAt: createdAt,
      // The old site recorded no tutor.
      tutor: null,
    };
  }

  // -------------------------------------------------------------------------------------------------------
  // Enrolments

  async enrolments(repos: Repositories, docs: SourceDoc[]) {
    const { profile, catalogue, importLedger } = repos;
    const ledger = await importLedger.find(
      'enrolments',
      docs.map((d) => d.id),
    );
    const entries: LedgerEntry[] = [];
    const writes: StoredEnrolment[] = [];
    const removals: { id: string; userId: string }[] = [];
    for (const doc of docs) {
      const record = recordName('enrolments', doc.id);
      this.current = record;
      const uid = text(doc.data.uid) || doc.id;
      // An emptied record (spec §4: deleting an account writes one; `{}` holds nothing either) lists none.
      const names: unknown = doc.data.modules ?? [];
      const entry = ledger.get(doc.id);
      if (Array.isArray(names) && names.length === 0 && !entry) continue;
      const userId = await this.userFor(repos, uid);
      if (!userId || !Array.isArray(names)) {
        if (!userId && Array.isArray(names) && names.length === 0) continue;
        await this.each('enrolments', record, async () => {
          throw new Skip(userId ? `modules ${shown(names)} is not a list of module names` : this.noAccount(uid));
        });
        continue;
      }
      const held = await profile.enrolmentsOf(userId);
      const ours: Fields = Object.fromEntries(held.map((e) => [moduleKey(e.moduleName), true]));
      const old: Fields = {};
      const valid: string[] = [];
      for (const item of names) {
        const name = moduleNameOf(text(item).trim());
        if (name.ok && !(moduleKey(name.value) in old)) {
          old[moduleKey(name.value)] = true;
          valid.push(name.value);
        }
      }
      // Both sides' modules are compared as fields (one per module); nothing is reported as changed on both.
      const cmp = compareRecord({ entry, old, ours, mapped: old, changeableHere: [] });
      const take = new Set(cmp.fromOld);
      const after: Fields = { ...ours };
      const [writesBefore, removalsBefore] = [writes.length, removals.length];
      for (const item of names) {
        const given = text(item).trim();
        await this.each('enrolments', `${record} (${shown(item)})`, async () => {
          if (!given) throw new Skip('not a module name');
          const checked = moduleNameOf(given);
          if (!checked.ok) throw new Skip(checked.message);
          const key = moduleKey(checked.value);
          // Held here already; or removed here since the last run, while the old site kept it: stays removed.
          if (key in after || !take.has(key)) return 'unchanged';
          after[key] = true;
          const module = await catalogue.findByName(checked.value);
          writes.push({
            id: crypto.randomUUID(),
            userId,
            // A module the catalogue does not have stays readable by name, as one deleted later does.
            moduleId: module?.id ?? null,
            moduleName: module?.name ?? checked.value,
            createdAt: doc.createTime,
          });
          return 'new';
        });
      }
      // Removed on the old site since the last run: listed then, not now (one the user enrolled in here since,
      // or any of a record imported before the ledger, is not the old site's to remove).
      for (const enrolment of held) {
        const key = moduleKey(enrolment.moduleName);
        if (!entry || !(key in entry.old) || !take.has(key) || key in old || !(key in after)) continue;
        delete after[key];
        removals.push({ id: enrolment.id, userId });
        this.report.counts.enrolments.updated += 1;
      }
      const written = writes.length > writesBefore || removals.length > removalsBefore;
      entries.push(...this.entry(entry, written, 'enrolments', doc.id, userId, old, after));
    }
    for (const enrolment of writes) await profile.insertImportedEnrolment(enrolment);
    for (const { id, userId } of removals) await profile.deleteEnrolment(id, userId);
    await importLedger.save(entries);
  }
}

/** A module's name as an enrolment's field: a fingerprint, so the ledger keeps no one's modules by name. */
const moduleKey = (name: string) => `m:${fingerprint(name.toLowerCase())}`;

/** The Google login Firebase had: Google's own user id, which "Continue with Google" finds the account by. */
function googleIdOf(u: ExportedUser): string | null {
  return u.providerUserInfo?.find((p) => p.providerId === 'google.com' && p.rawId)?.rawId ?? null;
}

/** The old password (a Firebase hash, checked at the first login) and the Google link, as Firebase had them. */
function loginsOf(userId: string, password: string | null, google: string | null): ImportedLogin[] {
  const logins: ImportedLogin[] = [];
  if (password) logins.push({ providerId: 'credential', accountId: userId, passwordHash: password });
  if (google) logins.push({ providerId: 'google', accountId: google, passwordHash: null });
  return logins;
}

/** The confirmed slot's start, else the earliest requested slot's (SAST). */
const startsAtOf = (date: string, slots: readonly string[], confirmed: string | null) =>
  sastInstant(date, confirmed ?? [...slots].sort()[0]!).toISOString();

/**
 * A booking's fields as the old site holds them, before anything here is looked up (the account, the
 * catalogue's module): a later run compares these with the ledger, so a change here (a module renamed) is not
 * taken for one there.
 */
function oldBookingFields(doc: SourceDoc, mapped: Omit<BookingRecord, 'version' | 'paymentReference'>): Fields {
  const d = doc.data;
  return {
    student: [text(d.uid), text(d.student_name).trim(), text(d.student_email).trim().toLowerCase()],
    module: [text(d.module_name).trim().toLowerCase(), text(d.module_category)],
    date: mapped.date,
    slots: mapped.slots,
    confirmedSlot: mapped.confirmedSlot,
    hours: mapped.hours,
    concepts: mapped.concepts,
    status: mapped.status,
  };
}

/** The same fields of one of our bookings. */
function ourBookingFields(b: Omit<BookingRecord, 'version' | 'paymentReference'>): Fields {
  return {
    student: [b.student.id, b.student.name, b.student.email],
    module: [b.moduleName, b.moduleCategory],
    date: b.date,
    slots: b.slots,
    confirmedSlot: b.confirmedSlot,
    hours: b.hours,
    concepts: b.concepts,
    status: b.status,
  };
}

// ---------------------------------------------------------------------------------------------------------
// The report

export function formatReport(report: ImportReport, projectId: string): string {
  const lines = [`Read from Firebase project ${projectId}:`];
  for (const kind of importKinds) {
    const c = report.counts[kind];
    const parts = [`${c.new} new`, `${c.unchanged} already here`, `${c.updated} updated`, `${c.skipped} skipped`];
    lines.push(`  ${kind.padEnd(10)} ${String(c.read).padStart(5)} read: ${parts.join(', ')}`);
  }
  const section = (title: string, records: readonly ReportedRecord[]) => {
    if (records.length === 0) return;
    lines.push(title);
    for (const r of records) lines.push(`  ${r.record}: ${r.reason}`);
  };
  section('Skipped:', report.skipped);
  section('Adjusted to the rules:', report.adjusted);
  section('Changed on both sides since the last import (the old site’s values were taken):', report.changedOnBothSides);
  const total = (key: 'new' | 'updated') => importKinds.reduce((n, k) => n + report.counts[k][key], 0);
  lines.push(
    report.dryRun
      ? `Dry run: nothing was written (${total('new')} new, ${total('updated')} updated had it run).`
      : `Written: ${total('new')} new, ${total('updated')} updated.`,
  );
  return lines.join('\n');
}
