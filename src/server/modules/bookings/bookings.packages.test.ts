import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingSchema, type Booking } from '../../../common/bookings.ts';
import { formatRand } from '../../../common/money.ts';
import { noticeListSchema } from '../../../common/notices.ts';
import {
  formatMonth,
  nextMonth,
  packageMessages,
  packageOfferSchema,
  packageSchema,
  type Package,
} from '../../../common/packages.ts';
import { bookingStanding } from '../../../common/payments.ts';
import { packageReceiptPath, receiptMessages, receiptNumber } from '../../../common/receipts.ts';
import { formatSastDate, sastDate } from '../../../common/sast.ts';
import {
  createClient,
  createVerifiedUser,
  delay,
  expectApiError,
  findClosedPort,
  logIn,
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
 * Monthly packages (issue 37 §3): the admin offers one, a student buys it for a month and gets its reference, the
 * admin records its payment, and the student's confirmed sessions in its category draw their hours from it, in
 * the confirmation's transaction: never the same last hour twice. Every refusal is tested.
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

const today = () => sastDate(new Date());
/**
 * The packages are bought for next month, and the sessions dated in it: whatever day the tests run on, its days
 * are all still to come, past the lead time.
 */
const packageMonth = () => nextMonth(today().slice(0, 7));
let dates = 0;
const freshDate = () => `${packageMonth()}-${String(1 + (dates++ % 28)).padStart(2, '0')}`;

async function student(): Promise<TestClient> {
  return logIn(server, await createVerifiedUser(server, { name: 'Thandi Mokoena' }));
}

async function offer(fields: Record<string, unknown> = {}) {
  const response = await admin.client.post('/api/packages/offers', {
    id: crypto.randomUUID(),
    name: '4 hours of Statistics',
    category: 'Statistics',
    hours: 4,
    priceCents: 60_000,
    ...fields,
  });
  expect(response.status, response.text).toBe(201);
  return packageOfferSchema.parse(response.body);
}

async function buy(who: TestClient, offerId: string, month = packageMonth()): Promise<Package> {
  const response = await who.post('/api/packages', { id: crypto.randomUUID(), offerId, month });
  expect(response.status, response.text).toBe(201);
  return packageSchema.parse(response.body);
}

async function pay(pkg: Package, amountCents = pkg.priceCents, fields: Record<string, unknown> = {}): Promise<Package> {
  const response = await admin.client.post(`/api/packages/${pkg.id}/payments`, {
    id: crypto.randomUUID(),
    kind: 'payment',
    method: 'eft',
    amountCents,
    paidOn: today(),
    ...fields,
  });
  expect(response.status, response.text).toBe(200);
  return packageSchema.parse(response.body);
}

async function request(who: TestClient, hours: number, date: string): Promise<Booking> {
  const created = await who.post('/api/bookings', {
    id: crypto.randomUUID(),
    module: 'Introduction to Statistics',
    hours,
    concepts: 'Hypothesis testing',
    date,
    slots: ['09:00', '12:00', '15:00'],
  });
  expect(created.status, created.text).toBe(201);
  return bookingSchema.parse(created.body);
}

async function confirm(booking: Booking, slot = '09:00') {
  return musa.client.post(`/api/bookings/${booking.id}/confirm`, { slot, version: booking.version });
}

async function confirmed(booking: Booking, slot = '09:00'): Promise<Booking> {
  const response = await confirm(booking, slot);
  expect(response.status, response.text).toBe(200);
  return bookingSchema.parse(response.body);
}

async function mine(who: TestClient): Promise<Package[]> {
  const response = await who.get('/api/packages');
  expect(response.status, response.text).toBe(200);
  return (response.body as { packages: unknown[] }).packages.map((p) => packageSchema.parse(p));
}

describe('the admin offers packages', () => {
  test('an offer is listed for anyone; one no longer offered only for the admin', async () => {
    const kept = await offer({ name: '10 hours of Statistics', hours: 10, priceCents: 80_000 });
    const retired = await offer({ name: 'Old package' });
    const changed = await admin.client.post('/api/packages/offers', {
      ...retired,
      active: false,
      updatedAt: undefined,
    });
    expect(changed.status, changed.text).toBe(200);

    const visitor = await createClient(server.url).get('/api/packages/offers');
    expect(visitor.status).toBe(200);
    const names = (visitor.body as { offers: { id: string }[] }).offers.map((o) => o.id);
    expect(names).toContain(kept.id);
    expect(names).not.toContain(retired.id);
    const all = await admin.client.get('/api/packages/offers');
    expect((all.body as { offers: { id: string }[] }).offers.map((o) => o.id)).toContain(retired.id);
  });

  test('only the admin offers; bad input is refused with the field’s message', async () => {
    const body = { id: crypto.randomUUID(), name: 'X', category: 'Statistics', hours: 4, priceCents: 100 };
    expect((await createClient(server.url).post('/api/packages/offers', body)).status).toBe(401);
    expect((await musa.client.post('/api/packages/offers', body)).status).toBe(403);
    expect((await (await student()).post('/api/packages/offers', body)).status).toBe(403);
    const noHours = expectApiError(
      await admin.client.post('/api/packages/offers', { ...body, hours: 0 }),
      400,
      'request.invalid',
    );
    expect(noHours.fields).toEqual({ hours: packageMessages.hoursInvalid });
    const noPrice = expectApiError(
      await admin.client.post('/api/packages/offers', { ...body, priceCents: 0 }),
      400,
      'request.invalid',
    );
    expect(noPrice.fields).toEqual({ priceCents: packageMessages.priceInvalid });
    const otherModule = expectApiError(
      await admin.client.post('/api/packages/offers', {
        ...body,
        moduleName: 'Introduction to Statistics',
        category: 'Mathematics',
      }),
      400,
      'packages.module_not_of_category',
    );
    expect(otherModule.fields).toEqual({ moduleName: packageMessages.moduleNotOfCategory });
  });
});

describe('a student buys a package and pays it', () => {
  test('it waits for its money under its own reference; the same buy sent again is the same package', async () => {
    const thandi = await student();
    const { id: offerId } = await offer();
    const id = crypto.randomUUID();
    const first = await thandi.post('/api/packages', { id, offerId, month: packageMonth() });
    expect(first.status, first.text).toBe(201);
    const pkg = packageSchema.parse(first.body);
    expect(pkg.paymentReference).toMatch(/^TB-[A-HJKMNP-Z2-9]{6}-P$/);
    expect(pkg).toMatchObject({
      minutes: 240,
      usedMinutes: 0,
      month: packageMonth(),
      student: { name: 'Thandi Mokoena' },
    });
    const again = await thandi.post('/api/packages', { id, offerId, month: packageMonth() });
    expect(again.status).toBe(200);
    expect(packageSchema.parse(again.body).paymentReference).toBe(pkg.paymentReference);
    expect((await mine(thandi)).map((p) => p.id)).toEqual([pkg.id]);
    // Sent again once it is paid (the first answer lost), the answer has the payment too, as the list has.
    const paid = await pay(pkg);
    const afterPaid = await thandi.post('/api/packages', { id, offerId, month: packageMonth() });
    expect(afterPaid.status).toBe(200);
    expect(packageSchema.parse(afterPaid.body).recordedPayments).toEqual(paid.recordedPayments);
    expect(paid.recordedPayments).toHaveLength(1);
    // Another student sees none of it; the admin sees it.
    expect(await mine(await student())).toEqual([]);
    expect((await mine(admin.client)).map((p) => p.id)).toContain(pkg.id);
  });

  test('refusals: signed out, an unknown offer, a month past, someone else’s id, money by anyone but the admin', async () => {
    const thandi = await student();
    const { id: offerId } = await offer();
    expect(
      (
        await createClient(server.url).post('/api/packages', {
          id: crypto.randomUUID(),
          offerId,
          month: packageMonth(),
        })
      ).status,
    ).toBe(401);
    expect((await createClient(server.url).get('/api/packages')).status).toBe(401);
    const unknown = expectApiError(
      await thandi.post('/api/packages', { id: crypto.randomUUID(), offerId: 'nope', month: packageMonth() }),
      404,
      'packages.offer_not_found',
    );
    expect(unknown.message).toBe(packageMessages.offerNotFound);
    const past = expectApiError(
      await thandi.post('/api/packages', { id: crypto.randomUUID(), offerId, month: '2020-01' }),
      400,
      'packages.month_invalid',
    );
    expect(past.fields).toEqual({ month: packageMessages.monthInvalid });
    const pkg = await buy(thandi, offerId);
    expect((await (await student()).post('/api/packages', { id: pkg.id, offerId, month: packageMonth() })).status).toBe(
      409,
    );
    // Three waiting for their money at most; one paid, another may be bought.
    await buy(thandi, offerId);
    await buy(thandi, offerId);
    const fourth = expectApiError(
      await thandi.post('/api/packages', { id: crypto.randomUUID(), offerId, month: packageMonth() }),
      409,
      'packages.too_many_waiting',
    );
    expect(fourth.message).toBe(packageMessages.tooManyWaiting);
    await pay(pkg);
    await buy(thandi, offerId);
    const payment = { id: crypto.randomUUID(), kind: 'payment', method: 'eft', amountCents: 100, paidOn: today() };
    expect((await thandi.post(`/api/packages/${pkg.id}/payments`, payment)).status).toBe(403);
    expect((await musa.client.post(`/api/packages/${pkg.id}/payments`, payment)).status).toBe(403);
    expect((await admin.client.post(`/api/packages/nope/payments`, payment)).status).toBe(404);
  });

  test('paid in part it draws nothing; paid in full, a confirmed session draws its hours and owes no money', async () => {
    const thandi = await student();
    const pkg = await buy(thandi, (await offer()).id);
    const part = await pay(pkg, 10_000);
    const unpaidDraw = await confirmed(await request(thandi, 1, freshDate()));
    expect(unpaidDraw.package ?? null).toBeNull();
    expect(bookingStanding(unpaidDraw).owingCents).toBe(unpaidDraw.totalCents);

    const paid = await pay(part, pkg.priceCents - 10_000);
    expect(paid.payments.paidCents).toBe(pkg.priceCents);
    const session = await confirmed(await request(thandi, 2, freshDate()));
    expect(session.package).toMatchObject({ id: pkg.id, coveredMinutes: 120, countedMinutes: 120, leftMinutes: 120 });
    expect(bookingStanding(session)).toMatchObject({ owingCents: 0 });
    expect((await mine(thandi))[0]).toMatchObject({ usedMinutes: 120 });
  });
});

describe('a package’s receipts', () => {
  /** The receipt's text, downloaded by `who`, after checking it is a PDF offered as a file. */
  async function download(who: TestClient, packageId: string, paymentId: string): Promise<string> {
    const response = await who.get(packageReceiptPath(packageId, paymentId));
    expect(response.status, response.text.slice(0, 300)).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="tutorbook-receipt-${receiptNumber(paymentId)}.pdf"`,
    );
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(isPdf(response.bytes)).toBe(true);
    return pdfText(response.bytes);
  }

  test('each payment is e-mailed with its PDF, once, listed on the package, and downloaded the same', async () => {
    const account = await createVerifiedUser(server, { name: 'Thandi Mokoena' });
    const thandi = await logIn(server, account);
    const pkg = await buy(thandi, (await offer({ name: '6 hours of Statistics', hours: 6 })).id);
    const first = crypto.randomUUID();
    await pay(pkg, 20_000, { id: first });
    // Sent again (its answer lost): recorded and e-mailed once.
    await pay(pkg, 20_000, { id: first });
    const second = crypto.randomUUID();
    const paid = await pay(pkg, pkg.priceCents - 20_000, { id: second, method: 'admin' });
    expect(paid.recordedPayments).toEqual([
      { id: first, kind: 'payment', amountCents: 20_000, paidOn: today() },
      { id: second, kind: 'payment', amountCents: pkg.priceCents - 20_000, paidOn: today() },
    ]);
    expect((await mine(thandi))[0]?.recordedPayments.map((p) => p.id)).toEqual([first, second]);

    const title = `6 hours of Statistics, ${formatMonth(pkg.month)}`;
    const email = await smtp.waitForEmail({ to: account.email, subject: `Receipt ${receiptNumber(first)}` });
    expect(email.subject).toBe(`Receipt ${receiptNumber(first)}: ${formatRand(20_000)} for your package ${title}`);
    expect(email.text).toContain(receiptMessages.attached);
    expect(email.text).toContain(`Still to pay: ${formatRand(pkg.priceCents - 20_000)}`);
    expect(email.attachments).toHaveLength(1);
    expect(email.attachments[0]).toMatchObject({
      filename: `tutorbook-receipt-${receiptNumber(first)}.pdf`,
      contentType: 'application/pdf',
    });
    const attached = await pdfText(email.attachments[0]!.bytes);
    for (const expected of [
      'TutorBook',
      'Not VAT registered',
      `Receipt number: ${receiptNumber(first)}`,
      `Received from: Thandi Mokoena (${account.email})`,
      `Paid on: ${formatSastDate(today())}`,
      'Method: EFT',
      `Reference: ${pkg.paymentReference}`,
      `Package: ${title}`,
      `6 hours of any Statistics module; package reference ${pkg.paymentReference}`,
      `Total paid ${formatRand(20_000)}`,
      first,
    ])
      expect(attached).toContain(expected);
    expect(await download(thandi, pkg.id, first)).toBe(attached);
    expect(await download(admin.client, pkg.id, first)).toBe(attached);

    const last = await smtp.waitForEmail({ to: account.email, subject: `Receipt ${receiptNumber(second)}` });
    expect(last.text).toContain('It is paid: thank you.');
    const lastText = await pdfText(last.attachments[0]!.bytes);
    expect(lastText).toContain('Method: By hand (cash or card)');
    expect(await download(thandi, pkg.id, second)).toBe(lastText);

    await delay(1_000);
    expect(smtp.unclaimed({ to: account.email, subject: 'Receipt' })).toEqual([]);
    expect(
      (await storedEmails(server.services, [account.email])).filter((e) => e.kind === 'payment-receipt'),
    ).toHaveLength(2);

    // Each payment leaves her a notice that opens the package on her dashboard; the admin who recorded it, none.
    const notices = noticeListSchema.parse((await thandi.get('/api/notices')).body).notices;
    expect(notices.filter((n) => n.kind === 'payment-recorded').map((n) => [n.title, n.path])).toEqual([
      [`Payment recorded: ${formatRand(pkg.priceCents - 20_000)}`, `/student-dashboard#package-${pkg.id}`],
      [`Payment recorded: ${formatRand(20_000)}`, `/student-dashboard#package-${pkg.id}`],
    ]);
    expect(notices[0]!.body).toContain(`For your package ${title} (reference ${pkg.paymentReference})`);
    const adminNotices = noticeListSchema.parse((await admin.client.get('/api/notices')).body).notices;
    expect(adminNotices.some((n) => n.kind === 'payment-recorded')).toBe(false);
  });

  test('a module’s package names the module; refunds and waivers are listed, with no receipt and no e-mail', async () => {
    const account = await createVerifiedUser(server, { name: 'Thandi Mokoena' });
    const thandi = await logIn(server, account);
    const pkg = await buy(
      thandi,
      (await offer({ name: '2 hours of Intro Stats', hours: 2, moduleName: 'Introduction to Statistics' })).id,
    );
    const paymentId = crypto.randomUUID();
    await pay(pkg, pkg.priceCents, { id: paymentId });
    const refundId = crypto.randomUUID();
    await pay(pkg, 10_000, { id: refundId, kind: 'refund', note: 'Paid too much' });
    const waiverId = crypto.randomUUID();
    const after = await pay(pkg, 10_000, { id: waiverId, kind: 'waiver', method: undefined, note: 'Goodwill' });
    expect(after.recordedPayments.map((p) => [p.id, p.kind])).toEqual([
      [paymentId, 'payment'],
      [refundId, 'refund'],
      [waiverId, 'waiver'],
    ]);
    expect(await download(thandi, pkg.id, paymentId)).toContain(
      `2 hours of Introduction to Statistics only; package reference ${pkg.paymentReference}`,
    );
    for (const id of [refundId, waiverId, crypto.randomUUID()])
      expect(expectApiError(await thandi.get(packageReceiptPath(pkg.id, id)), 404, 'receipts.not_found').message).toBe(
        receiptMessages.notFound,
      );
    await delay(500);
    expect(
      (await storedEmails(server.services, [account.email])).filter((e) => e.kind === 'payment-receipt'),
    ).toHaveLength(1);
  });

  test('refusals: signed out 401; another student and a tutor 404 as for no package; another package’s payment 404', async () => {
    const thandi = await student();
    const pkg = await buy(thandi, (await offer()).id);
    const paymentId = crypto.randomUUID();
    await pay(pkg, pkg.priceCents, { id: paymentId });
    const path = packageReceiptPath(pkg.id, paymentId);

    expect((await createClient(server.url).get(path)).status).toBe(401);
    for (const who of [await student(), musa.client])
      expect(expectApiError(await who.get(path), 404, 'packages.not_found').message).toBe(packageMessages.notFound);
    expectApiError(await admin.client.get(packageReceiptPath('nope', paymentId)), 404, 'packages.not_found');

    // The same student's other package: its payment is not this package's.
    const other = await buy(thandi, (await offer()).id);
    const otherPayment = crypto.randomUUID();
    await pay(other, 5_000, { id: otherPayment });
    expectApiError(await thandi.get(packageReceiptPath(pkg.id, otherPayment)), 404, 'receipts.not_found');
    expectApiError(await admin.client.get(packageReceiptPath(pkg.id, otherPayment)), 404, 'receipts.not_found');
    // A booking's payment is not the package's either (nor is a package's the booking's).
    const booking = await confirmed(await request(thandi, 1, freshDate()));
    const bookingPayment = crypto.randomUUID();
    const recorded = await admin.client.post(`/api/bookings/${booking.id}/payments`, {
      id: bookingPayment,
      kind: 'payment',
      method: 'eft',
      amountCents: 1_000,
      paidOn: today(),
      version: booking.version,
    });
    expect(recorded.status, recorded.text).toBe(200);
    expectApiError(await thandi.get(packageReceiptPath(pkg.id, bookingPayment)), 404, 'receipts.not_found');
    expectApiError(await thandi.get(`/api/bookings/${booking.id}/receipts/${paymentId}`), 404, 'receipts.not_found');
  });
});

