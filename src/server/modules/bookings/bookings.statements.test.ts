import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingSchema, type Booking } from '../../../common/bookings.ts';
import { bookingStanding } from '../../../common/payments.ts';
import { sastDate } from '../../../common/sast.ts';
import {
  statementMessages,
  type BankMapping,
  type StatementPreview,
  type StatementPreviewLine,
} from '../../../common/statements.ts';
import {
  createVerifiedUser,
  expectApiError,
  logIn,
  signInAs,
  startTestServer,
  type TestClient,
  type TestServer,
} from '../../test/harness.ts';

/**
 * Bank statements matched without a spreadsheet (issue 37 §2), through the API: the admin previews a statement
 * read with the bank's column mapping, records the lines chosen, and the bookings they pay become paid or
 * part-paid; lines with no reference wait to be matched by hand; the same statement again records nothing; a
 * statement that cannot be read is refused whole, naming the line. Only the admin.
 */
let server: TestServer;
type Person = Awaited<ReturnType<typeof signInAs>>;
let admin: Person;
let musa: Person;

beforeAll(async () => {
  server = await startTestServer({});
  [admin, musa] = await Promise.all([
    signInAs(server, 'admin', { name: 'Lerato Admin' }),
    signInAs(server, 'tutor', { name: 'Musa Stats', categories: ['Statistics'] }),
  ]);
});

afterAll(async () => {
  await server?.close();
});

const day = 24 * 3_600_000;
let dates = 0;
const freshDate = () => sastDate(new Date(Date.now() + (5 + dates++) * day));

async function student(): Promise<TestClient> {
  return logIn(server, await createVerifiedUser(server, { name: 'Thandi Mokoena' }));
}

async function confirmedSession(who: TestClient): Promise<Booking> {
  const created = await who.post('/api/bookings', {
    id: crypto.randomUUID(),
    module: 'Introduction to Statistics',
    hours: 1,
    concepts: 'Hypothesis testing',
    date: freshDate(),
    slots: ['09:00', '11:00', '14:00'],
  });
  expect(created.status, created.text).toBe(201);
  const booking = bookingSchema.parse(created.body);
  const response = await musa.client.post(`/api/bookings/${booking.id}/confirm`, {
    slot: '11:00',
    version: booking.version,
  });
  expect(response.status, response.text).toBe(200);
  return bookingSchema.parse(response.body);
}

async function readAs(client: TestClient, id: string): Promise<Booking> {
  const response = await client.get('/api/bookings');
  expect(response.status, response.text).toBe(200);
  const found = (response.body as { bookings: unknown[] }).bookings
    .map((b) => bookingSchema.parse(b))
    .find((b) => b.id === id);
  expect(found, `booking ${id}`).toBeDefined();
  return found!;
}

const fnb: BankMapping = {
  bank: 'FNB',
  date: 'Date',
  amount: { kind: 'signed', column: 'Amount' },
  description: ['Description'],
};
const capitec: BankMapping = {
  bank: 'Capitec',
  date: 'Transaction Date',
  amount: { kind: 'in-out', in: 'Money In', out: 'Money Out' },
  description: ['Description'],
};
const rand = (cents: number) => (cents / 100).toFixed(2);
/** Every statement of this file is its own: two runs' lines never share content. */
const run = crypto.randomUUID().slice(0, 8);

const preview = async (mapping: BankMapping, csv: string) => {
  const response = await admin.client.post('/api/bookings/statements/preview', { mapping, csv });
  expect(response.status, response.text).toBe(200);
  return (response.body as StatementPreview).lines;
};
const importLines = (mapping: BankMapping, csv: string, lines: { key: string; reference?: string }[]) =>
  admin.client.post('/api/bookings/statements/import', { mapping, csv, lines });
const recordable = (lines: StatementPreviewLine[]) =>
  lines.filter((l) => ['pays', 'part-pays', 'over-pays'].includes(l.match)).map((l) => ({ key: l.key }));

