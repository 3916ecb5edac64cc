import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingSchema, type Booking } from '../../../common/bookings.ts';
import { formatRand } from '../../../common/money.ts';
import { formatMonth, nextMonth, packageSchema, packageStanding, type Package } from '../../../common/packages.ts';
import { bookingStanding } from '../../../common/payments.ts';
import { packageReceiptPath, receiptNumber } from '../../../common/receipts.ts';
import { formatSastDate, sastDate } from '../../../common/sast.ts';
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
import { pdfText } from '../../test/pdf-text.ts';
import { storedEmails } from '../../test/stored.ts';

/**
 * Bank statements matched without a spreadsheet (issue 37 §2), through the API: the admin previews a statement
 * read with the bank's column mapping, records the lines chosen, and the bookings they pay become paid or
 * part-paid; lines with no reference wait to be matched by hand, or are ignored (and shown ignored the next time,
 * until the ignore is taken back); the same statement again records nothing; a statement that cannot be read is
 * refused whole, naming the line. A monthly package's reference (`TB-…-P`) pays the package the same way. Only the
 * admin.
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

/** A monthly package `who` bought for next month, waiting for its money. */
async function boughtPackage(who: TestClient, priceCents = 600_00): Promise<Package> {
  const offered = await admin.client.post('/api/packages/offers', {
    id: crypto.randomUUID(),
    name: '6 hours of Statistics',
    category: 'Statistics',
    hours: 6,
    priceCents,
  });
  expect(offered.status, offered.text).toBe(201);
  const bought = await who.post('/api/packages', {
    id: crypto.randomUUID(),
    offerId: (offered.body as { id: string }).id,
    month: nextMonth(sastDate(new Date()).slice(0, 7)),
  });
  expect(bought.status, bought.text).toBe(201);
  return packageSchema.parse(bought.body);
}

