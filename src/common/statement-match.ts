/**
 * A bank statement's lines matched to what is due (issue 37 §2, §3), before anything is recorded: the preview the
 * admin reads, and what the server records once they agree. Pure: the server runs it, the admin's device shows
 * its result, and a benchmark times it (10,000 lines in under 2 s).
 *
 * A line is matched by the `TB-` reference its description holds, however the bank wrote it: `TB-ABC234`,
 * `TB ABC234`, `tbabc234`, with the late fee's `-F` or a monthly package's `-P` after it. Its amount is then set
 * against what that reference still owes, in the statement's order: covering it, the line pays it; short, it
 * part-pays it; over, it pays it and says by how much. A line with no reference, or one nobody has, waits to be
 * matched by hand or ignored; a line already recorded (the same statement imported again), or ignored by the
 * admin, records nothing.
 */

/** One line of money in or out, as read from the statement and its column mapping. */
export interface StatementLine {
  /** Its place in the file, from 1 (the header not counted): what a message names. */
  line: number;
  /** `YYYY-MM-DD`. */
  date: string;
  /** Money in is above 0, money out below. */
  amountCents: number;
  description: string;
  /** The line's content key (the server hashes the bank, date, amount, description and its occurrence). */
  key: string;
}

/** Whose the money is: a booking's (its session or its late fee), or a monthly package's. */
export type Payee = { bookingId: string } | { packageId: string };

/** What a reference still has owing when the statement is read. */
export type OpenDue = Payee & {
  /** `TB-…`, a late fee's `TB-…-F`, or a package's `TB-…-P`. */
  reference: string;
  owingCents: number;
};

/** A line that records money: what it pays, under which reference. */
type Paying = Payee & { line: StatementLine; reference: string; amountCents: number };

export type LineMatch =
  | ({ kind: 'pays' } & Paying)
  | ({ kind: 'part-pays'; shortCents: number } & Paying)
  | ({ kind: 'over-pays'; overCents: number } & Paying)
  | { kind: 'unknown-reference'; line: StatementLine; reference: string }
  | { kind: 'no-reference'; line: StatementLine }
  | { kind: 'money-out'; line: StatementLine }
  | { kind: 'already-recorded'; line: StatementLine }
  /** A waiting line the admin chose not to record (a transfer of their own, a line not for a session). */
  | { kind: 'ignored'; line: StatementLine };

/** A match that records money: a payment covering, short of, or over what is due. */
export type PayingMatch = Extract<LineMatch, { amountCents: number }>;

/** The letters a booking's payment reference is drawn from (`TB-` and six of them): no I, L, O, 0 or 1 to misread. */
export const referenceAlphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/**
 * A reference as the site writes it, the whole text, any case: a session's `TB-ABC234`, a late fee's
 * `TB-ABC234-F`, or a monthly package's `TB-ABC234-P`.
 */
export const wholeReference = /^TB-[A-HJKMNP-Z2-9]{6}(-[FP])?$/i;

/** A reference inside a statement line's description, however the bank wrote it: the code, then `F` or `P`. */
const referencePattern = /(?<![A-Z0-9])TB[\s-]?([A-HJKMNP-Z2-9]{6})(?:([\s-]?)([FP]))?(?![A-Z0-9])/gi;

/**
 * What each reference in a description may be, most likely first, in order. A fee's `F` may be the initial
 * of a name ("TB-ABC234 F SMITH"), and a session's late fee is owed under its session's reference too, so either
 * reading of a session's code stands for the other. A package's `P` is a package's alone: a session's reference
 * never pays a package, nor a package's a session, but for a `P` written apart ("TB-ABC234 P MOKOENA"), which
 * reads as the session's where no package holds it, as a fee's `F` does.
 */
function readingsOf(description: string): string[][] {
  return [...description.matchAll(referencePattern)].map(([, code, separator, suffix]) => {
    const session = `TB-${code!.toUpperCase()}`;
    const fee = `${session}-F`;
    switch (suffix?.toUpperCase()) {
      case undefined:
        return [session, fee];
      case 'F':
        return [fee, session];
      default:
        return /^\s$/.test(separator!) ? [`${session}-P`, session, fee] : [`${session}-P`];
    }
  });
}

/**
 * The references a description holds, written as the site writes them (`TB-ABC234`, `TB-ABC234-F`,
 * `TB-ABC234-P`), in order.
 */
export function referencesIn(description: string): string[] {
  return readingsOf(description).map((readings) => readings[0]!);
}

/**
 * Each line's match, in the statement's order. `dues` by reference; `recorded`: the keys of lines recorded
 * before; `ignored`: the keys of lines the admin ignored, which pay nothing. A reference's owing goes down as the
 * lines before pay it, so two lines for one session are a payment and an over-payment, not two payments.
 */
export function matchStatement(
  lines: readonly StatementLine[],
  dues: ReadonlyMap<string, OpenDue>,
  recorded: ReadonlySet<string>,
  ignored: ReadonlySet<string> = new Set(),
): LineMatch[] {
  const owing = new Map([...dues].map(([reference, due]) => [reference, due.owingCents]));
  return lines.map((line): LineMatch => {
    if (recorded.has(line.key)) return { kind: 'already-recorded', line };
    if (ignored.has(line.key)) return { kind: 'ignored', line };
    if (line.amountCents <= 0) return { kind: 'money-out', line };
    const readings = readingsOf(line.description);
    if (readings.length === 0) return { kind: 'no-reference', line };
    // "TB-ABC234 F Smith" reads as the fee's reference; where only the session's is due, it is the session's. And
    // a late fee paid under the session's own reference (what the student has written down) pays the fee. A
    // package's reference pays the package alone (readingsOf).
    const reference = readings.flat().find((r) => dues.has(r));
    if (!reference) return { kind: 'unknown-reference', line, reference: readings[0]![0]! };
    const due = dues.get(reference)!;
    const left = owing.get(reference)!;
    owing.set(reference, Math.max(0, left - line.amountCents));
    const payee: Payee = 'packageId' in due ? { packageId: due.packageId } : { bookingId: due.bookingId };
    const paid = { line, ...payee, reference, amountCents: line.amountCents };
    if (line.amountCents < left) return { kind: 'part-pays', ...paid, shortCents: left - line.amountCents };
    if (line.amountCents > left) return { kind: 'over-pays', ...paid, overCents: line.amountCents - left };
    return { kind: 'pays', ...paid };
  });
}
