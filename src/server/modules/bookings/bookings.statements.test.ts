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
  createClient,
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
 * part-paid; lines with no reference wait to be matched by hand, or are ignored (and shown ignored the next time,
 * until the ignore is taken back); the same statement again records nothing; a statement that cannot be read is
 * refused whole, naming the line. Only the admin.
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
const importLines = (
  mapping: BankMapping,
  csv: string,
  lines: { key: string; reference?: string }[],
  ignores: { ignore?: string[]; unignore?: string[] } = {},
) => admin.client.post('/api/bookings/statements/import', { mapping, csv, lines, ...ignores });
const errorMessage = (response: { body: unknown }) => (response.body as { error: { message: string } }).error.message;
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

  test('only the admin reads statements and mappings, and ignores lines', async () => {
    const thandi = await student();
    const csv = `Date,Amount,Balance,Description\n2026/12/01,1.00,0,x ${crypto.randomUUID()}\n`;
    const [line] = await preview(fnb, csv);
    const ignoring = { mapping: fnb, csv, lines: [], ignore: [line!.key] };
    for (const who of [thandi, musa.client]) {
      expectApiError(await who.post('/api/bookings/statements/preview', { mapping: fnb, csv }), 403, 'auth.forbidden');
      expectApiError(
        await who.post('/api/bookings/statements/import', { mapping: fnb, csv, lines: [] }),
        403,
        'auth.forbidden',
      );
      expectApiError(await who.post('/api/bookings/statements/import', ignoring), 403, 'auth.forbidden');
      expectApiError(
        await who.post('/api/bookings/statements/import', { ...ignoring, ignore: [], unignore: [line!.key] }),
        403,
        'auth.forbidden',
      );
      expectApiError(await who.get('/api/bookings/bank-mappings'), 403, 'auth.forbidden');
    }
    const nobody = createClient(server.url);
    expectApiError(
      await nobody.post('/api/bookings/statements/preview', { mapping: fnb, csv }),
      401,
      'auth.unauthenticated',
    );
    expectApiError(await nobody.post('/api/bookings/statements/import', ignoring), 401, 'auth.unauthenticated');
    expect((await preview(fnb, csv))[0]!.match).toBe('no-reference');
  });
});

