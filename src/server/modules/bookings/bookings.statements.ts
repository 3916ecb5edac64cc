import { packageStanding } from '../../../common/packages.ts';
import { bookingStanding } from '../../../common/payments.ts';
import type { Me } from '../../../common/session.ts';
import {
  matchStatement,
  referencesIn,
  type LineMatch,
  type OpenDue,
  type PayingMatch,
} from '../../../common/statement-match.ts';
import {
  statementMessages,
  type BankMapping,
  type StatementImportInput,
  type StatementPreview,
  type StatementPreviewLine,
} from '../../../common/statements.ts';
import { requireRole } from '../../auth/auth.session.ts';
import { withTransaction, type Uses } from '../../deps.ts';
import { createError } from '../../http/errors.ts';
import type { BookingRecord } from './bookings.storage.ts';
import { writePayment } from './bookings.payments.ts';
import { writePackagePayment } from './bookings.packages.ts';
import type { PackageRecord } from './packages.storage.ts';
import type { IgnoredStatementLine, PaymentRecord } from './payments.storage.ts';
import { readStatement, StatementError } from './statement-csv.ts';

type StatementDeps = Uses<
  'bookings' | 'packages' | 'payments' | 'notices',
  'storage' | 'events' | 'clock' | 'mail' | 'config'
>;
/** What reading and matching a statement reads: the bookings and packages its references name, the lines' keys. */
type MatchDeps = Uses<'bookings' | 'packages' | 'payments'>;

/** A statement that cannot be read: 400, its message naming the line where it is one line. */
function refused(error: unknown): never {
  if (!(error instanceof StatementError)) throw error;
  const message = error.line === undefined ? error.message : statementMessages.onLine(error.line, error.message);
  throw createError({ code: 'statements.invalid', message, status: 400, fields: { csv: message } });
}

/** A statement read and matched, as it stands now: what each line would record. */
interface Matched {
  matches: LineMatch[];
  bookings: Map<string, BookingRecord>;
  packages: Map<string, PackageRecord>;
  /** The lines the admin ignored, by key. */
  ignores: Map<string, IgnoredStatementLine>;
}

/**
 * Reads the statement with the bank's mapping and matches each line against what the references it names still
 * owe (a booking's session or late fee, a monthly package), the lines recorded before and the lines ignored.
 * `byHand`: references the admin gave lines that had none (or a wrong one), by line key: such a line is matched as
 * if its description began with it. `takenBack`: lines whose ignore the admin is taking back, matched as if they
 * had never been ignored.
 */
async function readAndMatch(
  deps: MatchDeps,
  mapping: BankMapping,
  csv: string,
  byHand: ReadonlyMap<string, string> = new Map(),
  takenBack: ReadonlySet<string> = new Set(),
): Promise<Matched> {
  let lines;
  try {
    lines = readStatement(csv, mapping);
  } catch (error) {
    refused(error);
  }
  const matched = lines.map((line) => {
    const reference = byHand.get(line.key);
    return reference ? { ...line, description: `${reference} ${line.description}` } : line;
  });
  const read = new Set(matched.flatMap((line) => referencesIn(line.description)));
  // A session's code stands for its fee's too, and a P written apart may be a name's initial (statement-match.ts):
  // every code is asked of the bookings, a package's reference of the packages.
  const sessionReferences = [...new Set([...read].map((r) => r.replace(/-[FP]$/, '')))];
  const packageReferences = [...read].filter((r) => r.endsWith('-P'));
  const { bookings, packages, payments } = deps.repos;
  const recordedRead = payments.recordedStatementLines(matched.map((line) => line.key));
  const [found, foundPackages, recorded, ignores] = await Promise.all([
    bookings.findByPaymentReferences(sessionReferences),
    packages.findByPaymentReferences(packageReferences),
    recordedRead,
    // Only money in that is not recorded can have been ignored (only a waiting line is): on Firestore each key
    // asked for is a read, and a statement imported again is mostly lines recorded before.
    recordedRead.then((recorded) =>
      payments.ignoredStatementLines(
        matched.filter((line) => line.amountCents > 0 && !recorded.has(line.key)).map((line) => line.key),
      ),
    ),
  ]);
  for (const key of takenBack) ignores.delete(key);
  const dues = new Map<string, OpenDue>();
  for (const booking of found) {
    const standing = bookingStanding(booking);
    dues.set(standing.due.reference, {
      bookingId: booking.id,
      reference: standing.due.reference,
      owingCents: standing.owingCents,
    });
  }
  for (const pkg of foundPackages)
    dues.set(pkg.paymentReference, {
      packageId: pkg.id,
      reference: pkg.paymentReference,
      owingCents: packageStanding(pkg).owingCents,
    });
  return {
    matches: matchStatement(matched, dues, recorded, new Set(ignores.keys())),
    bookings: new Map(found.map((booking) => [booking.id, booking])),
    packages: new Map(foundPackages.map((pkg) => [pkg.id, pkg])),
    ignores,
  };
}