describe('a package’s receipt through EmailJS', () => {
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
      },
    });
  });

  afterAll(async () => {
    await emailJsServer?.close();
  });

  test('the e-mail carries no PDF and says where on the dashboard the receipt is', async () => {
    const lerato = await signInAs(emailJsServer, 'admin', { name: 'Lerato Admin' });
    const account = await createVerifiedUser(emailJsServer, { name: 'Thandi Mokoena' });
    const thandi = await logIn(emailJsServer, account);
    const offered = await lerato.client.post('/api/packages/offers', {
      id: crypto.randomUUID(),
      name: '4 hours of Statistics',
      category: 'Statistics',
      hours: 4,
      priceCents: 60_000,
    });
    expect(offered.status, offered.text).toBe(201);
    const bought = await thandi.post('/api/packages', {
      id: crypto.randomUUID(),
      offerId: packageOfferSchema.parse(offered.body).id,
      month: packageMonth(),
    });
    const pkg = packageSchema.parse(bought.body);
    const paymentId = crypto.randomUUID();
    const paid = await lerato.client.post(`/api/packages/${pkg.id}/payments`, {
      id: paymentId,
      kind: 'payment',
      method: 'eft',
      amountCents: pkg.priceCents,
      paidOn: today(),
    });
    expect(paid.status, paid.text).toBe(200);

    const emails = (await storedEmails(emailJsServer.services, [account.email])).filter(
      (e) => e.kind === 'payment-receipt',
    );
    expect(emails).toHaveLength(1);
    expect(emails[0]?.attachments).toBeNull();
    expect(emails[0]?.text).toContain(receiptMessages.onDashboardPackage);
    expect(emails[0]?.text).not.toContain(receiptMessages.attached);
    const response = await thandi.get(packageReceiptPath(pkg.id, paymentId));
    expect(response.status).toBe(200);
    expect(await pdfText(response.bytes)).toContain(`Package: 4 hours of Statistics, ${formatMonth(pkg.month)}`);
  });
});

