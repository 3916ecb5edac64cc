import { bookingStanding } from '../../../common/payments.ts';
import type { Me } from '../../../common/session.ts';
import { matchStatement, referencesIn, type LineMatch, type OpenDue } from '../../../common/statement-match.ts';
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
import { readStatement, StatementError } from './statement-csv.ts';

type StatementDeps = Uses<'bookings' | 'payments', 'storage' | 'events' | 'clock' | 'mail' | 'config'>;

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
}

/**
 * Reads the statement with the bank's mapping and matches each line against what the references it names still
 * owe, and the lines recorded before. `byHand`: references the admin gave lines that had none (or a wrong one),
 * by line key: such a line is matched as if its description began with it.
 */
async function readAndMatch(
  deps: Uses<'bookings' | 'payments'>,
  mapping: BankMapping,
  csv: string,
  byHand: ReadonlyMap<string, string> = new Map(),
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
  const references = [
    ...new Set(matched.flatMap((line) => referencesIn(line.description).map((r) => r.replace(/-F$/, '')))),
  ];
  const { bookings, payments } = deps.repos;
  const [found, recorded] = await Promise.all([
    bookings.findByPaymentReferences(references),
    payments.recordedStatementLines(matched.map((line) => line.key)),
  ]);
  const dues = new Map<string, OpenDue>();
  for (const booking of found) {
    const standing = bookingStanding(booking);
    dues.set(standing.due.reference, {
      bookingId: booking.id,
      reference: standing.due.reference,
      owingCents: standing.owingCents,
    });
  }
  return {
    matches: matchStatement(matched, dues, recorded),
    bookings: new Map(found.map((booking) => [booking.id, booking])),
  };
}

const previewLine = (match: LineMatch, bookings: Map<string, BookingRecord>): StatementPreviewLine => {
  const { line } = match;
  const base = {
    line: line.line,
    key: line.key,
    date: line.date,
    amountCents: line.amountCents,
    description: line.description,
    match: match.kind,
  };
  if (!('bookingId' in match)) return { ...base, ...('reference' in match ? { reference: match.reference } : {}) };
  const booking = bookings.get(match.bookingId)!;
  return {
    ...base,
    reference: match.reference,
    booking: {
      id: booking.id,
      moduleName: booking.moduleName,
      studentName: booking.student.name,
      date: booking.date,
    },
    ...(match.kind === 'part-pays' ? { shortCents: match.shortCents } : {}),
    ...(match.kind === 'over-pays' ? { overCents: match.overCents } : {}),
  };
};

/**
 * The admin's preview of a bank statement (issue 37 §2): each line as read, and what it would record. Nothing is
 * written, not even the mapping. A statement that cannot be read is refused whole, naming the line.
 */
export async function previewStatement(
  deps: Uses<'bookings' | 'payments'>,
  me: Me | undefined,
  input: { mapping: BankMapping; csv: string },
): Promise<StatementPreview> {
  requireRole(me, 'admin');
  const { matches, bookings } = await readAndMatch(deps, input.mapping, input.csv);
  return { bank: input.mapping.bank, lines: matches.map((match) => previewLine(match, bookings)) };
}

/** How each bank's statement was read last time (the admin): the next one from it starts from this. */
export async function listBankMappings(deps: Uses<'payments'>, me: Me | undefined): Promise<BankMapping[]> {
  requireRole(me, 'admin');
  return deps.repos.payments.listBankMappings();
}

/** Whether a line's match records money: a payment covering, short of, or over what is due. */
const records = (match: LineMatch): match is Extract<LineMatch, { bookingId: string }> =>
  match.kind === 'pays' || match.kind === 'part-pays' || match.kind === 'over-pays';

/**
 * The statement's lines the admin chose, recorded (issue 37 §2): read and matched again here (the preview is not
 * trusted), the bank's mapping remembered, then one payment per line, by statement, dated the day the bank
 * says. A line recorded before (the same statement imported twice, or two admins at once) records nothing. A
 * chosen line that no longer records anything is refused, naming it, before anything is written.
 */
export async function importStatement(
  deps: StatementDeps,
  me: Me | undefined,
  input: StatementImportInput,
): Promise<{ recorded: number; amountCents: number; alreadyRecorded: number }> {
  const admin = requireRole(me, 'admin');
  const byHand = new Map(input.lines.flatMap((l) => (l.reference ? [[l.key, l.reference] as const] : [])));
  const { matches } = await readAndMatch(deps, input.mapping, input.csv, byHand);
  const byKey = new Map(matches.map((match) => [match.line.key, match]));
  const chosen: Extract<LineMatch, { bookingId: string }>[] = [];
  let alreadyRecorded = 0;
  for (const { key } of input.lines) {
    const match = byKey.get(key);
    if (!match)
      throw createError({ code: 'statements.line_unknown', message: statementMessages.lineUnknown, status: 409 });
    if (match.kind === 'already-recorded') alreadyRecorded++;
    else if (records(match)) chosen.push(match);
    else
      throw createError({
        code: 'statements.line_unmatched',
        message: statementMessages.onLine(match.line.line, statementMessages.lineUnmatched),
        status: 409,
      });
  }
  const at = deps.clock.now().toISOString();
  await deps.repos.payments.saveBankMapping(input.mapping, at);
  let recorded = 0;
  let amountCents = 0;
  for (const match of chosen) {
    const wrote = await withTransaction(deps, async (tx) => {
      const { bookings, payments } = tx.repos;
      await bookings.beginChanges();
      if (await payments.findByStatementLine(match.line.key)) return false;
      const row = await bookings.findById(match.bookingId);
      if (!row) return false;
      await writePayment(tx, row, admin, at, {
        id: crypto.randomUUID(),
        kind: 'payment',
        method: 'statement',
        amountCents: match.amountCents,
        paidOn: match.line.date,
        reference: match.reference,
        note: match.line.description.slice(0, 500),
        statementLineKey: match.line.key,
      });
      return true;
    });
    if (wrote) {
      recorded++;
      amountCents += match.amountCents;
    } else alreadyRecorded++;
  }
  return { recorded, amountCents, alreadyRecorded };
}