async function packageAs(who: TestClient, id: string): Promise<Package> {
  const response = await who.get('/api/packages');
  expect(response.status, response.text).toBe(200);
  const found = (response.body as { packages: unknown[] }).packages
    .map((p) => packageSchema.parse(p))
    .find((p) => p.id === id);
  expect(found, `package ${id}`).toBeDefined();
  return found!;
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

  test('two imports of one statement at once record each line once, a package’s too', async () => {
    const thandi = await student();
    const booking = await confirmedSession(thandi);
    const pkg = await boughtPackage(thandi);
    const tag = crypto.randomUUID();
    const csv = [
      'Date,Amount,Description',
      `2026-12-02,${rand(booking.totalCents)},${booking.paymentReference} ${tag}`,
      `2026-12-02,${rand(pkg.priceCents)},${pkg.paymentReference} ${tag}`,
    ].join('\n');
    const mapping = { ...fnb, bank: `Nedbank ${run}` };
    const lines = recordable(await preview(mapping, csv));
    expect(lines).toHaveLength(2);
    const answers = await Promise.all([importLines(mapping, csv, lines), importLines(mapping, csv, lines)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => (a.body as { recorded: number }).recorded).reduce((a, b) => a + b)).toBe(2);
    expect(answers.map((a) => (a.body as { alreadyRecorded: number }).alreadyRecorded).reduce((a, b) => a + b)).toBe(2);
    expect(bookingStanding(await readAs(admin.client, booking.id)).paidCents).toBe(booking.totalCents);
    const paid = await packageAs(thandi, pkg.id);
    expect(paid.payments.paidCents).toBe(pkg.priceCents);
    expect(paid.recordedPayments).toHaveLength(1);
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

describe('a monthly package paid from a statement', () => {
  test('its reference, however the bank wrote it, part-pays, pays and over-pays it; recorded once, with receipts', async () => {
    const account = await createVerifiedUser(server, { name: 'Thandi Mokoena' });
    const thandi = await logIn(server, account);
    const [pkg, byHand] = [await boughtPackage(thandi), await boughtPackage(thandi, 450_00)];
    const booking = await confirmedSession(thandi);
    const code = pkg.paymentReference.slice(3, 9);
    const tag = crypto.randomUUID();
    const csv = [
      'Date,Amount,Balance,Description',
      `2026/12/01,250.00,0,EFT TB ${code} P MOKOENA ${tag}`,
      `2026/12/02,${rand(pkg.priceCents - 250_00)},0,tb${code.toLowerCase()}p ${tag}`,
      `2026/12/02,${rand(booking.totalCents)},0,${booking.paymentReference} ${tag}`,
      `2026/12/03,50.00,0,${pkg.paymentReference} AGAIN ${tag}`,
      // The package's code alone is no package's reference; a package's reference nobody holds is unknown.
      `2026/12/04,100.00,0,TB-${code} ${tag}`,
      `2026/12/04,100.00,0,TB-ZZZ234-P ${tag}`,
      `2026/12/05,${rand(byHand.priceCents)},0,CASH DEPOSIT ${tag}`,
    ].join('\n');
    const lines = await preview(fnb, csv);
    expect(lines.map((l) => [l.match, l.reference])).toEqual([
      ['part-pays', pkg.paymentReference],
      ['pays', pkg.paymentReference],
      ['pays', booking.paymentReference],
      ['over-pays', pkg.paymentReference],
      ['unknown-reference', `TB-${code}`],
      ['unknown-reference', 'TB-ZZZ234-P'],
      ['no-reference', undefined],
    ]);
    const named = { id: pkg.id, name: '6 hours of Statistics', studentName: 'Thandi Mokoena', month: pkg.month };
    expect(lines[0]).toMatchObject({ package: named, shortCents: pkg.priceCents - 250_00 });
    expect(lines[0]).not.toHaveProperty('booking');
    expect(lines[1]).toMatchObject({ package: named });
    expect(lines[2]).toMatchObject({ booking: { id: booking.id } });
    expect(lines[2]).not.toHaveProperty('package');
    expect(lines[3]).toMatchObject({ package: named, overCents: 50_00 });
    // The preview records nothing.
    expect(packageStanding(await packageAs(thandi, pkg.id)).state).toBe('unpaid');

    // Recorded as the page chooses (the over-payment left): the package paid, the session too.
    const chosen = lines.slice(0, 3).map((l) => ({ key: l.key }));
    const recorded = await importLines(fnb, csv, chosen);
    expect(recorded.status, recorded.text).toBe(200);
    expect(recorded.body).toMatchObject({
      recorded: 3,
      amountCents: pkg.priceCents + booking.totalCents,
      alreadyRecorded: 0,
    });
    const paid = await packageAs(thandi, pkg.id);
    expect(packageStanding(paid)).toMatchObject({ state: 'paid', owingCents: 0 });
    // One import records its lines at one time: listed in no order between them.
    const byDate = [...paid.recordedPayments].sort((x, y) => x.paidOn.localeCompare(y.paidOn));
    expect(byDate.map(({ kind, amountCents, paidOn }) => ({ kind, amountCents, paidOn }))).toEqual([
      { kind: 'payment', amountCents: 250_00, paidOn: '2026-12-01' },
      { kind: 'payment', amountCents: pkg.priceCents - 250_00, paidOn: '2026-12-02' },
    ]);
    expect(bookingStanding(await readAs(thandi, booking.id)).state).toBe('paid');
    const { payments } = server.services.deps.repos;
    const first = await payments.findByStatementLine(lines[0]!.key);
    expect(first).toMatchObject({
      id: byDate[0]!.id,
      kind: 'payment',
      method: 'statement',
      amountCents: 250_00,
      paidOn: '2026-12-01',
      reference: pkg.paymentReference,
      statementLineKey: lines[0]!.key,
      recordedBy: { name: 'Lerato Admin' },
      allocations: [],
      packageId: pkg.id,
    });

    // Each payment's receipt is e-mailed to the student once, and says where the money came from.
    const title = `6 hours of Statistics, ${formatMonth(pkg.month)}`;
    const receipts = async () =>
      (await storedEmails(server.services, [account.email])).filter((e) => e.kind === 'payment-receipt');
    const firstNumber = receiptNumber(first!.id);
    expect((await receipts()).map((e) => e.subject)).toEqual(
      expect.arrayContaining([`Receipt ${firstNumber}: ${formatRand(250_00)} for your package ${title}`]),
    );
    expect(await receipts()).toHaveLength(3);
    const pdf = await thandi.get(packageReceiptPath(pkg.id, first!.id));
    expect(pdf.status).toBe(200);
    const text = await pdfText(pdf.bytes);
    for (const expected of [
      `Receipt number: ${firstNumber}`,
      `Paid on: ${formatSastDate('2026-12-01')}`,
      'Method: EFT (from our bank statement)',
      `Reference: ${pkg.paymentReference}`,
      `Package: ${title}`,
    ])
      expect(text).toContain(expected);

    // The same statement again: recorded before, nothing twice; the over-payment still says so.
    const again = await preview(fnb, csv);
    expect(again.map((l) => l.match).slice(0, 4)).toEqual([
      'already-recorded',
      'already-recorded',
      'already-recorded',
      'over-pays',
    ]);
    expect(again[3]).toMatchObject({ overCents: 50_00, package: named });
    const twice = await importLines(fnb, csv, chosen);
    expect(twice.body).toMatchObject({ recorded: 0, alreadyRecorded: 3 });
    expect((await packageAs(admin.client, pkg.id)).payments.paidCents).toBe(pkg.priceCents);
    expect(await receipts()).toHaveLength(3);

    // A waiting line matched by hand to a package, its reference as the student wrote it; a reference of a package
    // nobody has, or of none at all, records nothing.
    const cash = again[6]!;
    for (const reference of ['TB-ZZZ234-P', `TB-${code}`]) {
      const refused = await importLines(fnb, csv, [{ key: cash.key, reference }]);
      expectApiError(refused, 409, 'statements.line_unmatched');
    }
    expectApiError(await importLines(fnb, csv, [{ key: cash.key, reference: 'TB-ABC234-X' }]), 400, 'request.invalid');
    expect(packageStanding(await packageAs(thandi, byHand.id)).state).toBe('unpaid');
    const matched = await importLines(fnb, csv, [{ key: cash.key, reference: byHand.paymentReference.toLowerCase() }]);
    expect(matched.body).toMatchObject({ recorded: 1, amountCents: byHand.priceCents });
    const handPaid = await packageAs(thandi, byHand.id);
    expect(packageStanding(handPaid).state).toBe('paid');
    expect(handPaid.recordedPayments).toMatchObject([{ amountCents: byHand.priceCents, paidOn: '2026-12-05' }]);
    expect(await payments.findByStatementLine(cash.key)).toMatchObject({
      method: 'statement',
      reference: byHand.paymentReference,
      packageId: byHand.id,
    });
    expect(await receipts()).toHaveLength(4);

    // The over-payment, chosen, is recorded: the package shows it overpaid, for the admin to refund or carry.
    expect((await importLines(fnb, csv, [{ key: again[3]!.key }])).body).toMatchObject({ recorded: 1 });
    expect(packageStanding(await packageAs(admin.client, pkg.id))).toMatchObject({ owingCents: 0 });
    expect((await packageAs(admin.client, pkg.id)).payments.paidCents).toBe(pkg.priceCents + 50_00);
  });

  test('a line paying a package does not wait, so it cannot be ignored; only the admin records it', async () => {
    const thandi = await student();
    const pkg = await boughtPackage(thandi);
    const csv = `Date,Amount,Balance,Description\n2026/12/01,${rand(pkg.priceCents)},0,${pkg.paymentReference} ${crypto.randomUUID()}\n`;
    const [line] = await preview(fnb, csv);
    expect(line).toMatchObject({ match: 'pays', package: { id: pkg.id } });
    // A line paying a package does not wait: it cannot be ignored.
    expectApiError(await importLines(fnb, csv, [], { ignore: [line!.key] }), 409, 'statements.line_not_waiting');
    for (const who of [thandi, musa.client])
      expectApiError(
        await who.post('/api/bookings/statements/import', { mapping: fnb, csv, lines: [{ key: line!.key }] }),
        403,
        'auth.forbidden',
      );
    expect(packageStanding(await packageAs(thandi, pkg.id)).state).toBe('unpaid');
    expect((await importLines(fnb, csv, [{ key: line!.key }])).body).toMatchObject({ recorded: 1 });
    expect(packageStanding(await packageAs(thandi, pkg.id)).state).toBe('paid');
  });
});
