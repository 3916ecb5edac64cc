import os from 'node:os';
import { parse } from 'csv-parse/sync';
import { dateAfter } from '../src/common/availability.ts';
import { sastDate, sastInstant } from '../src/common/sast.ts';
import type { Me } from '../src/common/session.ts';
import { referenceAlphabet } from '../src/common/statement-match.ts';
import type { BankMapping } from '../src/common/statements.ts';
import { previewStatement } from '../src/server/modules/bookings/bookings.statements.ts';
import { readStatement } from '../src/server/modules/bookings/statement-csv.ts';
import type { Services } from '../src/server/server.ts';
import { startAppServer } from './app-server.ts';
import { recordResults, type Measurement } from './results.ts';
import { seedStudents } from './seed-bookings.ts';

/**
 * A bank statement of 10,000 lines read and matched (issue 37 §2: under 2 s), a report (always exits 0). On
 * SQLite with `bookingCount` confirmed bookings, each owing its price, and `packageCount` monthly packages waiting
 * for theirs (§3); the statement is FNB's format, seven lines in ten naming a booking's reference (most paying it,
 * some short or over), one a package's (`TB XXXXXX P`, as banks write it), the rest without one or money out.
 * A. the admin's preview, as the route runs it without HTTP: the CSV read with the mapping (csv-parse, dates,
 *    amounts, each line's content hash), the references' bookings and the lines recorded before read from the
 *    database, every line matched.
 * B. the reference: csv-parse alone on the same bytes, the part of A no code of ours can make faster.
 * C. `readStatement` alone on the same bytes: A's reading without the database.
 * Interleaved, one of each per round, so that a busy moment of the machine falls on all alike.
 */

const bookingCount = 20_000;
const packageCount = 2_000;
const lineCount = 10_000;
const rounds = 15;
const goalMs = 2_000;
const loadAtStart = os.loadavg()[0]!.toFixed(1);
const referenceOf = (n: number) => {
  let code = '';
  for (let i = 0, rest = n; i < 6; i++, rest = Math.floor(rest / referenceAlphabet.length))
    code += referenceAlphabet[rest % referenceAlphabet.length];
  return `TB-${code}`;
};

const mapping: BankMapping = {
  bank: 'FNB',
  date: 'Date',
  amount: { kind: 'signed', column: 'Amount' },
  description: ['Description'],
};

/** `bookingCount` confirmed bookings of 1 to 3 hours at R80 an hour, straight to the table in one transaction. */
async function seed(services: Services, today: string) {
  const students = await seedStudents(services);
  await services.db.transaction().execute(async (trx) => {
    for (let from = 0; from < bookingCount; from += 500) {
      const rows = [];
      for (let n = from; n < Math.min(from + 500, bookingCount); n++) {
        const student = students[n % students.length]!;
        const date = dateAfter(today, (n % 120) - 60);
        const hours = 1 + (n % 3);
        const at = new Date(Date.parse(today) - 90 * 86_400_000 + n * 1000).toISOString();
        rows.push({
          id: crypto.randomUUID(),
          user_id: student.id,
          student_name: student.name,
          student_email: student.email,
          module_name: 'Introduction to Statistics',
          module_category: 'Statistics' as const,
          price_cents_per_hour: 80_00,
          total_cents: 80_00 * hours,
          date,
          slot1: '10:00',
          slot2: '12:00',
          slot3: '14:00',
          confirmed_slot: '10:00',
          starts_at: sastInstant(date, '10:00').toISOString(),
          hours,
          concepts: 'Hypothesis testing',
          status: 'Confirmed' as const,
          late_cancellation: 0,
          payment_reference: referenceOf(n),
          reminder_sent_at: null,
          created_at: at,
          updated_at: at,
          version: n + 1,
          tutor_id: null,
          tutor_name: null,
        });
      }
      await trx.insertInto('bookings').values(rows).execute();
    }
    for (let from = 0; from < packageCount; from += 500) {
      const rows = [];
      for (let n = from; n < Math.min(from + 500, packageCount); n++) {
        const student = students[n % students.length]!;
        rows.push({
          id: crypto.randomUUID(),
          offer_id: 'bench-offer',
          name: '10 hours of Statistics',
          category: 'Statistics' as const,
          module_name: null,
          minutes: 600,
          used_minutes: 0,
          price_cents: 800_00,
          carry_over: 0,
          late_cancel: 'all' as const,
          student_id: student.id,
          student_name: student.name,
          student_email: student.email,
          month: today.slice(0, 7),
          valid_until: today,
          // The bookings' codes again: a package's reference is told from a session's by its `-P` alone.
          payment_reference: `${referenceOf(n)}-P`,
          paid_cents: 0,
          refunded_cents: 0,
          waived_cents: 0,
          created_at: new Date(Date.parse(today) - n * 1000).toISOString(),
        });
      }
      await trx.insertInto('packages').values(rows).execute();
    }
    await trx.updateTable('sync_counter').set({ value: bookingCount }).where('name', '=', 'bookings').execute();
  });
}