describe('a bank statement matched and recorded', () => {
  test('two banks’ formats: ten sessions paid, one part-paid, two lines wait; again, nothing twice', async () => {
    // Three students, so that no one sends more requests in an hour than the limit allows.
    const students = [await student(), await student(), await student()];
    const thandi = students[0]!;
    const sessions: Booking[] = [];
    for (let i = 0; i < 11; i++) sessions.push(await confirmedSession(students[i % 3]!));
    const [partPaid, ...full] = sessions as [Booking, ...Booking[]];
    const fnbCsv = [
      `2,Cheque Account ${run}`,
      'Date,Amount,Balance,Description',
      ...full
        .slice(0, 6)
        .map(
          (b, i) =>
            `2026/12/0${1 + (i % 3)},${rand(b.totalCents)},0.00,FNB APP FROM T MOKOENA ${b.paymentReference} ${run}`,
        ),
      `2026/12/03,${rand(partPaid.totalCents / 2)},0.00,EFT ${partPaid.paymentReference.replace('-', ' ')} ${run}`,
      `2026/12/03,-45.00,0.00,MONTHLY FEE ${run}`,
      `2026/12/04,250.00,0.00,CASH DEPOSIT ${run}`,
      `2026/12/04,90.00,0.00,MAGTAPE CREDIT MOKOENA ${run}`,
    ].join('\r\n');
    const capitecCsv = [
      'Nr,Transaction Date,Description,Money In,Money Out,Balance',
      ...full
        .slice(6)
        .map(
          (b, i) =>
            `${i + 1},05/12/2026,Payment ${b.paymentReference.toLowerCase()} ${run},${rand(b.totalCents)},,0.00`,
        ),
      `9,05/12/2026,Withdrawal ${run},,-200.00,0.00`,
    ].join('\n');

    // The preview says what would be recorded, and records nothing.
    const fnbLines = await preview(fnb, fnbCsv);
    expect(fnbLines.map((l) => l.match)).toEqual([
      ...Array<string>(6).fill('pays'),
      'part-pays',
      'money-out',
      'no-reference',
      'no-reference',
    ]);
    expect(fnbLines[6]).toMatchObject({
      line: 9,
      reference: partPaid.paymentReference,
      shortCents: partPaid.totalCents / 2,
      booking: { id: partPaid.id, moduleName: 'Introduction to Statistics', studentName: 'Thandi Mokoena' },
    });
    expect(bookingStanding(await readAs(admin.client, full[0]!.id)).state).toBe('unpaid');

    const recorded = await importLines(fnb, fnbCsv, recordable(fnbLines));
    expect(recorded.status, recorded.text).toBe(200);
    expect(recorded.body).toMatchObject({ recorded: 7, alreadyRecorded: 0 });
    const capitecLines = await preview(capitec, capitecCsv);
    expect(capitecLines.map((l) => l.match)).toEqual([...Array<string>(4).fill('pays'), 'money-out']);
    expect((await importLines(capitec, capitecCsv, recordable(capitecLines))).body).toMatchObject({ recorded: 4 });

    for (const b of full) expect(bookingStanding(await readAs(admin.client, b.id)).state).toBe('paid');
    expect(bookingStanding(await readAs(thandi, full[2]!.id)).state).toBe('paid');
    const part = await readAs(admin.client, partPaid.id);
    expect(bookingStanding(part)).toMatchObject({ state: 'part-paid', owingCents: partPaid.totalCents / 2 });
    expect(part.history.at(-1)).toMatchObject({
      by: { name: 'Lerato Admin' },
      payment: { kind: 'payment', method: 'statement', amountCents: partPaid.totalCents / 2 },
    });

    // The same statement again: every line it recorded is known, and nothing is recorded twice.
    const again = await preview(fnb, fnbCsv);
    expect(again.filter((l) => l.match === 'already-recorded')).toHaveLength(7);
    const twice = await importLines(fnb, fnbCsv, recordable(fnbLines));
    expect(twice.body).toMatchObject({ recorded: 0, alreadyRecorded: 7 });
    expect(bookingStanding(await readAs(admin.client, partPaid.id)).paidCents).toBe(partPaid.totalCents / 2);

    // A waiting line matched by hand pays the rest; the mappings are remembered per bank.
    const waiting = again.find((l) => l.description.startsWith('MAGTAPE'))!;
    expect(waiting.match).toBe('no-reference');
    const byHand = await importLines(fnb, fnbCsv, [
      { key: waiting.key, reference: partPaid.paymentReference.toLowerCase() },
    ]);
    expect(byHand.body).toMatchObject({ recorded: 1, amountCents: 90_00 });
    expect(bookingStanding(await readAs(admin.client, partPaid.id)).state).not.toBe('unpaid');
    const mappings = await admin.client.get('/api/bookings/bank-mappings');
    expect((mappings.body as { mappings: BankMapping[] }).mappings).toEqual(expect.arrayContaining([fnb, capitec]));
  });

  test('two imports of one statement at once record each line once', async () => {
    const thandi = await student();
    const booking = await confirmedSession(thandi);
    const csv = `Date,Amount,Description\n2026-12-02,${rand(booking.totalCents)},${booking.paymentReference} ${crypto.randomUUID()}\n`;
    const mapping = { ...fnb, bank: `Nedbank ${run}` };
    const lines = recordable(await preview(mapping, csv));
    const answers = await Promise.all([importLines(mapping, csv, lines), importLines(mapping, csv, lines)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => (a.body as { recorded: number }).recorded).sort()).toEqual([0, 1]);
    expect(bookingStanding(await readAs(admin.client, booking.id)).paidCents).toBe(booking.totalCents);
  });

  test('what cannot be read is refused whole, naming the line; a chosen line that records nothing is refused first', async () => {
    const thandi = await student();
    const booking = await confirmedSession(thandi);
    const good = `2026/12/01,${rand(booking.totalCents)},0,${booking.paymentReference} ${crypto.randomUUID()}`;
    const badDate = ['Date,Amount,Balance,Description', good, '2026/13/01,10.00,0,x'].join('\n');
    const refusal = await admin.client.post('/api/bookings/statements/preview', { mapping: fnb, csv: badDate });
    expectApiError(refusal, 400, 'statements.invalid');
    expect((refusal.body as { error: { message: string } }).error.message).toBe(
      statementMessages.onLine(3, statementMessages.dateInvalid('2026/13/01')),
    );
    const notANumber = ['Date,Amount,Balance,Description', good, '2026/12/01,ten,0,x'].join('\n');
    expect(
      (await importLines(fnb, notANumber, [{ key: 'a'.repeat(64) }])).body as { error: { message: string } },
    ).toMatchObject({ error: { message: statementMessages.onLine(3, statementMessages.amountInvalid) } });
    const missing = await admin.client.post('/api/bookings/statements/preview', {
      mapping: fnb,
      csv: 'When,Value,Narrative\n2026/12/01,1,x\n',
    });
    expectApiError(missing, 400, 'statements.invalid');
    expectApiError(
      await admin.client.post('/api/bookings/statements/preview', { mapping: fnb, csv: 'PK\u0003\u0004\u0000binary' }),
      400,
      'statements.invalid',
    );

    // A line with no reference chosen without one: refused before the good line is recorded.
    const csv = ['Date,Amount,Balance,Description', good, `2026/12/02,90.00,0,CASH ${crypto.randomUUID()}`].join('\n');
    const lines = await preview(fnb, csv);
    const unmatched = await importLines(
      fnb,
      csv,
      lines.map((l) => ({ key: l.key })),
    );
    expectApiError(unmatched, 409, 'statements.line_unmatched');
    expect((unmatched.body as { error: { message: string } }).error.message).toBe(
      statementMessages.onLine(3, statementMessages.lineUnmatched),
    );
    expect(bookingStanding(await readAs(admin.client, booking.id)).state).toBe('unpaid');
    expectApiError(await importLines(fnb, csv, [{ key: 'b'.repeat(64) }]), 409, 'statements.line_unknown');
    expectApiError(
      await importLines(fnb, csv, [{ key: lines[1]!.key, reference: 'TB-12345' }]),
      400,
      'request.invalid',
    );
    // Over 5 MB: refused with what to do; far over, before the body is read.
    const large = `Date,Amount,Balance,Description\n${'2026/12/01,1.00,0,x\n'.repeat(300_000)}`;
    const tooLarge = await admin.client.post('/api/bookings/statements/preview', { mapping: fnb, csv: large });
    expectApiError(tooLarge, 400, 'request.invalid');
    expect((tooLarge.body as { error: { fields: { csv: string } } }).error.fields.csv).toBe(statementMessages.tooLarge);
    expectApiError(
      await admin.client.post('/api/bookings/statements/preview', { mapping: fnb, csv: large.repeat(2) }),
      413,
      'request.too_large',
    );
  });

  test('only the admin reads statements and mappings', async () => {
    const thandi = await student();
    const csv = 'Date,Amount,Balance,Description\n2026/12/01,1.00,0,x\n';
    for (const who of [thandi, musa.client]) {
      expectApiError(await who.post('/api/bookings/statements/preview', { mapping: fnb, csv }), 403, 'auth.forbidden');
      expectApiError(
        await who.post('/api/bookings/statements/import', { mapping: fnb, csv, lines: [] }),
        403,
        'auth.forbidden',
      );
      expectApiError(await who.get('/api/bookings/bank-mappings'), 403, 'auth.forbidden');
    }
  });
});
