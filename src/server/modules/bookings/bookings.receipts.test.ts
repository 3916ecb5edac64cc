import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrations } from '../../db/migrations/index.ts';
import { namePaymentsInHistory } from './payments.firestore.ts';
import { bookingSchema, type Booking } from '../../../common/bookings.ts';
import { formatRand } from '../../../common/money.ts';
import { receiptMessages, receiptNumber, receiptPath } from '../../../common/receipts.ts';
import { formatSastDate, formatSastSlot, sastDate } from '../../../common/sast.ts';
import type { BankMapping } from '../../../common/statements.ts';
import {
  createClient,
  createVerifiedUser,
  delay,
  expectApiError,
  findClosedPort,
  logIn,
  onFirestore,
  signInAs,
  startSmtpServer,
  startTestServer,
  type TestClient,
  type TestServer,
  type TestSmtpServer,
} from '../../test/harness.ts';
import { isPdf, pdfText } from '../../test/pdf-text.ts';
import { storedEmails } from '../../test/stored.ts';

/**
 * A receipt for every payment (issue 37 §4): the admin records a payment (by hand or from a bank statement); the
 * student gets it by e-mail as a PDF and downloads the same from their booking; the PDF, read back as text, says
 * who was paid, by whom, for which session, how much, under which reference, and "Not VAT registered" unless a
 * VAT number is configured. Only the booking's student and the admin may download it; a refund and a waiver have
 * none; the same payment is e-mailed once.
 */
let smtp: TestSmtpServer;
let server: TestServer;
type Person = Awaited<ReturnType<typeof signInAs>>;
let admin: Person;
let musa: Person;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url });
  [admin, musa] = await Promise.all([
    signInAs(server, 'admin', { name: 'Lerato Admin' }),
    signInAs(server, 'tutor', { name: 'Musa Stats', categories: ['Statistics'] }),
  ]);
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const day = 24 * 3_600_000;
let dates = 0;
const freshDate = () => sastDate(new Date(Date.now() + (5 + dates++) * day));
const today = () => sastDate(new Date());

async function student(on = server): Promise<{ client: TestClient; email: string; id: string }> {
  const account = await createVerifiedUser(on, { name: 'Thandi Mokoena' });
  return { client: await logIn(on, account), email: account.email, id: account.id };
}

/** A two-hour session of Statistics at 11:00, confirmed by its tutor. */
async function confirmedSession(who: TestClient, tutor = musa.client): Promise<Booking> {
  const created = await who.post('/api/bookings', {
    id: crypto.randomUUID(),
    module: 'Introduction to Statistics',
    hours: 2,
    concepts: 'Hypothesis testing',
    date: freshDate(),
    slots: ['09:00', '11:00', '14:00'],
  });
  expect(created.status, created.text).toBe(201);
  const booking = bookingSchema.parse(created.body);
  const response = await tutor.post(`/api/bookings/${booking.id}/confirm`, { slot: '11:00', version: booking.version });
  expect(response.status, response.text).toBe(200);
  return bookingSchema.parse(response.body);
}

async function record(
  booking: Pick<Booking, 'id' | 'version'>,
  fields: Record<string, unknown>,
  by = admin.client,
): Promise<{ booking: Booking; paymentId: string }> {
  const paymentId = crypto.randomUUID();
  const response = await by.post(`/api/bookings/${booking.id}/payments`, {
    id: paymentId,
    kind: 'payment',
    method: 'eft',
    paidOn: today(),
    version: booking.version,
    ...fields,
  });
  expect(response.status, response.text).toBe(200);
  return { booking: bookingSchema.parse(response.body), paymentId };
}

/** The receipt's text, downloaded by `who`, after checking it is a PDF offered as a file. */
async function download(who: TestClient, bookingId: string, paymentId: string): Promise<string> {
  const response = await who.get(receiptPath(bookingId, paymentId));
  expect(response.status, response.text.slice(0, 300)).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/pdf');
  expect(response.headers.get('content-disposition')).toBe(
    `attachment; filename="tutorbook-receipt-${receiptNumber(paymentId)}.pdf"`,
  );
  expect(response.headers.get('cache-control')).toBe('private, no-store');
  expect(isPdf(response.bytes)).toBe(true);
  return pdfText(response.bytes);
}

