import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingSchema, type Booking } from '../../../common/bookings.ts';
import { bookingStanding, paymentMessages } from '../../../common/payments.ts';
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
 * Money recorded against a booking (issue 37 §1): the admin records a payment, a refund or a waiver; the booking
 * keeps the sums, says where it stands, and its history says who recorded what. Only the admin records money;
 * a double click records once; bad input is refused with the field's message and records nothing.
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
const today = () => sastDate(new Date());

async function student(): Promise<TestClient> {
  return logIn(server, await createVerifiedUser(server, { name: 'Thandi Mokoena' }));
}

/** A two-hour session, confirmed by its tutor. */
async function confirmedSession(who: TestClient): Promise<Booking> {
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
  const response = await musa.client.post(`/api/bookings/${booking.id}/confirm`, {
    slot: '11:00',
    version: booking.version,
  });
  expect(response.status, response.text).toBe(200);
  return bookingSchema.parse(response.body);
}

/** The booking as `client` reads it in their list (the newest 50 are enough in this file's server). */
async function readAs(client: TestClient, id: string): Promise<Booking> {
  const response = await client.get('/api/bookings');
  expect(response.status, response.text).toBe(200);
  const found = (response.body as { bookings: unknown[] }).bookings
    .map((b) => bookingSchema.parse(b))
    .find((b) => b.id === id);
  expect(found, `booking ${id}`).toBeDefined();
  return found!;
}

const record = (client: TestClient, booking: Pick<Booking, 'id' | 'version'>, fields: Record<string, unknown>) =>
  client.post(`/api/bookings/${booking.id}/payments`, {
    id: crypto.randomUUID(),
    kind: 'payment',
    method: 'eft',
    paidOn: today(),
    version: booking.version,
    ...fields,
  });

