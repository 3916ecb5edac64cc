import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingSchema, type Booking } from '../../../common/bookings.ts';
import { figuresSchema, weeksOf } from '../../../common/figures.ts';
import { nextMonth, packageSchema } from '../../../common/packages.ts';
import { sastDate } from '../../../common/sast.ts';
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
 * The admin's figures (issue 37 §4): money in per week, what is unpaid per month and hours per tutor, read from the
 * payments and the sessions; the month's money as CSV for the accountant, a cell that would be a formula written
 * as text. Only the admin reads them.
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

const today = () => sastDate(new Date());
const thisMonth = () => today().slice(0, 7);
/** Sessions in next month: every day of it is still to come, past the lead time. */
const sessionMonth = () => nextMonth(thisMonth());

async function session(who: TestClient, day: number, hours: number): Promise<Booking> {
  const created = await who.post('/api/bookings', {
    id: crypto.randomUUID(),
    module: 'Introduction to Statistics',
    hours,
    concepts: 'Regression',
    date: `${sessionMonth()}-${String(day).padStart(2, '0')}`,
    slots: ['09:00', '12:00', '15:00'],
  });
  expect(created.status, created.text).toBe(201);
  const booking = bookingSchema.parse(created.body);
  const confirmed = await musa.client.post(`/api/bookings/${booking.id}/confirm`, {
    slot: '09:00',
    version: booking.version,
  });
  expect(confirmed.status, confirmed.text).toBe(200);
  return bookingSchema.parse(confirmed.body);
}

const pay = (booking: Booking, amountCents: number) =>
  admin.client.post(`/api/bookings/${booking.id}/payments`, {
    id: crypto.randomUUID(),
    kind: 'payment',
    method: 'eft',
    amountCents,
    paidOn: today(),
    version: booking.version,
  });

async function figures(month: string) {
  const response = await admin.client.get(`/api/bookings/figures?month=${month}`);
  expect(response.status, response.text).toBe(200);
  return figuresSchema.parse(response.body);
}

describe('the admin’s figures', () => {
  test('money in this week, what is unpaid in the sessions’ month, and hours per tutor', async () => {
    const before = await figures(thisMonth());
    const beforeNext = await figures(sessionMonth());
    const student = await logIn(server, await createVerifiedUser(server, { name: '=HYPERLINK("x")' }));
    const paid = await session(student, 3, 2);
    const unpaid = await session(student, 4, 1);
    expect((await pay(paid, paid.totalCents)).status).toBe(200);

    const now = await figures(thisMonth());
    const week = weeksOf(thisMonth()).findIndex((w) => w.from <= today() && today() <= w.to);
    expect(now.weeks[week]!.inCents - before.weeks[week]!.inCents).toBe(paid.totalCents);
    expect(now.weeks).toHaveLength(weeksOf(thisMonth()).length);

    const next = await figures(sessionMonth());
    const owing = (f: typeof next) => f.unpaid.find((u) => u.month === sessionMonth())!;
    expect(owing(next).owingCents - owing(beforeNext).owingCents).toBe(unpaid.totalCents);
    expect(owing(next).sessions - owing(beforeNext).sessions).toBe(1);
    const hours = (f: typeof next) => f.tutors.find((t) => t.name === 'Musa Stats')?.hours ?? 0;
    expect(hours(next) - hours(beforeNext)).toBe(3);
  });

  test('the month’s money as CSV: one row a payment, what it paid, a formula written as text', async () => {
    const student = await logIn(server, await createVerifiedUser(server, { name: '=HYPERLINK("x")' }));
    const booking = await session(student, 5, 1);
    expect((await pay(booking, 5_000)).status).toBe(200);
    // A package's payment names the package.
    const offer = await admin.client.post('/api/packages/offers', {
      id: crypto.randomUUID(),
      name: '4 hours of Statistics',
      category: 'Statistics',
      hours: 4,
      priceCents: 60_000,
    });
    expect(offer.status, offer.text).toBe(201);
    const bought = await student.post('/api/packages', {
      id: crypto.randomUUID(),
      offerId: (offer.body as { id: string }).id,
      month: sessionMonth(),
    });
    const pkg = packageSchema.parse(bought.body);
    const paidPackage = await admin.client.post(`/api/packages/${pkg.id}/payments`, {
      id: crypto.randomUUID(),
      kind: 'payment',
      method: 'admin',
      amountCents: 60_000,
      paidOn: today(),
    });
    expect(paidPackage.status, paidPackage.text).toBe(200);

    const response = await admin.client.get(`/api/bookings/figures/payments.csv?month=${thisMonth()}`);
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="payments-${thisMonth()}.csv"`);
    const rows = parse(response.text, { columns: true }) as Record<string, string>[];
    const forSession = rows.find((r) => r.Reference === booking.paymentReference)!;
    expect(forSession).toMatchObject({
      Date: today(),
      Kind: 'payment',
      Method: 'EFT',
      'Amount (R)': '50.00',
      Student: `'=HYPERLINK("x")`,
      'Recorded by': 'Lerato Admin',
    });
    expect(forSession.For).toContain(`Introduction to Statistics, ${booking.date} (${booking.paymentReference})`);
    const forPackage = rows.find((r) => r.Reference === pkg.paymentReference)!;
    expect(forPackage).toMatchObject({ 'Amount (R)': '600.00', Method: 'By hand (cash or card)' });
    expect(forPackage.For).toContain('Package: 4 hours of Statistics');
  });

  test('only the admin reads them; a month that is not one is refused', async () => {
    const month = thisMonth();
    for (const path of [`/api/bookings/figures?month=${month}`, `/api/bookings/figures/payments.csv?month=${month}`]) {
      expectApiError(await createClient(server.url).get(path), 401, 'auth.unauthenticated');
      expectApiError(await musa.client.get(path), 403, 'auth.forbidden');
      const student = await logIn(server, await createVerifiedUser(server));
      expectApiError(await student.get(path), 403, 'auth.forbidden');
    }
    expectApiError(await admin.client.get('/api/bookings/figures?month=2026-13'), 400, 'request.invalid');
    expectApiError(await admin.client.get('/api/bookings/figures'), 400, 'request.invalid');
  });
});
