import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  sandboxMerchant,
  startPayFastStandIn,
  type PayFastStandIn,
  type SentNotice,
} from '../../../../scripts/payfast-standin.ts';
import { bookingSchema, type Booking } from '../../../common/bookings.ts';
import { nextMonth, packageSchema, packageOfferSchema, type Package } from '../../../common/packages.ts';
import { payFastCheckoutSchema, payFastMessages, type PayFastCheckout } from '../../../common/payfast.ts';
import { bookingStanding } from '../../../common/payments.ts';
import { receiptNumber } from '../../../common/receipts.ts';
import { sastDate } from '../../../common/sast.ts';
import {
  createClient,
  createVerifiedUser,
  delay,
  expectApiError,
  logIn,
  signInAs,
  startSmtpServer,
  startTestServer,
  waitFor,
  type TestClient,
  type TestResponse,
  type TestServer,
  type TestSmtpServer,
} from '../../test/harness.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { storedEmails } from '../../test/stored.ts';

/**
 * Paying online through PayFast (issue 37 §4, docs/decisions/0057), against a stand-in of PayFast's endpoints on
 * this machine (scripts/payfast-standin.ts), which signs and checks as PayFast documents: the student's checkout is
 * posted to its payment page as a browser would, and its notices reach the server over HTTP. A paid notice marks
 * the booking or package paid once, however often it comes; a tampered, forged or replayed one changes nothing.
 */
let smtp: TestSmtpServer;
let standIn: PayFastStandIn;
let server: TestServer;
type Person = Awaited<ReturnType<typeof signInAs>>;
let admin: Person;
let musa: Person;

beforeAll(async () => {
  smtp = await startSmtpServer();
  standIn = await startPayFastStandIn(sandboxMerchant);
  server = await startTestServer({
    smtpUrl: smtp.url,
    // One proxy of ours in front: a notice's address is read from X-Forwarded-For, which a test can then set.
    trustProxy: true,
    env: {
      PAYFAST_MERCHANT_ID: sandboxMerchant.merchantId,
      PAYFAST_MERCHANT_KEY: sandboxMerchant.merchantKey,
      PAYFAST_PASSPHRASE: sandboxMerchant.passphrase,
      PAYFAST_URL: standIn.url,
    },
  });
  [admin, musa] = await Promise.all([
    signInAs(server, 'admin', { name: 'Lerato Admin' }),
    signInAs(server, 'tutor', { name: 'Musa Stats', categories: ['Statistics'] }),
  ]);
});

afterAll(async () => {
  await server?.close();
  await standIn?.close();
  await smtp?.close();
});

const day = 24 * 3_600_000;
let dates = 0;
const freshDate = () => sastDate(new Date(Date.now() + (5 + dates++) * day));

async function student(name = 'Thandi Mokoena'): Promise<{ client: TestClient; email: string; id: string }> {
  const account = await createVerifiedUser(server, { name });
  return { client: await logIn(server, account), email: account.email, id: account.id };
}

async function requested(who: TestClient): Promise<Booking> {
  const created = await who.post('/api/bookings', {
    id: crypto.randomUUID(),
    module: 'Introduction to Statistics',
    hours: 2,
    concepts: 'Hypothesis testing',
    date: freshDate(),
    slots: ['09:00', '11:00', '14:00'],
  });
  expect(created.status, created.text).toBe(201);
  return bookingSchema.parse(created.body);
}

/** A two-hour session of Statistics at 11:00, confirmed by its tutor: its total is owing. */
async function confirmedSession(who: TestClient): Promise<Booking> {
  const booking = await requested(who);
  const response = await musa.client.post(`/api/bookings/${booking.id}/confirm`, {
    slot: '11:00',
    version: booking.version,
  });
  expect(response.status, response.text).toBe(200);
  return bookingSchema.parse(response.body);
}

/** The booking as the student's own list has it now. */
async function mine(who: TestClient, id: string): Promise<Booking> {
  const response = await who.get('/api/bookings');
  expect(response.status, response.text).toBe(200);
  const found = (response.body as { bookings: unknown[] }).bookings
    .map((b) => bookingSchema.parse(b))
    .find((b) => b.id === id);
  if (!found) throw new Error(`booking ${id} not in the student's list`);
  return found;
}

async function checkout(who: TestClient, target: 'booking' | 'package', id: string): Promise<PayFastCheckout> {
  const response = await who.post('/api/payfast/checkout', { for: target, id });
  expect(response.status, response.text).toBe(200);
  return payFastCheckoutSchema.parse(response.body);
}

/** The signed fields of a checkout's PayFast address, in their order. */
const fieldsOf = (form: PayFastCheckout) => new Map(new URL(form.url).searchParams);