describe('the admin records money against a booking', () => {
  test('part of it, then the rest: part-paid, then paid; the history says who recorded what', async () => {
    const thandi = await student();
    const booking = await confirmedSession(thandi);
    expect(bookingStanding(booking)).toMatchObject({ state: 'unpaid', owingCents: booking.totalCents });

    const half = Math.floor(booking.totalCents / 2);
    expect(half).toBeGreaterThan(0);
    const first = await record(admin.client, booking, { amountCents: half });
    expect(first.status, first.text).toBe(200);
    const part = bookingSchema.parse(first.body);
    expect(part.version).toBeGreaterThan(booking.version);
    expect(bookingStanding(part)).toMatchObject({ state: 'part-paid', owingCents: booking.totalCents - half });
    expect(part.history.at(-1)).toMatchObject({
      by: { name: 'Lerato Admin', role: 'admin' },
      from: 'Confirmed',
      to: 'Confirmed',
      payment: { kind: 'payment', method: 'eft', amountCents: half },
    });

    const second = await record(admin.client, part, { amountCents: booking.totalCents - half, method: 'admin' });
    expect(second.status, second.text).toBe(200);
    const paid = bookingSchema.parse(second.body);
    expect(bookingStanding(paid)).toMatchObject({ state: 'paid', owingCents: 0 });

    // The student and the tutor see the same standing on their own reads.
    expect((await readAs(thandi, booking.id)).payments).toEqual(paid.payments);
    expect((await readAs(musa.client, booking.id)).payments).toEqual(paid.payments);
    expect(paid.payments).toEqual({ paidCents: booking.totalCents, refundedCents: 0, waivedCents: 0 });
  });

  test('a refund gives back at most what was paid; a waiver lets go at most what is owing, with a reason', async () => {
    const booking = await confirmedSession(await student());
    expectApiError(
      await record(admin.client, booking, { kind: 'refund', amountCents: 100, note: 'Paid twice' }),
      400,
      'payments.refund_too_much',
    );
    const noReason = await record(admin.client, booking, { kind: 'waiver', method: undefined, amountCents: 100 });
    expectApiError(noReason, 400, 'request.invalid');
    expect(JSON.stringify(noReason.body)).toContain(paymentMessages.reasonRequired);
    const tooMuch = await record(admin.client, booking, {
      kind: 'waiver',
      method: undefined,
      amountCents: booking.totalCents + 1,
      note: 'Goodwill',
    });
    expectApiError(tooMuch, 400, 'payments.waive_too_much');
    expect(JSON.stringify(tooMuch.body)).toContain(paymentMessages.waiveTooMuch(booking.totalCents));

    const waived = await record(admin.client, booking, {
      kind: 'waiver',
      method: undefined,
      amountCents: booking.totalCents,
      note: 'Goodwill: the venue was closed',
    });
    expect(waived.status, waived.text).toBe(200);
    expect(bookingStanding(bookingSchema.parse(waived.body)).state).toBe('waived');
  });

  test('paid, then refunded whole: refunded', async () => {
    const booking = await confirmedSession(await student());
    const paid = bookingSchema.parse((await record(admin.client, booking, { amountCents: booking.totalCents })).body);
    const refunded = await record(admin.client, paid, {
      kind: 'refund',
      amountCents: booking.totalCents,
      note: 'The tutor was ill',
    });
    expect(refunded.status, refunded.text).toBe(200);
    expect(bookingStanding(bookingSchema.parse(refunded.body))).toMatchObject({ state: 'refunded', paidCents: 0 });
  });

  test('sent twice with the same id, recorded once; a double click (two ids, one version) records once', async () => {
    const booking = await confirmedSession(await student());
    const id = crypto.randomUUID();
    const [a, b] = [
      await record(admin.client, booking, { id, amountCents: 100_00 }),
      await record(admin.client, booking, { id, amountCents: 100_00 }),
    ];
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(bookingSchema.parse(b.body).payments?.paidCents).toBe(100_00);
    expectApiError(await record(admin.client, booking, { id, amountCents: 50_00 }), 409, 'payments.id_reused');

    const fresh = bookingSchema.parse(b.body);
    const clicks = await Promise.all([
      record(admin.client, fresh, { amountCents: 100_00 }),
      record(admin.client, fresh, { amountCents: 100_00 }),
    ]);
    expect(clicks.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await readAs(admin.client, booking.id)).payments?.paidCents).toBe(200_00);
  });

  test('the student’s data export lists the money recorded against their bookings, not who recorded it', async () => {
    const thandi = await student();
    const booking = await confirmedSession(thandi);
    const id = crypto.randomUUID();
    expect((await record(admin.client, booking, { id, amountCents: booking.totalCents })).status).toBe(200);
    const exported = (await thandi.get('/api/me/export')).body as { payments: Record<string, unknown>[] };
    expect(exported.payments).toEqual([
      {
        id,
        kind: 'payment',
        method: 'eft',
        amountCents: booking.totalCents,
        paidOn: today(),
        reference: booking.paymentReference,
        note: '',
        bookings: [{ bookingId: booking.id, amountCents: booking.totalCents }],
      },
    ]);
    expect(JSON.stringify(exported.payments)).not.toContain('Lerato Admin');
  });

  test('money recorded after a student asks to move the session does not hide the ask: the old time can be kept', async () => {
    const thandi = await student();
    const booking = await confirmedSession(thandi);
    const moved = await thandi.post(`/api/bookings/${booking.id}/reschedule`, {
      date: freshDate(),
      slots: ['08:00', '10:00', '12:00'],
      version: booking.version,
    });
    expect(moved.status, moved.text).toBe(200);
    const asked = bookingSchema.parse(moved.body);
    const paid = await record(admin.client, asked, { amountCents: booking.totalCents });
    expect(paid.status, paid.text).toBe(200);
    const kept = await musa.client.post(`/api/bookings/${booking.id}/keep-time`, {
      version: bookingSchema.parse(paid.body).version,
    });
    expect(kept.status, kept.text).toBe(200);
    expect(bookingSchema.parse(kept.body)).toMatchObject({
      status: 'Confirmed',
      confirmedSlot: '11:00',
      date: booking.date,
    });
  });

  test('refused: a student, a tutor, no session; an unknown booking; a stale version; bad fields', async () => {
    const thandi = await student();
    const booking = await confirmedSession(thandi);
    expectApiError(await record(thandi, booking, { amountCents: 100 }), 403, 'auth.forbidden');
    expectApiError(await record(musa.client, booking, { amountCents: 100 }), 403, 'auth.forbidden');
    expectApiError(await record(createClient(server.url), booking, { amountCents: 100 }), 401, 'auth.unauthenticated');
    expectApiError(
      await record(admin.client, { id: crypto.randomUUID(), version: 1 }, { amountCents: 100 }),
      404,
      'bookings.not_found',
    );
    expectApiError(
      await record(admin.client, { ...booking, version: booking.version - 1 }, { amountCents: 100 }),
      409,
      'bookings.changed',
    );
    for (const [fields, message] of [
      [{ amountCents: 0 }, paymentMessages.amountInvalid],
      [{ amountCents: 12.5 }, paymentMessages.amountInvalid],
      [{ amountCents: 100, paidOn: '2026-02-30' }, paymentMessages.dateInvalid],
      [{ amountCents: 100, method: undefined }, paymentMessages.methodRequired],
      [{ amountCents: 100, method: 'statement' }, paymentMessages.methodRequired],
    ] as const) {
      const response = await record(admin.client, booking, fields);
      expectApiError(response, 400, 'request.invalid');
      expect(JSON.stringify(response.body), JSON.stringify(fields)).toContain(message);
    }
    expectApiError(
      await record(admin.client, booking, { amountCents: 100, paidOn: sastDate(new Date(Date.now() + 2 * day)) }),
      400,
      'payments.date_ahead',
    );
    // Nothing of it was recorded.
    const after = await readAs(admin.client, booking.id);
    expect(after.version).toBe(booking.version);
    expect(after.payments).toBeUndefined();
  });
});