/** What every receipt of `booking`'s payment of `amountCents` says. */
function expectReceipt(text: string, booking: Booking, paymentId: string, amountCents: number) {
  for (const expected of [
    'TutorBook',
    'hello@tutorbook.co.za',
    'WhatsApp +27 71 234 5678',
    `Receipt number: ${receiptNumber(paymentId)}`,
    `Received from: Thandi Mokoena (${booking.student.email})`,
    `Paid on: ${formatSastDate(today())}`,
    'Session: Introduction to Statistics',
    `${formatSastSlot(booking.date, '11:00')}, 2 hours; booking reference ${booking.paymentReference}`,
    `Total paid ${formatRand(amountCents)}`,
    paymentId,
  ])
    expect(text).toContain(expected);
}

describe('a receipt for every payment', () => {
  test('the admin records a payment: the student is e-mailed the PDF, and downloads the same from the booking', async () => {
    const thandi = await student();
    const booking = await confirmedSession(thandi.client);
    const half = booking.totalCents / 2;
    const { booking: paid, paymentId } = await record(booking, { amountCents: half });

    // The booking's history names the payment: the student's card offers its receipt from the device's copy.
    expect(paid.history.at(-1)?.payment).toEqual({ id: paymentId, kind: 'payment', method: 'eft', amountCents: half });

    const email = await smtp.waitForEmail({ to: thandi.email, subject: `Receipt ${receiptNumber(paymentId)}` });
    expect(email.subject).toBe(
      `Receipt ${receiptNumber(paymentId)}: ${formatRand(half)} for Introduction to Statistics`,
    );
    expect(email.text).toContain(receiptMessages.attached);
    expect(email.text).toContain(`Still to pay: ${formatRand(booking.totalCents - half)}`);
    expect(email.attachments).toHaveLength(1);
    const [pdf] = email.attachments;
    expect(pdf).toMatchObject({
      filename: `tutorbook-receipt-${receiptNumber(paymentId)}.pdf`,
      contentType: 'application/pdf',
    });
    const attached = await pdfText(pdf!.bytes);
    expectReceipt(attached, booking, paymentId, half);
    expect(attached).toContain('Method: EFT');
    expect(attached).toContain(`Reference: ${booking.paymentReference}`);
    expect(attached).toContain('Not VAT registered');

    // Downloaded by the student, and by the admin: the same receipt.
    expect(await download(thandi.client, booking.id, paymentId)).toBe(attached);
    expect(await download(admin.client, booking.id, paymentId)).toBe(attached);
  });

  test('sent again (its answer lost), the payment is recorded and e-mailed once', async () => {
    const thandi = await student();
    const booking = await confirmedSession(thandi.client);
    const body = {
      id: crypto.randomUUID(),
      kind: 'payment',
      method: 'admin',
      amountCents: booking.totalCents,
      paidOn: today(),
      version: booking.version,
    };
    const first = await admin.client.post(`/api/bookings/${booking.id}/payments`, body);
    const again = await admin.client.post(`/api/bookings/${booking.id}/payments`, body);
    expect([first.status, again.status]).toEqual([200, 200]);
    const email = await smtp.waitForEmail({ to: thandi.email, subject: 'Receipt' });
    expect(email.text).toContain('It is paid: thank you.');
    expect(await pdfText(email.attachments[0]!.bytes)).toContain('Method: By hand (cash or card)');
    await delay(1_000);
    expect(smtp.unclaimed({ to: thandi.email, subject: 'Receipt' })).toEqual([]);
    expect(
      (await storedEmails(server.services, [thandi.email])).filter((e) => e.kind === 'payment-receipt'),
    ).toHaveLength(1);
  });

  test('a statement line recorded e-mails its receipt, dated as the bank dates it', async () => {
    const thandi = await student();
    const booking = await confirmedSession(thandi.client);
    const mapping: BankMapping = {
      bank: 'FNB',
      date: 'Date',
      amount: { kind: 'signed', column: 'Amount' },
      description: ['Description'],
    };
    const csv = [
      'Date,Amount,Description',
      `2026/12/01,${(booking.totalCents / 100).toFixed(2)},FNB APP FROM T MOKOENA ${booking.paymentReference} ${crypto.randomUUID()}`,
    ].join('\n');
    const preview = await admin.client.post('/api/bookings/statements/preview', { mapping, csv });
    expect(preview.status, preview.text).toBe(200);
    const lines = (preview.body as { lines: { key: string }[] }).lines.map((l) => ({ key: l.key }));
    const imported = await admin.client.post('/api/bookings/statements/import', { mapping, csv, lines });
    expect(imported.status, imported.text).toBe(200);

    const email = await smtp.waitForEmail({ to: thandi.email, subject: 'Receipt' });
    const text = await pdfText(email.attachments[0]!.bytes);
    expect(text).toContain('Paid on: Tue, 01 Dec 2026');
    expect(text).toContain('Method: EFT (from our bank statement)');
    expect(text).toContain(`Reference: ${booking.paymentReference}`);
    expect(text).toContain(`Total paid ${formatRand(booking.totalCents)}`);

    // The booking's history names the payment, whose receipt the student downloads.
    const mine = (await thandi.client.get('/api/bookings')).body as { bookings: Booking[] };
    const paymentId = mine.bookings.find((b) => b.id === booking.id)!.history.at(-1)!.payment!.id!;
    expect(email.subject).toContain(receiptNumber(paymentId));
    expect(await download(thandi.client, booking.id, paymentId)).toBe(text);
  });
});