/**
 * The student's browser on PayFast's page: posts the checkout's form there, then presses "Complete payment" (or
 * "Cancel"); returns where PayFast sends them back, and the notice it sent (once delivered).
 */
async function atPayFast(
  form: PayFastCheckout,
  choice: 'pay' | 'cancel' = 'pay',
): Promise<{ back: string; notice?: SentNotice }> {
  const page = await fetch(form.url);
  const html = await page.text();
  expect(page.status, html).toBe(200);
  const token = /name="token" value="([0-9a-f]+)"/.exec(html)![1]!;
  const sentBefore = standIn.sent.length;
  const done = await fetch(`${standIn.url}/eng/stand-in/pay`, {
    method: 'POST',
    body: new URLSearchParams({ token, choice }),
    redirect: 'manual',
  });
  expect(done.status).toBe(303);
  const notice = standIn.sent.length > sentBefore ? standIn.sent.at(-1) : undefined;
  await notice?.delivered;
  return { back: done.headers.get('location')!, notice };
}

/** A notice posted to the server as PayFast posts it, from `from` (X-Forwarded-For) when given. */
const post = (body: string, from?: string): Promise<TestResponse> =>
  createClient(server.url).request('/api/payfast/notify', {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'https://www.payfast.co.za',
      ...(from ? { 'x-forwarded-for': from } : {}),
    },
    body,
  });

const receiptEmails = async (email: string) =>
  (await storedEmails(server.services, [email])).filter((e) => e.kind === 'payment-receipt');