/** FNB's export: two lines of its own, the header, then `lineCount` lines over a month. */
function statement(today: string): string {
  const lines = ['2,Cheque Account,62000000000', '3,Statement period,one month', 'Date,Amount,Balance,Description'];
  for (let n = 0; n < lineCount; n++) {
    const date = dateAfter(today, -(n % 30)).replaceAll('-', '/');
    const kind = n % 10;
    const booking = (n * 7) % bookingCount;
    const price = 80_00 * (1 + (booking % 3));
    if (kind < 7) {
      const amount = kind === 5 ? price / 2 : kind === 6 ? price + 50_00 : price;
      lines.push(`${date},${(amount / 100).toFixed(2)},0.00,FNB APP PAYMENT FROM STUDENT ${n} ${referenceOf(booking)}`);
    } else if (kind === 7) lines.push(`${date},-45.00,0.00,"MONTHLY FEE, CHEQUE ${n}"`);
    else if (kind === 8) lines.push(`${date},${(100 + n).toFixed(2)},0.00,CASH DEPOSIT ${n}`);
    else {
      const code = referenceOf(n % packageCount).slice(3);
      lines.push(`${date},800.00,0.00,EFT FROM STUDENT ${n} TB ${code} P`);
    }
  }
  return lines.join('\r\n');
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const app = await startAppServer('statements', { idleMail: true });
try {
  const { services } = app;
  const today = sastDate(new Date());
  await seed(services, today);
  const csv = statement(today);
  const admin = { id: 'bench-admin', name: 'Bench Admin', role: 'admin' } as Me;
  const deps = services.deps;

  const times = { a: [] as number[], b: [] as number[], c: [] as number[] };
  let matched = 0;
  let toPackages = 0;
  for (let round = 0; round < rounds + 2; round++) {
    let started = performance.now();
    const preview = await previewStatement(deps, admin, { mapping, csv });
    const a = performance.now() - started;
    started = performance.now();
    parse(csv, { bom: true, relax_column_count: true, skip_empty_lines: true, trim: true });
    const b = performance.now() - started;
    started = performance.now();
    readStatement(csv, mapping);
    const c = performance.now() - started;
    // The first two rounds warm up.
    if (round < 2) continue;
    times.a.push(a);
    times.b.push(b);
    times.c.push(c);
    matched = preview.lines.filter((l) => l.booking).length;
    toPackages = preview.lines.filter((l) => l.package).length;
  }
  const a = median(times.a);
  const b = median(times.b);
  const c = median(times.c);
  const met = Math.max(...times.a) < goalMs;
  console.log(
    `A. preview of ${lineCount} lines: median ${a.toFixed(0)} ms, slowest ${Math.max(...times.a).toFixed(0)} ms`,
  );
  console.log(`B. csv-parse alone: median ${b.toFixed(0)} ms; A ÷ B ${(a / b).toFixed(2)}`);
  console.log(`C. readStatement alone: median ${c.toFixed(0)} ms`);
  console.log(`goal: every preview under ${goalMs} ms: ${met ? 'PASS' : 'FAIL'}`);

  const ms = (value: number) => ({ value: Math.round(value), unit: 'ms' });
  const measurements: Measurement[] = [
    {
      goal: 'Statement of 10,000 lines < 2 s',
      measured:
        `the admin's preview of a ${lineCount.toLocaleString('en-US')}-line bank statement at ` +
        `${bookingCount.toLocaleString('en-US')} bookings and ${packageCount.toLocaleString('en-US')} packages ` +
        '(read with the mapping, references and recorded lines ' +
        'read, every line matched), median',
      figure: ms(a),
      reference: { what: 'csv-parse alone on the same bytes, median', figure: ms(b) },
      ratio: a / b,
      also: `slowest ${Math.max(...times.a).toFixed(0)} ms; ${matched} lines matched to a booking, ${toPackages} to a package; ${(csv.length / 1024).toFixed(0)} KB`,
      target: `every run < ${goalMs} ms`,
      met,
    },
    { measured: '`readStatement` alone on the same bytes (no database), median', figure: ms(c) },
  ];
  await recordResults(import.meta.filename, measurements, {
    conditions:
      `${rounds} interleaved rounds of each (after 2 to warm up), in the server's process without HTTP; SQLite; ` +
      `load average ${loadAtStart} at the start.`,
  });
} finally {
  await app.stop();
}
