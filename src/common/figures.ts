import { dateAfter } from './availability.ts';
import { lastDayOf } from './packages.ts';
import { z } from './zod.ts';

/**
 * The business's figures for the admin (issue 37 §4): money in per week and unpaid per month, as charts, and hours
 * per tutor per month for paying the tutors. Pure bucketing here; the server reads the records (the payments, the
 * sessions) and the page draws them.
 */

export const figuresMessages = {
  monthInvalid: 'Choose a month, such as 2026-12.',
  loadFailed: 'Could not load the figures.',
  offline: 'The figures are read from the server: they appear once you are online.',
} as const;

/** `GET /api/bookings/figures?month=YYYY-MM` and its CSV. */
export const figuresQuerySchema = z.strictObject({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, figuresMessages.monthInvalid),
});

export const figuresSchema = z.object({
  month: z.string(),
  /** Monday-to-Sunday weeks that touch the month, each with the money in (payments) and out (refunds), in cents. */
  weeks: z.array(
    z.object({ from: z.string(), to: z.string(), inCents: z.number().int(), refundedCents: z.number().int() }),
  ),
  /** What is still owing on sessions, by the sessions' month: the six months up to `month`. */
  unpaid: z.array(z.object({ month: z.string(), owingCents: z.number().int(), sessions: z.number().int() })),
  /** Each tutor's confirmed and completed sessions in the month: hours and sessions, most hours first. */
  tutors: z.array(z.object({ name: z.string(), hours: z.number().int(), sessions: z.number().int() })),
});
export type Figures = z.infer<typeof figuresSchema>;

/** The first and last day of `month`. */
export const monthRange = (month: string) => ({ from: `${month}-01`, to: lastDayOf(month) });

/** `month` and the five before it, oldest first. */
export function sixMonthsTo(month: string): string[] {
  const [year, mm] = month.split('-').map(Number) as [number, number];
  return Array.from({ length: 6 }, (_, i) => {
    const index = year * 12 + (mm - 1) - (5 - i);
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  });
}

/** The Monday-to-Sunday weeks that touch `month`, in order. */
export function weeksOf(month: string): { from: string; to: string }[] {
  const { from, to } = monthRange(month);
  // 1970-01-05 was a Monday: days since then, modulo 7, count back to the week's Monday.
  const daysSinceMonday =
    ((Math.round((Date.parse(`${from}T00:00:00Z`) - Date.parse('1970-01-05T00:00:00Z')) / 86_400_000) % 7) + 7) % 7;
  const weeks: { from: string; to: string }[] = [];
  for (let monday = dateAfter(from, -daysSinceMonday); monday <= to; monday = dateAfter(monday, 7))
    weeks.push({ from: monday, to: dateAfter(monday, 6) });
  return weeks;
}

/** Money in and out per week of `month`, from the payments dated in those weeks. */
export function moneyByWeek(
  month: string,
  payments: readonly { kind: 'payment' | 'refund' | 'waiver'; amountCents: number; paidOn: string }[],
): Figures['weeks'] {
  return weeksOf(month).map((week) => {
    const inWeek = payments.filter((p) => p.paidOn >= week.from && p.paidOn <= week.to);
    const sum = (kind: 'payment' | 'refund') =>
      inWeek.reduce((total, p) => (p.kind === kind ? total + p.amountCents : total), 0);
    return { ...week, inCents: sum('payment'), refundedCents: sum('refund') };
  });
}

/** What is owing by the sessions' month, for the six months up to `month`. */
export function unpaidByMonth(
  month: string,
  owing: readonly { date: string; owingCents: number }[],
): Figures['unpaid'] {
  return sixMonthsTo(month).map((m) => {
    const of = owing.filter((o) => o.date.startsWith(m));
    return { month: m, owingCents: of.reduce((total, o) => total + o.owingCents, 0), sessions: of.length };
  });
}

/**
 * Hours and sessions per tutor, most hours first, then by name: by the tutor's id (two tutors may share a name),
 * by name once their account is gone.
 */
export function hoursByTutor(
  sessions: readonly { tutor: { id: string | null; name: string }; hours: number }[],
): Figures['tutors'] {
  const byTutor = new Map<string, { name: string; hours: number; sessions: number }>();
  for (const { tutor, hours } of sessions) {
    const key = tutor.id ?? `name:${tutor.name}`;
    const entry = byTutor.get(key) ?? { name: tutor.name, hours: 0, sessions: 0 };
    entry.hours += hours;
    entry.sessions += 1;
    byTutor.set(key, entry);
  }
  return [...byTutor.values()].sort((a, b) => b.hours - a.hours || a.name.localeCompare(b.name));
}