describe('what is owing, for the admin', () => {
  test('every booking with money owing, oldest session first; paid and pending ones are not listed', async () => {
    const thandi = await student();
    // Dates are handed out later and later (freshDate): the first confirmed has the sooner session.
    const sooner = await confirmedSession(thandi);
    const later = await confirmedSession(thandi);
    const paid = await confirmedSession(thandi);
    expect((await record(admin.client, paid, { amountCents: paid.totalCents })).status).toBe(200);
    const response = await admin.client.get('/api/bookings/unpaid');
    expect(response.status, response.text).toBe(200);
    const { bookings } = response.body as { bookings: { booking: Booking; owingCents: number; reference: string }[] };
    const ids = bookings.map((b) => b.booking.id);
    expect(ids).not.toContain(paid.id);
    expect(ids).toContain(sooner.id);
    expect(ids.indexOf(sooner.id)).toBeLessThan(ids.indexOf(later.id));
    expect(bookings.find((b) => b.booking.id === later.id)).toMatchObject({
      owingCents: later.totalCents,
      reference: later.paymentReference,
    });
    expectApiError(await thandi.get('/api/bookings/unpaid'), 403, 'auth.forbidden');
    expectApiError(await musa.client.get('/api/bookings/unpaid'), 403, 'auth.forbidden');
  });

  test('a reminder of what is owing goes to the student once per booking as it stands; none when nothing is owing', async () => {
    const thandi = await student();
    const booking = await confirmedSession(thandi);
    const remind = (client: TestClient, version = booking.version) =>
      client.post(`/api/bookings/${booking.id}/payment-reminder`, { version });
    const clicks = await Promise.all([remind(admin.client), remind(admin.client)]);
    expect(clicks.map((r) => r.status).sort()).toEqual([202, 409]);
    const exported = (await thandi.get('/api/me/export')).body as { emails: { kind: string; subject: string }[] };
    expect(exported.emails.filter((e) => e.kind === 'payment-reminder')).toHaveLength(1);
    expectApiError(await remind(thandi), 403, 'auth.forbidden');
    expectApiError(await remind(admin.client, booking.version - 1), 409, 'bookings.changed');
    // The reminder gave the booking a new version: the devices read it again.
    const reminded = await readAs(admin.client, booking.id);
    expect(reminded.version).toBeGreaterThan(booking.version);
    const paid = bookingSchema.parse((await record(admin.client, reminded, { amountCents: booking.totalCents })).body);
    expectApiError(await remind(admin.client, paid.version), 409, 'payments.nothing_owing');
  });
});