describe('sessions draw from the package as their status says', () => {
  test('a session larger than what is left draws whole hours and owes the rest; the last paid one says so', async () => {
    const thandi = await student();
    const pkg = await pay(await buy(thandi, (await offer({ hours: 3 })).id));
    const first = await confirmed(await request(thandi, 2, freshDate()));
    expect(first.package).toMatchObject({ coveredMinutes: 120, leftMinutes: 60 });
    const second = await confirmed(await request(thandi, 2, freshDate()));
    expect(second.package).toMatchObject({ id: pkg.id, coveredMinutes: 60, leftMinutes: 0 });
    expect(bookingStanding(second).owingCents).toBe(second.priceCentsPerHour);
    const third = await confirmed(await request(thandi, 1, freshDate()));
    expect(third.package ?? null).toBeNull();
  });

  test('a cancellation in good time gives the hours back; a late one counts them as the package says', async () => {
    const thandi = await student();
    const pkg = await pay(await buy(thandi, (await offer({ hours: 4, lateCancel: 'half' })).id));
    const session = await confirmed(await request(thandi, 2, freshDate()));
    const cancelled = await thandi.post(`/api/bookings/${session.id}/cancel`, {});
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(bookingSchema.parse(cancelled.body).package ?? null).toBeNull();
    expect((await mine(thandi)).find((p) => p.id === pkg.id)).toMatchObject({ usedMinutes: 0 });

    // Back to a request (staff set it Pending) gives them back too; confirmed again, it draws again.
    const other = await confirmed(await request(thandi, 2, freshDate()));
    const pending = await musa.client.put(`/api/bookings/${other.id}/status`, {
      status: 'Pending',
      version: other.version,
    });
    expect(pending.status, pending.text).toBe(200);
    expect(bookingSchema.parse(pending.body).package ?? null).toBeNull();
    expect((await mine(thandi))[0]).toMatchObject({ usedMinutes: 0 });
  });

  test('a weekly series confirmed at once draws for each session in turn', async () => {
    const thandi = await student();
    await pay(await buy(thandi, (await offer({ hours: 3 })).id));
    const first = freshDate();
    const created = await thandi.post('/api/bookings', {
      id: crypto.randomUUID(),
      module: 'Introduction to Statistics',
      hours: 1,
      concepts: 'Regression',
      date: first,
      slots: ['09:00', '12:00', '15:00'],
      weeks: 2,
    });
    expect(created.status, created.text).toBe(201);
    const booking = bookingSchema.parse(created.body);
    const response = await musa.client.post(`/api/bookings/${booking.id}/confirm`, {
      slot: '12:00',
      version: booking.version,
      series: true,
    });
    expect(response.status, response.text).toBe(200);
    const list = await thandi.get('/api/bookings');
    const series = (list.body as { bookings: unknown[] }).bookings
      .map((b) => bookingSchema.parse(b))
      .filter((b) => b.series?.id === booking.series?.id);
    // A week later may be the month after: not the package's.
    const inMonth = series.filter((b) => b.date.startsWith(packageMonth()));
    for (const session of inMonth) expect(session.package?.coveredMinutes).toBe(60);
    expect((await mine(thandi))[0]!.usedMinutes).toBe(inMonth.length * 60);
  });
});

describe('race-safe', () => {
  test('two sessions confirmed at once never take the same last hour', async () => {
    const thandi = await student();
    const pkg = await pay(await buy(thandi, (await offer({ hours: 1 })).id));
    const [a, b] = [await request(thandi, 1, freshDate()), await request(thandi, 1, freshDate())];
    const answers = await Promise.all([confirm(a!), confirm(b!)]);
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    const drawn = answers.map((answer) => bookingSchema.parse(answer.body)).filter((s) => s.package);
    expect(drawn).toHaveLength(1);
    expect((await mine(thandi)).find((p) => p.id === pkg.id)).toMatchObject({ usedMinutes: 60 });
  });
});
