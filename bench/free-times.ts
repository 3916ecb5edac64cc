import os from 'node:os';
import { dateAfter, freeTimes, weekdayNames, type Availability, type TutorTime } from '../src/common/availability.ts';
import { bookingLimits, type BookingStatus } from '../src/common/bookings.ts';
import { categories } from '../src/common/roles.ts';
import { sastDate, sastInstant } from '../src/common/sast.ts';
import type { Services } from '../src/server/server.ts';
import { addStaff } from '../src/server/modules/staff/staff.usecases.ts';
import type { TutorBusySession } from '../src/server/modules/bookings/bookings.storage.ts';
import { startAppServer } from './app-server.ts';
import { seedStudents } from './seed-bookings.ts';
import { recordResults, type Measurement } from './results.ts';
import { signedInUsers } from './signed-in.ts';

/**
 * A category's free times for four weeks on the server (issue 36), a report (always exits 0). On SQLite with
 * 50,000 bookings over a year (`bookingCount`), a third of them each category's, and three tutors per category,
 * each with their availability saved (weekly ranges, a few dates off, a buffer):
 * A. what the booking page's free times need: the category's tutors' availability (`findMany`), each tutor's
 *    confirmed sessions from the day before the four weeks to the day after (`busyOf`: their dates, starts and lengths),
 *    then `freeTimes` for 28 days. Goal: median and p99 under 5 ms.
 * B. the reference: the same reads of the confirmed sessions, without the availability or `freeTimes`.
 * C. `freeTimes` alone on the same inputs: the CPU part of A.
 * The three run interleaved, one of each per round, so that a busy moment of the machine falls on all alike.
 */

const bookingCount = 50_000;
const tutorsPerCategory = 3;
const category = 'Statistics';
const days = 7 * 4;
const warmUp = 200;
const rounds = 3_000;
const goalMs = 5;
const loadAtStart = os.loadavg()[0]!.toFixed(1);
const dayMs = 24 * 3_600_000;

/** Weekdays 08:00–13:00 and 14:00–18:00, Saturday mornings; a few dates off in the four weeks; a buffer. */
function availabilityOf(tutor: number, from: string): Availability {
  const weekday = [
    { start: '08:00', end: '13:00' },
    { start: '14:00', end: '18:00' },
  ];
  return {
    weekly: weekdayNames.map((_, d) => (d < 5 ? weekday : d === 5 ? [{ start: '09:00', end: '12:00' }] : [])),
    daysOff: [3, 10, 17].map((n) => dateAfter(from, n + tutor)),
    bufferMinutes: 15 * (tutor + 1),
  };
}

/**
 * `bookingCount` bookings over the year around `today`, in the way bench/seed-bookings.ts writes them (straight
 * to the tables, in one transaction); each category gets a third. Of each category's, 40% are Confirmed and 20%
 * Completed, each with one of the category's tutors, at a time from 08:00 to 16:30 for 1 to 3 hours; the others
 * Pending or Cancelled, with no tutor.
 */