describe('who may download a receipt', () => {
  let thandi: Awaited<ReturnType<typeof student>>;
  let booking: Booking;
  let paymentId: string;
  let refundId: string;
  let waiverId: string;

  beforeAll(async () => {
    thandi = await student();
    booking = await confirmedSession(thandi.client);
    const paid = await record(booking, { amountCents: 10_000 });
    paymentId = paid.paymentId;
    const refunded = await record(paid.booking, { kind: 'refund', amountCents: 2_000, note: 'Session shortened' });
    refundId = refunded.paymentId;
    const waived = await record(refunded.booking, {
      kind: 'waiver',
      method: undefined,
      amountCents: 500,
      note: 'Goodwill',
    });
    waiverId = waived.paymentId;
  });

  test('signed out: 401', async () => {
    const response = await createClient(server.url).get(receiptPath(booking.id, paymentId));
    expectApiError(response, 401, 'auth.unauthenticated');
  });

  test('another student: not found, as their booking is', async () => {
    const other = await student();
    expectApiError(await other.client.get(receiptPath(booking.id, paymentId)), 404, 'bookings.not_found');
  });

  test('the tutor of the session sees the booking but not its receipt: 403', async () => {
    expectApiError(await musa.client.get(receiptPath(booking.id, paymentId)), 403, 'auth.forbidden');
  });

  test('a tutor of another subject: not found', async () => {
    const sipho = await signInAs(server, 'tutor', { name: 'Sipho Maths', categories: ['Mathematics'] });
    expectApiError(await sipho.client.get(receiptPath(booking.id, paymentId)), 404, 'bookings.not_found');
  });

  test('a refund and a waiver have no receipt; nor has a payment of another booking, or none', async () => {
    for (const id of [refundId, waiverId, crypto.randomUUID(), 'not-a-payment', 'x'.repeat(300)])
      expectApiError(await thandi.client.get(receiptPath(booking.id, id)), 404, 'receipts.not_found');
    const other = await confirmedSession(thandi.client);
    expectApiError(await thandi.client.get(receiptPath(other.id, paymentId)), 404, 'receipts.not_found');
    expectApiError(await admin.client.get(receiptPath(other.id, paymentId)), 404, 'receipts.not_found');
    expectApiError(await admin.client.get(receiptPath(crypto.randomUUID(), paymentId)), 404, 'bookings.not_found');
  });

  test('the student, and the admin, may', async () => {
    await download(thandi.client, booking.id, paymentId);
    await download(admin.client, booking.id, paymentId);
  });
});

