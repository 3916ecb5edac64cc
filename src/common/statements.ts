import { wholeReference, type LineMatch } from './statement-match.ts';
import { z } from './zod.ts';

/**
 * Bank statements imported as CSV (issue 37 §2): how one bank's columns are read (a mapping, remembered per bank),
 * and what the admin reads when a statement cannot be. Each message names the line where it is one line.
 */
export const statementMessages = {
  notCsv: 'This file is not a CSV statement. Export the statement from your bank as CSV and choose that file.',
  columnsMissing: (columns: readonly string[]) =>
    `The statement has no column named ${columns.map((c) => `“${c}”`).join(', ')}. Check the column names for this bank.`,
  dateInvalid: (text: string) => (text ? `“${text}” is not a date this page can read.` : 'The date is missing.'),
  amountInvalid: 'The amount is not a number.',
  noLines: 'The statement has no lines of money in it.',
  tooLarge: 'The statement is larger than 5 MB. Export a shorter period and import each one.',
  onLine: (line: number, message: string) => `Line ${line}: ${message}`,
  lineUnknown: 'The statement changed since its preview. Preview it again.',
  lineUnmatched: 'this line records no payment now. Preview the statement again.',
  lineIgnored: 'this line is ignored. Take the ignore back to record it.',
  lineRecordedNotIgnored: 'this line was recorded, so it cannot be ignored. Preview the statement again.',
  lineNotWaiting: 'only a line waiting to be matched by hand can be ignored. Preview the statement again.',
  ignoreUnknown: 'A line to ignore, or to take the ignore back from, is not in this statement. Preview it again.',
  recordedAndIgnored: 'A line cannot be both recorded and ignored.',
  referenceInvalid: 'Enter a booking’s or a package’s reference, such as TB-ABC234 or TB-ABC234-P.',
  bankRequired: 'Name the bank, such as FNB or Capitec.',
  columnRequired: 'Name the column as the statement’s first row writes it.',
} as const;

const column = z.string().trim().min(1, statementMessages.columnRequired).max(80);

/**
 * How a bank's statement is read: the header's names of the date, the amount (one signed column, or money in and
 * money out apart, as Capitec writes it) and the description (one or more columns, joined).
 */
export const bankMappingSchema = z.strictObject({
  bank: z.string().trim().min(1, statementMessages.bankRequired).max(60),
  date: column,
  amount: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('signed'), column }),
    z.strictObject({ kind: z.literal('in-out'), in: column, out: column }),
  ]),
  description: z.array(column).min(1).max(3),
});
export type BankMapping = z.output<typeof bankMappingSchema>;

/** The largest statement read at once: a year of a small business's lines is well under it. */
export const statementMaxBytes = 5 * 1024 * 1024;

const csv = z.string().max(statementMaxBytes, statementMessages.tooLarge);

/** `POST /api/bookings/statements/preview` (the admin): the statement as the bank exported it, and how to read it. */
export const statementPreviewInputSchema = z.strictObject({ mapping: bankMappingSchema, csv });

/** A statement line's content key (`sha256`, hex): what a payment's `statementLineKey` holds. */
const lineKey = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * `POST /api/bookings/statements/import` (the admin): the statement again, and what to do with its lines, by
 * their keys. `lines`: to record; `reference`: the booking (`TB-…`, a late fee's `TB-…-F`) or the monthly package
 * (`TB-…-P`) the admin matched a line to by hand (a line with no reference, or a wrong one). `ignore`: waiting lines not to record (a transfer of their own, a line not for a
 * session), remembered so that the next import shows them ignored; `unignore`: ignores taken back, after which
 * the line waits again (or is recorded, when `lines` names it too).
 */
export const statementImportInputSchema = z
  .strictObject({
    mapping: bankMappingSchema,
    csv,
    lines: z
      .array(
        z.strictObject({
          key: lineKey,
          reference: z
            .string()
            .trim()
            .regex(wholeReference, statementMessages.referenceInvalid)
            .transform((r) => r.toUpperCase())
            .optional(),
        }),
      )
      .max(20_000),
    ignore: z.array(lineKey).max(20_000).default([]),
    unignore: z.array(lineKey).max(20_000).default([]),
  })
  .refine(
    ({ lines, ignore, unignore }) => {
      const elsewhere = new Set([...lines.map((l) => l.key), ...unignore]);
      return ignore.every((key) => !elsewhere.has(key));
    },
    { message: statementMessages.recordedAndIgnored, path: ['ignore'] },
  );
export type StatementImportInput = z.output<typeof statementImportInputSchema>;

/** One line of a statement's preview: as read, and what it would record. */
export interface StatementPreviewLine {
  line: number;
  key: string;
  date: string;
  amountCents: number;
  description: string;
  match: LineMatch['kind'];
  /** The reference the line was matched by (or named, where nobody holds it). */
  reference?: string;
  /** What a line that records money pays: a booking (its session or its late fee), or a monthly package. */
  booking?: { id: string; moduleName: string; studentName: string; date: string };
  /** The package's name as bought, its student, and its month (`YYYY-MM`). */
  package?: { id: string; name: string; studentName: string; month: string };
  shortCents?: number;
  overCents?: number;
  /** A line the admin ignored: who, and when (UTC ISO). */
  ignored?: { by: string; at: string };
}

export interface StatementPreview {
  bank: string;
  lines: StatementPreviewLine[];
}