describe('a waiting line ignored', () => {
  test('shown ignored the next time, with who and when; sent twice, nothing changes; taken back, it waits again', async () => {
    const thandi = await student();
    const [paid, byHand] = [await confirmedSession(thandi), await confirmedSession(thandi)];
    const tag = crypto.randomUUID();
    const csv = [
      'Date,Amount,Balance,Description',
      `2026/12/01,${rand(paid.totalCents)},0,${paid.paymentReference} ${tag}`,
      `2026/12/01,${rand(byHand.totalCents)},0,TRANSFER FROM SAVINGS ${tag}`,
      `2026/12/02,90.00,0,CASH DEPOSIT ${tag}`,
      `2026/12/02,150.00,0,TB-ZZZ234 ${tag}`,
    ].join('\n');
    const [pays, transfer, cash, unknown] = await preview(fnb, csv);
    expect([pays, transfer, cash, unknown].map((l) => l!.match)).toEqual([
      'pays',
      'no-reference',
      'no-reference',
      'unknown-reference',
    ]);

    // The paying line recorded, two waiting lines ignored, in one request.
    const first = await importLines(fnb, csv, [{ key: pays!.key }], { ignore: [transfer!.key, unknown!.key] });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({
      recorded: 1,
      amountCents: paid.totalCents,
      alreadyRecorded: 0,
      ignored: 2,
      unignored: 0,
    });
    const again = await preview(fnb, csv);
    expect(again.map((l) => l.match)).toEqual(['already-recorded', 'ignored', 'no-reference', 'ignored']);
    const ignoredAt = again[1]!.ignored!.at;
    expect(again[1]).toMatchObject({ ignored: { by: 'Lerato Admin' } });
    expect(Date.now() - Date.parse(ignoredAt)).toBeLessThan(60_000);
    expect(again[1]).not.toHaveProperty('reference');

    // The same ignore sent twice: nothing changes, not even who and when.
    const twice = await importLines(fnb, csv, [], { ignore: [transfer!.key] });
    expect(twice.body).toMatchObject({ recorded: 0, ignored: 0, unignored: 0 });
    expect((await preview(fnb, csv))[1]!.ignored!.at).toBe(ignoredAt);

    // An ignored line is not recorded until its ignore is taken back: 409 naming it, and nothing written.
    const refused = await importLines(fnb, csv, [{ key: transfer!.key, reference: byHand.paymentReference }]);
    expectApiError(refused, 409, 'statements.line_ignored');
    expect(errorMessage(refused)).toBe(statementMessages.onLine(3, statementMessages.lineIgnored));
    expect(bookingStanding(await readAs(admin.client, byHand.id)).state).toBe('unpaid');

    // Taken back alone, it waits again; taken back twice, nothing changes.
    expect((await importLines(fnb, csv, [], { unignore: [unknown!.key] })).body).toMatchObject({ unignored: 1 });
    expect((await importLines(fnb, csv, [], { unignore: [unknown!.key] })).body).toMatchObject({ unignored: 0 });
    expect((await preview(fnb, csv))[3]).toMatchObject({ match: 'unknown-reference', reference: 'TB-ZZZ234' });

    // Taken back and matched by hand in one request: recorded, and no longer ignored.
    const matched = await importLines(fnb, csv, [{ key: transfer!.key, reference: byHand.paymentReference }], {
      unignore: [transfer!.key],
    });
    expect(matched.body).toMatchObject({ recorded: 1, amountCents: byHand.totalCents, unignored: 1 });
    expect(bookingStanding(await readAs(admin.client, byHand.id)).state).toBe('paid');
    expect((await preview(fnb, csv)).map((l) => l.match)).toEqual([
      'already-recorded',
      'already-recorded',
      'no-reference',
      'unknown-reference',
    ]);
    const { payments } = server.services.deps.repos;
    expect(await payments.ignoredStatementLines([transfer!.key, unknown!.key])).toEqual(new Map());
  });

  test('a recorded line, a paying one or money out cannot be ignored; a key not in the file, or malformed, is refused', async () => {
    const thandi = await student();
    const [recordedBooking, owing] = [await confirmedSession(thandi), await confirmedSession(thandi)];
    const tag = crypto.randomUUID();
    const csv = [
      'Date,Amount,Balance,Description',
      `2026/12/01,${rand(recordedBooking.totalCents)},0,${recordedBooking.paymentReference} ${tag}`,
      `2026/12/01,${rand(owing.totalCents)},0,${owing.paymentReference} ${tag}`,
      `2026/12/02,-35.00,0,MONTHLY FEE ${tag}`,
      `2026/12/02,90.00,0,CASH DEPOSIT ${tag}`,
    ].join('\n');
    const [recorded, pays, fee, cash] = await preview(fnb, csv);
    expect((await importLines(fnb, csv, [{ key: recorded!.key }])).body).toMatchObject({ recorded: 1 });

    // A recorded line: 409 naming it, and the waiting line sent with it is not ignored either.
    const ignoreRecorded = await importLines(fnb, csv, [], { ignore: [cash!.key, recorded!.key] });
    expectApiError(ignoreRecorded, 409, 'statements.line_recorded');
    expect(errorMessage(ignoreRecorded)).toBe(statementMessages.onLine(2, statementMessages.lineRecordedNotIgnored));
    for (const line of [pays!, fee!]) {
      const refused = await importLines(fnb, csv, [], { ignore: [line.key] });
      expectApiError(refused, 409, 'statements.line_not_waiting');
      expect(errorMessage(refused)).toBe(statementMessages.onLine(line.line, statementMessages.lineNotWaiting));
    }
    expect((await preview(fnb, csv)).map((l) => l.match)).toEqual([
      'already-recorded',
      'pays',
      'money-out',
      'no-reference',
    ]);

    // Keys the file has no line for; keys that are no keys; one line both recorded and ignored.
    for (const ignores of [{ ignore: ['c'.repeat(64)] }, { unignore: ['d'.repeat(64)] }]) {
      const unknown = await importLines(fnb, csv, [], ignores);
      expectApiError(unknown, 400, 'statements.ignore_unknown');
      expect(errorMessage(unknown)).toBe(statementMessages.ignoreUnknown);
    }
    for (const ignores of [
      { ignore: ['not-a-key'] },
      { unignore: [cash!.key.toUpperCase()] },
      { ignore: cash!.key } as unknown as { ignore: string[] },
    ])
      expectApiError(await importLines(fnb, csv, [], ignores), 400, 'request.invalid');
    const both = await importLines(fnb, csv, [{ key: pays!.key }], { ignore: [pays!.key] });
    expect(expectApiError(both, 400, 'request.invalid').fields).toMatchObject({
      ignore: statementMessages.recordedAndIgnored,
    });
    expectApiError(
      await importLines(fnb, csv, [], { ignore: [cash!.key], unignore: [cash!.key] }),
      400,
      'request.invalid',
    );
    expect((await preview(fnb, csv))[3]!.match).toBe('no-reference');
    expect(bookingStanding(await readAs(admin.client, owing.id)).state).toBe('unpaid');
  });

  test('who ignored a line follows their rename, and their account’s deletion', async () => {
    const other = await signInAs(server, 'admin', { name: 'Sipho Admin' });
    const csv = `Date,Amount,Balance,Description\n2026/12/01,75.00,0,TRANSFER ${crypto.randomUUID()}\n`;
    const [line] = await preview(fnb, csv);
    const ignored = await other.client.post('/api/bookings/statements/import', {
      mapping: fnb,
      csv,
      lines: [],
      ignore: [line!.key],
    });
    expect(ignored.body).toMatchObject({ ignored: 1 });
    expect((await preview(fnb, csv))[0]).toMatchObject({ match: 'ignored', ignored: { by: 'Sipho Admin' } });
    expect((await other.client.put('/api/me/name', { name: 'Sipho Dlamini' })).status).toBe(200);
    expect((await preview(fnb, csv))[0]).toMatchObject({ ignored: { by: 'Sipho Dlamini' } });
    expect((await other.client.delete('/api/me')).status).toBe(200);
    expect((await preview(fnb, csv))[0]).toMatchObject({ match: 'ignored', ignored: { by: 'Deleted user' } });
    const stored = await server.services.deps.repos.payments.ignoredStatementLines([line!.key]);
    expect(stored.get(line!.key)?.ignoredBy).toEqual({ id: null, name: 'Deleted user' });
  });

  test('a line recorded and ignored at once is only one of them', async () => {
    const thandi = await student();
    const bookings = [await confirmedSession(thandi), await confirmedSession(thandi), await confirmedSession(thandi)];
    const tag = crypto.randomUUID();
    const csv = [
      'Date,Amount,Balance,Description',
      ...bookings.map((b, i) => `2026/12/0${i + 1},${rand(b.totalCents)},0,DEPOSIT ${i} ${tag}`),
    ].join('\n');
    const lines = await preview(fnb, csv);
    const answers = await Promise.all(
      lines.flatMap((line, i) => [
        importLines(fnb, csv, [{ key: line.key, reference: bookings[i]!.paymentReference }]),
        importLines(fnb, csv, [], { ignore: [line.key] }),
      ]),
    );
    for (const answer of answers) expect([200, 409], answer.text).toContain(answer.status);
    const { payments } = server.services.deps.repos;
    const keys = lines.map((l) => l.key);
    const [recorded, ignored] = [
      await payments.recordedStatementLines(keys),
      await payments.ignoredStatementLines(keys),
    ];
    for (const [i, key] of keys.entries()) {
      expect(recorded.has(key) !== ignored.has(key), `line ${i + 2}: recorded or ignored, not both`).toBe(true);
      const state = bookingStanding(await readAs(admin.client, bookings[i]!.id)).state;
      expect(state).toBe(recorded.has(key) ? 'paid' : 'unpaid');
    }
  });
});