async function seed(services: Services, today: string, tutors: Map<string, { id: string; name: string }[]>) {
  const started = performance.now();
  const students = await seedStudents(services);
  const first = dateAfter(today, -182);
  // Status by n % 10 and category by n % 3, so that every category gets every status.
  const statusOf = (n: number): BookingStatus =>
    n % 10 < 4 ? 'Confirmed' : n % 10 < 6 ? 'Completed' : n % 10 < 8 ? 'Pending' : 'Cancelled';
  await services.db.transaction().execute(async (trx) => {
    for (let from = 0; from < bookingCount; from += 500) {
      const bookings = [];
      for (let n = from; n < Math.min(from + 500, bookingCount); n++) {
        const student = students[n % students.length]!;
        const date = dateAfter(first, n % 365);
        const status = statusOf(n);
        const moduleCategory = categories[n % categories.length]!;
        const tutor =
          status === 'Confirmed' || status === 'Completed' ? tutors.get(moduleCategory)![(n % 7) % 3] : null;
        const slot = `${String(8 + (n % 9)).padStart(2, '0')}:${n % 2 ? '30' : '00'}`;
        const hours = 1 + (n % 3);
        const createdAt = new Date(Date.parse(first) - 7 * dayMs + n * 1000).toISOString();
        bookings.push({
          id: crypto.randomUUID(),
          user_id: student.id,
          student_name: student.name,
          student_email: student.email,
          module_name: 'Introduction to Statistics',
          module_category: moduleCategory,
          price_cents_per_hour: 80_00,
          total_cents: 80_00 * hours,
          date,
          slot1: slot,
          slot2: '17:00',
          slot3: '18:00',
          confirmed_slot: tutor ? slot : null,
          starts_at: sastInstant(date, slot).toISOString(),
          hours,
          concepts: 'Hypothesis testing, p-values and the difference between one- and two-tailed tests.',
          status,
          late_cancellation: 0,
          payment_reference: `TB-${n.toString(36).toUpperCase().padStart(6, '0')}`,
          reminder_sent_at: null,
          created_at: createdAt,
          updated_at: createdAt,
          version: n + 1,
          tutor_id: tutor?.id ?? null,
          tutor_name: tutor?.name ?? null,
        });
      }
      await trx.insertInto('bookings').values(bookings).execute();
    }
    await trx.updateTable('sync_counter').set({ value: bookingCount }).where('name', '=', 'bookings').execute();
  });
  console.log(
    `seeded ${bookingCount.toLocaleString('en-ZA')} bookings in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

const app = await startAppServer('free-times', { idleMail: true });
try {
  const { services } = app;
  const { repos } = services.deps;
  const now = new Date();
  const today = sastDate(now);
  const from = dateAfter(today, 1);
  const leadHours = services.env.bookingMinLeadHours;
  const hours = bookingLimits.hoursDefault;

  const users = await signedInUsers(services, tutorsPerCategory * categories.length, 'tutor');
  const tutors = new Map(
    categories.map((c, i) => [c, users.slice(i * tutorsPerCategory, (i + 1) * tutorsPerCategory)] as const),
  );
  const staffDeps = { ...services.deps, auth: services.auth };
  for (const [c, people] of tutors)
    for (const tutor of people) await addStaff(staffDeps, { email: tutor.email, role: 'tutor', categories: [c] });
  for (const people of tutors.values())
    for (const [i, tutor] of people.entries())
      await repos.availability.save({
        tutorId: tutor.id,
        availability: availabilityOf(i, from),
        updatedAt: now.toISOString(),
      });
  await seed(services, today, tutors);

  const tutorIds = tutors.get(category)!.map((t) => t.id);
  // From the day before the first date to the day after the last: a session or its buffer reaches no further.
  const windowDates = Array.from({ length: days + 2 }, (_, i) => dateAfter(from, i - 1));
  const window = { from: windowDates[0]!, to: windowDates.at(-1)! };

  // The tutors' confirmed sessions in the window, in one read of the columns the free times need (`busyOf`).
  const readSessions = () => repos.bookings.busyOf(tutorIds, window);
  const busyOfTutor = (sessions: TutorBusySession[], tutorId: string) => sessions.filter((s) => s.tutorId === tutorId);
  const compute = (tutorTimes: TutorTime[]) => freeTimes({ tutors: tutorTimes, from, days, hours, now, leadHours });

  async function withAvailability() {
    const [records, sessions] = await Promise.all([repos.availability.findMany(tutorIds), readSessions()]);
    const byId = new Map(records.map((r) => [r.tutorId, r.availability]));
    return compute(tutorIds.map((id) => ({ availability: byId.get(id)!, busy: busyOfTutor(sessions, id) })));
  }

  // The inputs of C, and a look at what A answers.
  const records = await repos.availability.findMany(tutorIds);
  const sessions = await readSessions();
  const inputs = tutorIds.map((id) => ({
    availability: records.find((r) => r.tutorId === id)!.availability,
    busy: busyOfTutor(sessions, id),
  }));
  const answer = await withAvailability();
  const sessionCount = sessions.length;
  const freeCount = answer.reduce((sum, d) => sum + d.starts.length, 0);
  if (answer.length !== days || freeCount === 0)
    throw new Error(`freeTimes answered ${answer.length} dates, none free`);
  console.log(
    `${category}: ${tutorIds.length} tutors, ${sessionCount} confirmed sessions in the ${windowDates.length} dates read, ` +
      `${freeCount} free starts over ${days} days (${answer.filter((d) => d.starts.length === 0).length} days with none)`,
  );

  const targets = [
    { name: 'A. availability + sessions + freeTimes', run: withAvailability, times: [] as number[] },
    { name: 'B. sessions only (reference)', run: readSessions, times: [] as number[] },
    { name: 'C. freeTimes alone (CPU)', run: async () => compute(inputs), times: [] as number[] },
  ];
  for (let round = 0; round < warmUp + rounds; round++) {
    for (const t of targets) {
      const started = performance.now();
      await t.run();
      if (round >= warmUp) t.times.push(performance.now() - started);
    }
  }
  const quantile = (times: number[], q: number) =>
    [...times].sort((a, b) => a - b)[Math.floor(q * (times.length - 1))]!;
  const stats = targets.map((t) => ({ name: t.name, median: quantile(t.times, 0.5), p99: quantile(t.times, 0.99) }));
  const [a, b, c] = stats as [(typeof stats)[0], (typeof stats)[0], (typeof stats)[0]];
  const load = os.loadavg()[0]!.toFixed(1);

  console.log(
    `\n${category}'s free times for ${days} days, ${bookingCount.toLocaleString('en-ZA')} bookings, ${rounds} interleaved rounds ` +
      `(after ${warmUp} to warm up), load average ${load}\n`,
  );
  const width = Math.max(...stats.map((s) => s.name.length));
  console.log(`${'target'.padEnd(width)}  ${'median ms'.padStart(9)}  ${'p99 ms'.padStart(7)}`);
  for (const s of stats)
    console.log(`${s.name.padEnd(width)}  ${s.median.toFixed(3).padStart(9)}  ${s.p99.toFixed(3).padStart(7)}`);
  const ratio = a.median / b.median;
  const met = a.median < goalMs && a.p99 < goalMs;
  console.log(`\nA ÷ B: median ${ratio.toFixed(2)}, p99 ${(a.p99 / b.p99).toFixed(2)}`);
  console.log(
    `A: median ${a.median.toFixed(2)} ms, p99 ${a.p99.toFixed(2)} ms (goal < ${goalMs} ms): ${met ? 'PASS' : 'FAIL'}`,
  );

  const ms = (value: number) => ({ value, unit: 'ms' });
  const measurements: Measurement[] = [
    {
      goal: 'Free times < 5 ms',
      measured:
        `a category's free times for ${days} days at ${bookingCount.toLocaleString('en-US')} bookings ` +
        "(its tutors' availability, their confirmed sessions in the window, `freeTimes`), median",
      figure: ms(a.median),
      reference: { what: 'the same reads of the confirmed sessions alone, median', figure: ms(b.median) },
      ratio,
      also:
        `p99 ${a.p99.toFixed(2)} ms, the reference's ${b.p99.toFixed(2)} ms, ratio of p99s ${(a.p99 / b.p99).toFixed(2)}; ` +
        `${tutorIds.length} tutors, ${sessionCount} sessions read`,
      target: `median and p99 < ${goalMs} ms`,
      met,
    },
    {
      measured: `\`freeTimes\` alone on the same inputs (CPU), median`,
      figure: ms(c.median),
      also: `p99 ${c.p99.toFixed(2)} ms`,
    },
  ];
  await recordResults(import.meta.filename, measurements, {
    conditions:
      `${rounds} interleaved rounds of each (after ${warmUp} to warm up), in the server's process without HTTP; ` +
      `SQLite; ${tutorsPerCategory} tutors per category; load average ${loadAtStart} at the start.`,
  });
} finally {
  await app.stop();
}
