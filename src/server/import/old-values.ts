import { nameSchema, signUpInputSchema } from '../../common/auth.schemas.ts';
import { bookingLimits, bookingStatuses, createBookingInputSchema, type BookingStatus } from '../../common/bookings.ts';
import { createModuleInputSchema, priceLimits } from '../../common/catalogue.ts';
import { answerInputSchema, askQuestionInputSchema } from '../../common/qa.ts';
import { asLineFeeds, isOneLine } from '../../common/validation.ts';
import type { z } from '../../common/zod.ts';
import { isRecordId } from '../storage/record-ids.ts';

/**
 * The old site's values as Firebase may hold them, read and held to the rules TutorBook's own forms apply
 * (src/common's schemas, the same objects the API validates user input with). Each check answers the value as
 * it is to be stored, or why it cannot be: the import skips the record with that reason, or, where a bound is
 * natural, keeps it with the value brought within the bound and says so (docs/decisions/0037).
 */

/** A field's text: a string as it is, a number as text, anything else none. */
export const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

/**
 * JSON with every character that could move or hide text in a terminal written as an escape: JSON escapes the
 * C0 controls (a line break stays `\n`), not DEL, the C1 range, the line separators or the bidirectional
 * controls, which could make a line of the report read as another.
 */
const asJson = (value: unknown) =>
  (JSON.stringify(value) ?? String(value)).replace(
    /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** A value as the report shows it: JSON, escaped as `asJson` says, cut short when long. */
export function shown(value: unknown): string {
  const json = asJson(value);
  return json.length > 60 ? `${json.slice(0, 57)}…` : json;
}

/** A record as the report names it: `kind/id`, the id as escaped JSON when it is not one plain word. */
export const recordName = (path: string, id: string) => `${path}/${isOneLine(id) && !/\s/.test(id) ? id : asJson(id)}`;

/**
 * Why `id` cannot be an id here, or undefined when it can. Old ids are kept as ids (decision 0023), on every
 * engine: they must be ids any record may have (storage/record-ids.ts: Firestore's rules for a document id);
 * and ids go into URLs and the accepted-answer input, which takes 128 characters (common/qa.ts).
 */
export function idProblem(id: string): string | undefined {
  if (id.length > 128) return `id of ${id.length} characters: at most 128 here`;
  if (!isRecordId(id)) return `id ${shown(id)} cannot be an id here (Firestore refuses "", ".", "..", "/" and "__…__")`;
  if (!isOneLine(id) || /\s/.test(id)) return `id ${shown(id)} holds spaces or control characters`;
  return undefined;
}

/** The first message of a schema's refusal. */
function refusal<T>(schema: z.ZodType<T>, value: unknown): { ok: true; value: T } | { ok: false; message: string } {
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, message: parsed.error.issues[0]!.message };
}

/** An address as sign-up takes it (lower-cased, as better-auth stores it), or undefined. */
export function emailOf(value: unknown): string | undefined {
  const checked = refusal(signUpInputSchema.shape.email, value);
  return checked.ok ? checked.value.toLowerCase() : undefined;
}

/** A display name as sign-up and the profile take it, or the rule it breaks. */
export const nameOf = (value: string) => refusal(nameSchema, value);

/** A question's title and text, an answer's text: as the board takes them from its forms. */
export const questionTitleOf = (value: string) => refusal(askQuestionInputSchema.shape.title, value);
export const questionTextOf = (value: string) => refusal(askQuestionInputSchema.shape.text, value);
export const answerTextOf = (value: string) => refusal(answerInputSchema.shape.text, value);

/** A module's name as the admin's form takes it (it is in the subject of every booking e-mail about it). */
export const moduleNameOf = (value: string) => refusal(createModuleInputSchema.shape.name, value);

/** A booking's module as the booking form takes it. */
export const bookingModuleOf = (value: string) => refusal(createBookingInputSchema.shape.module, value);

/**
 * A booking's concepts as the booking form takes them, except that none is allowed (old bookings may have
 * none) and text past the limit is cut there (`cut`: the length it had), not refused: a booking is a record of
 * a session and its payment, kept whole but for the end of its description.
 */
export function conceptsOf(value: string): { ok: true; value: string; cut?: number } | { ok: false; message: string } {
  const whole = asLineFeeds(value).trim();
  if (whole === '') return { ok: true, value: '' };
  const schema = createBookingInputSchema.shape.concepts;
  const checked = refusal(schema, whole);
  if (checked.ok) return checked;
  const max = bookingLimits.conceptsMax;
  if (whole.length <= max) return checked;
  const cut = refusal(schema, whole.slice(0, max));
  return cut.ok ? { ok: true, value: cut.value, cut: whole.length } : cut;
}

/** A picture's address kept only when it is a web address of a sensible length (it is in the data export). */
export function imageOf(value: string | undefined): string | null {
  if (!value || value.length > 2000) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? value : null;
  } catch {
    return null;
  }
}

/**
 * The most votes the import keeps for one question and direction: far more than any board of a campus has, and
 * far inside what every engine stores (PostgreSQL's integer, node:sqlite's safe integers), so votes cast here
 * still add to it. A count above it is kept as this, and reported.
 */
export const importedVotesMax = 1_000_000;

/** A count of votes; anything else (missing, negative, text, fractions) counts none; above the bound, the bound. */
export function voteCount(value: unknown): { count: number; clamped: boolean } {
  const n = typeof value === 'string' ? Number(value.trim()) : typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0) return { count: 0, clamped: false };
  return n > importedVotesMax ? { count: importedVotesMax, clamped: true } : { count: n, clamped: false };
}

/** Times the engines store and sort as text: 1970 to 9999 (a Firestore Timestamp ends there). */
const earliest = 0;
const latest = Date.parse('9999-12-31T23:59:59.999Z');

/** A time as milliseconds, or undefined when it is none or outside what the engines hold. */
function millis(value: unknown): number | undefined {
  let time: number | undefined;
  if (value && typeof value === 'object' && 'toDate' in value && typeof value.toDate === 'function')
    time = (value.toDate() as Date).getTime();
  else if (typeof value === 'string' && /^\d+$/.test(value.trim())) time = Number(value.trim());
  else if (typeof value === 'string' || typeof value === 'number') time = new Date(value).getTime();
  return time !== undefined && Number.isFinite(time) && time >= earliest && time <= latest ? time : undefined;
}

/** A Firestore Timestamp, a date string or milliseconds, as UTC ISO; else `fallback` (the document's own time). */
export function isoTime(value: unknown, fallback: string): string {
  const time = millis(value);
  return time === undefined ? fallback : new Date(time).toISOString();
}

/** 90, "90", "R90", "R 90.50" → cents; undefined when it is no positive amount the catalogue allows. */
export function randToCents(value: unknown): number | undefined {
  const amount =
    typeof value === 'number' ? value : typeof value === 'string' ? Number(value.replace(/^\s*R\s*/i, '')) : NaN;
  const cents = Math.round(amount * 100);
  return Number.isFinite(amount) && cents > 0 && cents <= priceLimits.maxCents ? cents : undefined;
}

/** The spec's four statuses, in any case; a booking without one is still a request (Pending). */
export function bookingStatusOf(value: unknown): BookingStatus | undefined {
  if (value === undefined || value === null || value === '') return 'Pending';
  return bookingStatuses.find((s) => s.toLowerCase() === String(value).trim().toLowerCase());
}