const previewLine = (match: LineMatch, { bookings, packages, ignores }: Matched): StatementPreviewLine => {
  const { line } = match;
  const base = {
    line: line.line,
    key: line.key,
    date: line.date,
    amountCents: line.amountCents,
    description: line.description,
    match: match.kind,
  };
  if (match.kind === 'ignored') {
    const ignore = ignores.get(line.key)!;
    return { ...base, ignored: { by: ignore.ignoredBy.name, at: ignore.ignoredAt } };
  }
  if (!records(match)) return { ...base, ...('reference' in match ? { reference: match.reference } : {}) };
  return {
    ...base,
    reference: match.reference,
    ...('packageId' in match
      ? { package: packageOf(packages.get(match.packageId)!) }
      : { booking: bookingOf(bookings.get(match.bookingId)!) }),
    ...(match.kind === 'part-pays' ? { shortCents: match.shortCents } : {}),
    ...(match.kind === 'over-pays' ? { overCents: match.overCents } : {}),
  };
};

const bookingOf = (booking: BookingRecord) => ({
  id: booking.id,
  moduleName: booking.moduleName,
  studentName: booking.student.name,
  date: booking.date,
});

const packageOf = (pkg: PackageRecord) => ({
  id: pkg.id,
  name: pkg.name,
  studentName: pkg.student.name,
  month: pkg.month,
});

/**
 * The admin's preview of a bank statement (issue 37 §2): each line as read, and what it would record. Nothing is
 * written, not even the mapping. A statement that cannot be read is refused whole, naming the line.
 */
export async function previewStatement(
  deps: MatchDeps,
  me: Me | undefined,
  input: { mapping: BankMapping; csv: string },
): Promise<StatementPreview> {
  requireRole(me, 'admin');
  const matched = await readAndMatch(deps, input.mapping, input.csv);
  return { bank: input.mapping.bank, lines: matched.matches.map((match) => previewLine(match, matched)) };
}

/** How each bank's statement was read last time (the admin): the next one from it starts from this. */
export async function listBankMappings(deps: Uses<'payments'>, me: Me | undefined): Promise<BankMapping[]> {
  requireRole(me, 'admin');
  return deps.repos.payments.listBankMappings();
}

/** Whether a line's match records money: a payment covering, short of, or over what is due. */
const records = (match: LineMatch): match is PayingMatch =>
  match.kind === 'pays' || match.kind === 'part-pays' || match.kind === 'over-pays';

/** Whether a line waits for the admin's hand: the only lines that can be ignored. */
const waits = (match: LineMatch) => match.kind === 'no-reference' || match.kind === 'unknown-reference';

/** A line that cannot be done as asked, as the statement stands now: 409, naming it. */
const lineConflict = (code: string, match: LineMatch, message: string) =>
  createError({ code: `statements.${code}`, message: statementMessages.onLine(match.line.line, message), status: 409 });

/** Lines ignored (or their ignores taken back) in one transaction: a Firestore transaction stays small. */
const ignoresPerTransaction = 200;

/** What an import did. */
export interface StatementImportResult {
  /** Payments recorded, and their sum. */
  recorded: number;
  amountCents: number;
  /** Chosen lines recorded before (the same statement again, or another admin at once). */
  alreadyRecorded: number;
  /** Lines ignored now; a line ignored before is not counted. */
  ignored: number;
  /** Ignores taken back; a line that was not ignored is not counted. */
  unignored: number;
}

/**
 * The statement's lines the admin chose, recorded (issue 37 §2): read and matched again here (the preview is not
 * trusted), the bank's mapping remembered, then one payment per line, by statement, dated the day the bank
 * says, each in its own change transaction: a booking's as the admin's form records it (bookings.payments.ts), a
 * monthly package's as its Packages tab does (`writePackagePayment`), receipt e-mail included. A line recorded
 * before (the same statement imported twice, or two admins at once) records nothing. A chosen line that no
 * longer records anything, or that is ignored, is refused, naming it, before anything is written. The waiting
 * lines the admin ignores, and the ignores taken back, ride on the same request and are checked the same way
 * (docs/decisions/0056): an ignore of a line recorded, or one that does not wait, is refused; one sent twice
 * changes nothing.
 */