describe.skipIf(onFirestore)('history written before receipts (migration 0026)', () => {
  test('gets the id of the payment each entry records', async () => {
    const thandi = await student();
    const booking = await confirmedSession(thandi.client);
    const first = await record(booking, { amountCents: 5_000 });
    const second = await record(first.booking, { amountCents: 5_000, method: 'admin' });
    const refund = await record(second.booking, { kind: 'refund', amountCents: 1_000, note: 'Shortened' });
    const withIds = refund.booking.history.filter((c) => c.payment);
    expect(withIds.map((c) => c.payment!.id)).toEqual([first.paymentId, second.paymentId, refund.paymentId]);

    // As the entries were before: no ids; and the migration not yet run.
    const { db } = server.services;
    const rows = await db
      .selectFrom('booking_changes')
      .select(['id', 'payment'])
      .where('booking_id', '=', booking.id)
      .execute();
    for (const row of rows.filter((r) => r.payment)) {
      const before = JSON.parse(row.payment!) as Record<string, unknown>;
      delete before.id;
      await db
        .updateTable('booking_changes')
        .set({ payment: JSON.stringify(before) })
        .where('id', '=', row.id)
        .execute();
    }
    // Read from the storage itself: the server keeps the page of bookings it last answered (0034), and a
    // migration runs before any server does.
    const history = async () =>
      (await server.services.deps.repos.bookings.historyOf([booking.id])).flatMap((c) =>
        c.payment ? [c.payment] : [],
      );
    expect((await history()).filter((p) => p.id)).toEqual([]);
    // The migration itself, as a database that had not had it runs it (later ones have run here since).
    await migrations['0026-payment-ids-in-history']!.up(db);
    expect(await history()).toEqual(withIds.map((c) => c.payment));
  });
});

describe.runIf(onFirestore)('history written before receipts, on Firestore', () => {
  test('gets the id of the payment each entry records, once, at the start', async () => {
    const thandi = await student();
    const booking = await confirmedSession(thandi.client);
    const first = await record(booking, { amountCents: 5_000 });
    const second = await record(first.booking, { amountCents: 5_000, method: 'admin' });
    const withIds = second.booking.history.flatMap((c) => (c.payment ? [c.payment] : []));
    expect(withIds.map((p) => p.id)).toEqual([first.paymentId, second.paymentId]);

    // As the booking was before: no ids in its history; and the database not yet marked.
    const firestore = server.services.firestore!;
    const ref = firestore.collection('bookings').doc(booking.id);
    const history = (await ref.get()).get('history') as { payment?: Record<string, unknown> }[];
    await ref.update({
      history: history.map((entry) => {
        if (!entry.payment) return entry;
        const payment = { ...entry.payment };
        delete payment.id;
        return { ...entry, payment };
      }),
    });
    await firestore.doc('setup/payment-ids-in-history').delete();
    const stored = async () =>
      (await server.services.deps.repos.bookings.historyOf([booking.id])).flatMap((c) =>
        c.payment ? [c.payment] : [],
      );
    expect((await stored()).filter((p) => p.id)).toEqual([]);

    await namePaymentsInHistory(firestore);
    expect(await stored()).toEqual(withIds);
  });
});

describe('through EmailJS, with a VAT number', () => {
  let emailJsServer: TestServer;

  beforeAll(async () => {
    emailJsServer = await startTestServer({
      env: {
        EMAILJS_SERVICE_ID: 'service_tb',
        EMAILJS_TEMPLATE_ID: 'template_all',
        EMAILJS_PUBLIC_KEY: 'public-key',
        EMAILJS_PRIVATE_KEY: 'private-key',
        // Nobody answers there: the e-mail stays in the outbox, where the test reads it.
        EMAILJS_API_URL: `http://127.0.0.1:${await findClosedPort()}`,
        VAT_NUMBER: '4123 456 789',
      },
    });
  });

  afterAll(async () => {
    await emailJsServer?.close();
  });

  test('the e-mail carries no PDF and says where to download it; the receipt gives the VAT number', async () => {
    const [lerato, tutor] = await Promise.all([
      signInAs(emailJsServer, 'admin', { name: 'Lerato Admin' }),
      signInAs(emailJsServer, 'tutor', { name: 'Musa Stats', categories: ['Statistics'] }),
    ]);
    const thandi = await student(emailJsServer);
    const booking = await confirmedSession(thandi.client, tutor.client);
    const { paymentId } = await record(booking, { amountCents: booking.totalCents }, lerato.client);

    const [email] = (await storedEmails(emailJsServer.services, [thandi.email])).filter(
      (e) => e.kind === 'payment-receipt',
    );
    expect(email?.attachments).toBeNull();
    expect(email?.text).toContain(receiptMessages.onDashboard);
    expect(email?.text).not.toContain(receiptMessages.attached);

    const text = await download(thandi.client, booking.id, paymentId);
    expect(text).toContain('VAT number: 4123456789');
    expect(text).not.toContain('Not VAT registered');
  });
});