describe('paying a session through PayFast', () => {
  test('the checkout asks PayFast for what is owing, signed, and brings the student back to their dashboard', async () => {
    const thandi = await student('Thandi Mokoena-Dube');
    const booking = await confirmedSession(thandi.client);
    const form = await checkout(thandi.client, 'booking', booking.id);
    expect(form.url).toMatch(new RegExp(`^${standIn.url}/eng/process\\?merchant_id=`));
    expect(form.amountCents).toBe(booking.totalCents);
    const fields = fieldsOf(form);
    expect(Object.fromEntries(fields)).toMatchObject({
      merchant_id: sandboxMerchant.merchantId,
      merchant_key: sandboxMerchant.merchantKey,
      return_url: `${server.url}/student-dashboard?payfast=paid`,
      cancel_url: `${server.url}/student-dashboard?payfast=cancelled`,
      notify_url: `${server.url}/api/payfast/notify`,
      name_first: 'Thandi',
      name_last: 'Mokoena-Dube',
      email_address: thandi.email,
      m_payment_id: booking.paymentReference,
      amount: (booking.totalCents / 100).toFixed(2),
      custom_int1: String(booking.totalCents),
      custom_str1: 'booking',
      custom_str2: booking.id,
    });
    expect(fields.get('item_name')).toMatch(/^Introduction to Statistics, .+, 11:00 SAST$/);
    expect([...fields.keys()].at(-1)).toBe('signature');

    // Changed in the browser (a lower amount), PayFast refuses the payment: its signature no longer holds.
    const refused = await fetch(form.url.replace(/amount=[\d.]+/, 'amount=1.00'));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('Signature mismatch');

    // Cancelled at PayFast: back to the dashboard, and nothing is sent or recorded.
    const cancelled = await atPayFast(form, 'cancel');
    expect(cancelled).toEqual({ back: `${server.url}/student-dashboard?payfast=cancelled`, notice: undefined });
    expect(bookingStanding(await mine(thandi.client, booking.id)).state).toBe('unpaid');
  });

  test('a paid notice marks the booking paid once, however often PayFast sends it, with its receipt e-mailed once', async () => {
    const thandi = await student();
    const booking = await confirmedSession(thandi.client);
    const { back, notice } = await atPayFast(await checkout(thandi.client, 'booking', booking.id));
    expect(back).toBe(`${server.url}/student-dashboard?payfast=paid`);
    expect(notice!.answers).toEqual([200]);
    const paymentId = `payfast-${new Map(notice!.fields).get('pf_payment_id')}`;

    const paid = await mine(thandi.client, booking.id);
    expect(bookingStanding(paid)).toMatchObject({ state: 'paid', owingCents: 0, paidCents: booking.totalCents });
    expect(paid.history.at(-1)).toMatchObject({
      by: { name: 'Thandi Mokoena', role: 'student' },
      payment: { id: paymentId, kind: 'payment', method: 'payfast', amountCents: booking.totalCents },
    });

    // PayFast repeats a notice until it gets a 200, and may send it twice at once: it is recorded once.
    expect(await Promise.all([0, 1, 2].map(() => standIn.deliver(notice!)))).toEqual([200, 200, 200]);
    expect(await standIn.deliver(notice!)).toBe(200);
    const after = await mine(thandi.client, booking.id);
    expect(after.version).toBe(paid.version);
    expect(after.history.filter((c) => c.payment)).toHaveLength(1);

    const email = await smtp.waitForEmail({ to: thandi.email, subject: `Receipt ${receiptNumber(paymentId)}` });
    const receipt = await pdfText(email.attachments[0]!.bytes);
    expect(receipt).toContain('Method: PayFast');
    expect(receipt).toContain(`Reference: ${booking.paymentReference}`);
    await delay(500);
    expect(await receiptEmails(thandi.email)).toHaveLength(1);

    // Paid, there is nothing more to check out.
    const again = await thandi.client.post('/api/payfast/checkout', { for: 'booking', id: booking.id });
    expect(expectApiError(again, 409, 'payfast.nothing_owing').message).toBe(payFastMessages.nothingOwing);
    // The admin's list of what is owing no longer holds it.
    const unpaid = await admin.client.get('/api/bookings/unpaid');
    expect(JSON.stringify(unpaid.body)).not.toContain(booking.id);
  });

  test('a tampered, forged, misdirected or unconfirmed notice is refused and changes nothing', async () => {
    const thandi = await student();
    const booking = await confirmedSession(thandi.client);
    const form = await checkout(thandi.client, 'booking', booking.id);
    const other = await confirmedSession((await student('Sipho Ndlovu')).client);

    // A genuine notice, as PayFast would send it, held back.
    const genuine = standIn.issue([...fieldsOf(form)]);
    const fields = new Map(genuine.fields);
    const changed = (name: string, value: string) =>
      genuine.fields.map(([k, v]): [string, string] => [k, k === name ? value : v]);
    const withSignature = (pairs: [string, string][], signature: string) =>
      `${new URLSearchParams(pairs).toString()}&signature=${signature}`;
    const signature = fields.get('signature') ?? /signature=([0-9a-f]+)$/.exec(genuine.body)![1]!;

    const refusals: [string, TestResponse, number, string][] = [
      // The amount, or what it pays for, changed on the way: the signature no longer holds.
      [
        'amount lowered',
        await post(withSignature(changed('amount_gross', '1.00'), signature)),
        400,
        'payfast.bad_signature',
      ],
      [
        'another booking',
        await post(withSignature(changed('custom_str2', other.id), signature)),
        400,
        'payfast.bad_signature',
      ],
      ['no signature', await post(new URLSearchParams(genuine.fields).toString()), 400, 'payfast.bad_signature'],
      // Signed by someone guessing the passphrase.
      ['forged', await post(standIn.forge(changed('amount_gross', '1.00'), 'guessed')), 400, 'payfast.bad_signature'],
      // Signed with the right passphrase (leaked), but PayFast never sent it: its confirmation says INVALID.
      [
        'never sent by PayFast',
        await post(standIn.forge(changed('pf_payment_id', '99'), sandboxMerchant.passphrase)),
        400,
        'payfast.not_confirmed',
      ],
      // PayFast's own notices that do not fit: another merchant's, or less paid than asked.
      [
        'another merchant',
        await post(standIn.issue([...fieldsOf(form)], { merchant_id: '10000999' }).body),
        400,
        'payfast.wrong_merchant',
      ],
      [
        'less paid than asked',
        await post(standIn.issue([...fieldsOf(form)], { amount_gross: '1.00' }).body),
        400,
        'payfast.amount_mismatch',
      ],
      [
        'says not what it pays',
        await post(standIn.issue([...fieldsOf(form)], { custom_str1: '' }).body),
        400,
        'payfast.bad_notice',
      ],
      // The genuine notice, from an address that is not PayFast's.
      ['from elsewhere', await post(genuine.body, '203.0.113.9'), 403, 'payfast.bad_source'],
    ];
    for (const [what, response, status, code] of refusals) {
      expect(response.status, `${what}: ${response.text}`).toBe(status);
      expect((response.body as { error: { code: string } }).error.code, what).toBe(code);
    }
    const json = await createClient(server.url).post('/api/payfast/notify', Object.fromEntries(genuine.fields));
    expectApiError(json, 400, 'request.unsupported_content_type');

    const untouched = await mine(thandi.client, booking.id);
    expect(untouched.version).toBe(booking.version);
    expect(bookingStanding(untouched).state).toBe('unpaid');
    expect(bookingStanding(await mine(admin.client, other.id)).state).toBe('unpaid');
    expect(await receiptEmails(thandi.email)).toEqual([]);

    // A payment PayFast reports as cancelled is answered (so PayFast stops) and records nothing.
    const cancelled = await post(standIn.issue([...fieldsOf(form)], { payment_status: 'CANCELLED' }).body);
    expect([cancelled.status, cancelled.text]).toEqual([200, 'OK']);
    expect((await mine(thandi.client, booking.id)).version).toBe(booking.version);

    // The genuine notice itself still pays, once; replayed later it records nothing more.
    expect((await post(genuine.body)).status).toBe(200);
    expect(bookingStanding(await mine(thandi.client, booking.id)).state).toBe('paid');
    const replayed = await post(genuine.body);
    expect([replayed.status, replayed.text]).toEqual([200, 'OK']);
    expect((await mine(thandi.client, booking.id)).history.filter((c) => c.payment)).toHaveLength(1);
  });

  test('the checkout is for the student’s own money owing: refusals', async () => {
    const thandi = await student();
    const sipho = await student('Sipho Ndlovu');
    const booking = await confirmedSession(thandi.client);
    const pending = await requested(thandi.client);

    expectApiError(
      await createClient(server.url).post('/api/payfast/checkout', { for: 'booking', id: booking.id }),
      401,
      'auth.unauthenticated',
    );
    // Another student, the tutor, the admin: nobody else pays through this student's checkout, nor learns it exists.
    for (const who of [sipho.client, musa.client, admin.client])
      expect(
        expectApiError(
          await who.post('/api/payfast/checkout', { for: 'booking', id: booking.id }),
          404,
          'payfast.not_found',
        ).message,
      ).toBe(payFastMessages.notFound);
    expectApiError(
      await thandi.client.post('/api/payfast/checkout', { for: 'package', id: booking.id }),
      404,
      'payfast.not_found',
    );
    expectApiError(
      await thandi.client.post('/api/payfast/checkout', { for: 'booking', id: crypto.randomUUID() }),
      404,
      'payfast.not_found',
    );
    // A request not yet confirmed owes nothing yet.
    expectApiError(
      await thandi.client.post('/api/payfast/checkout', { for: 'booking', id: pending.id }),
      409,
      'payfast.nothing_owing',
    );
    expectApiError(
      await thandi.client.post('/api/payfast/checkout', { for: 'lesson', id: booking.id }),
      400,
      'request.invalid',
    );
    expectApiError(
      await thandi.client.post(
        '/api/payfast/checkout',
        { for: 'booking', id: booking.id },
        { headers: { origin: 'https://evil.example' } },
      ),
      403,
      'request.invalid_origin',
    );
  });
});