export async function importStatement(
  deps: StatementDeps,
  me: Me | undefined,
  input: StatementImportInput,
): Promise<StatementImportResult> {
  const admin = requireRole(me, 'admin');
  const byHand = new Map(input.lines.flatMap((l) => (l.reference ? [[l.key, l.reference] as const] : [])));
  const takenBack = new Set(input.unignore);
  const { matches } = await readAndMatch(deps, input.mapping, input.csv, byHand, takenBack);
  const byKey = new Map(matches.map((match) => [match.line.key, match]));
  const chosen: PayingMatch[] = [];
  let alreadyRecorded = 0;
  for (const { key } of input.lines) {
    const match = byKey.get(key);
    if (!match)
      throw createError({ code: 'statements.line_unknown', message: statementMessages.lineUnknown, status: 409 });
    if (match.kind === 'already-recorded') alreadyRecorded++;
    else if (records(match)) chosen.push(match);
    else if (match.kind === 'ignored') throw lineConflict('line_ignored', match, statementMessages.lineIgnored);
    else throw lineConflict('line_unmatched', match, statementMessages.lineUnmatched);
  }
  // The file was sent with the keys: a key it has no line for is the request's own mistake.
  const notInFile = [...input.ignore, ...takenBack].some((key) => !byKey.has(key));
  if (notInFile)
    throw createError({ code: 'statements.ignore_unknown', message: statementMessages.ignoreUnknown, status: 400 });
  const toIgnore = new Set<string>();
  for (const key of input.ignore) {
    const match = byKey.get(key)!;
    if (match.kind === 'already-recorded')
      throw lineConflict('line_recorded', match, statementMessages.lineRecordedNotIgnored);
    if (waits(match)) toIgnore.add(key);
    else if (match.kind !== 'ignored') throw lineConflict('line_not_waiting', match, statementMessages.lineNotWaiting);
  }
  const at = deps.clock.now().toISOString();
  await deps.repos.payments.saveBankMapping(input.mapping, at);
  // Before the payments: a line whose ignore is taken back may be one of them.
  const { ignored, unignored } = await writeIgnores(deps, admin, at, [...toIgnore], [...takenBack]);
  let recorded = 0;
  let amountCents = 0;
  for (const match of chosen) {
    const payment: Omit<PaymentRecord, 'recordedBy' | 'recordedAt' | 'allocations' | 'packageId'> = {
      id: crypto.randomUUID(),
      kind: 'payment',
      method: 'statement',
      amountCents: match.amountCents,
      paidOn: match.line.date,
      reference: match.reference,
      note: match.line.description.slice(0, 500),
      statementLineKey: match.line.key,
    };
    const wrote = await withTransaction(deps, async (tx) => {
      const { bookings, packages, payments } = tx.repos;
      await bookings.beginChanges();
      if (await payments.findByStatementLine(match.line.key)) return false;
      // Ignored meanwhile by another admin: it records nothing (and is not recorded before either).
      if ((await payments.ignoredStatementLines([match.line.key])).size > 0) return undefined;
      if ('packageId' in match) {
        const pkg = await packages.find(match.packageId);
        if (!pkg) return false;
        await writePackagePayment(tx, pkg, admin, at, payment);
        return true;
      }
      const row = await bookings.findById(match.bookingId);
      if (!row) return false;
      await writePayment(tx, row, admin, at, payment);
      return true;
    });
    if (wrote) {
      recorded++;
      amountCents += match.amountCents;
    } else if (wrote === false) alreadyRecorded++;
  }
  return { recorded, amountCents, alreadyRecorded, ignored, unignored };
}

/**
 * Remembers the lines ignored and forgets the ignores taken back, `ignoresPerTransaction` at a time. Each
 * transaction takes the lock a payment is recorded under (`beginChanges`) and reads again, so a line recorded
 * meanwhile is not ignored: a line is never both. Returns how many changed.
 */
async function writeIgnores(
  deps: StatementDeps,
  admin: Me,
  at: string,
  ignore: readonly string[],
  unignore: readonly string[],
): Promise<{ ignored: number; unignored: number }> {
  let ignored = 0;
  let unignored = 0;
  for (let i = 0; i < Math.max(ignore.length, unignore.length); i += ignoresPerTransaction) {
    const adding = ignore.slice(i, i + ignoresPerTransaction);
    const taking = unignore.slice(i, i + ignoresPerTransaction);
    const changed = await withTransaction(deps, async (tx) => {
      const { bookings, payments } = tx.repos;
      await bookings.beginChanges();
      const recorded = await payments.recordedStatementLines(adding);
      const before = await payments.ignoredStatementLines([...adding, ...taking]);
      const fresh = adding.filter((key) => !recorded.has(key) && !before.has(key));
      const back = taking.filter((key) => before.has(key));
      await payments.ignoreStatementLines(
        fresh.map((key) => ({ key, ignoredBy: { id: admin.id, name: admin.name }, ignoredAt: at })),
      );
      await payments.unignoreStatementLines(back);
      return { ignored: fresh.length, unignored: back.length };
    });
    ignored += changed.ignored;
    unignored += changed.unignored;
  }
  return { ignored, unignored };
}