describe('paying a monthly package through PayFast', () => {
  test('the package’s price is asked under its reference, and the paid notice pays the package once', async () => {
    const offered = await admin.client.post('/api/packages/offers', {
      id: crypto.randomUUID(),
      name: '4 hours of Statistics',
      category: 'Statistics',
      hours: 4,
      priceCents: 60_000,
    });
    expect(offered.status, offered.text).toBe(201);
    const thandi = await student();
    const bought = await thandi.client.post('/api/packages', {
      id: crypto.randomUUID(),
      offerId: packageOfferSchema.parse(offered.body).id,
      month: nextMonth(sastDate(new Date()).slice(0, 7)),
    });
    expect(bought.status, bought.text).toBe(201);
    const pkg = packageSchema.parse(bought.body);
    expectApiError(
      await (await student('Sipho Ndlovu')).client.post('/api/payfast/checkout', { for: 'package', id: pkg.id }),
      404,
      'payfast.not_found',
    );

    const form = await checkout(thandi.client, 'package', pkg.id);
    expect(Object.fromEntries(fieldsOf(form))).toMatchObject({
      m_payment_id: pkg.paymentReference,
      amount: '600.00',
      custom_str1: 'package',
      custom_str2: pkg.id,
    });
    const { notice } = await atPayFast(form);
    expect(notice!.answers).toEqual([200]);
    expect(await standIn.deliver(notice!)).toBe(200);

    const packages = async (): Promise<Package[]> =>
      ((await thandi.client.get('/api/packages')).body as { packages: unknown[] }).packages.map((p) =>
        packageSchema.parse(p),
      );
    const [paid] = await packages();
    expect(paid!.payments).toEqual({ paidCents: 60_000, refundedCents: 0, waivedCents: 0 });
    expect(paid!.recordedPayments).toHaveLength(1);
    expect(paid!.recordedPayments[0]!.id).toBe(`payfast-${new Map(notice!.fields).get('pf_payment_id')}`);
    const email = await waitFor(async () => (await receiptEmails(thandi.email))[0], 'the package receipt');
    expect(email.subject).toContain(receiptNumber(paid!.recordedPayments[0]!.id));
    expectApiError(
      await thandi.client.post('/api/payfast/checkout', { for: 'package', id: pkg.id }),
      409,
      'payfast.nothing_owing',
    );
  });
});
