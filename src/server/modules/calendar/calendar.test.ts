import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingSchema, type Booking } from '../../../common/bookings.ts';
import {
  calendarFeedCreatedSchema,
  calendarFeedStateSchema,
  type CalendarFeedCreated,
} from '../../../common/calendar-feed.ts';
import { sastDate } from '../../../common/sast.ts';
import {
  createClient,
  createVerifiedUser,
  expectApiError,
  logIn,
  signInAs,
  startSmtpServer,
  startTestServer,
  type TestClient,
  type TestResponse,
  type TestServer,
  type TestSmtpServer,
} from '../../test/harness.ts';

/**
 * The calendar feeds (issue 36 §5), through the real server, read with a real iCalendar parser (ical.js): what
 * each role's feed holds, at the right SAST times under the feed's own VTIMEZONE; a renewal and an unknown
 * secret answer 404; the signed-in routes refuse visitors; the feed itself wants no cookie.
 */
let smtp: TestSmtpServer;
let server: TestServer;
type Person = { id: string; email: string; client: TestClient };
let admin: Person;
let musa: Person;
let lindiwe: Person;
let thandi: Person;
let other: Person;

/** Thandi's: confirmed at 14:00, a request, confirmed then cancelled, completed; another student's, Lindiwe's. */
let confirmed: Booking;
let requested: Booking;
let cancelled: Booking;
let completed: Booking;
let othersSession: Booking;

const day = 24 * 3_600_000;
const inDays = (days: number) => sastDate(new Date(Date.now() + days * day));

async function book(student: Person, date: string): Promise<Booking> {
  const response = await student.client.post('/api/bookings', {
    id: crypto.randomUUID(),
    module: 'Introduction to Statistics',
    date,
    slots: ['09:00', '14:00', '17:30'],
    hours: 2,
    concepts: 'Hypothesis testing',
  });
  expect(response.status, response.text).toBe(201);
  return bookingSchema.parse(response.body);
}

async function changed(pending: Promise<TestResponse>): Promise<Booking> {
  const response = await pending;
  expect(response.status, response.text).toBe(200);
  return bookingSchema.parse(response.body);
}

const confirm = (staff: Person, b: Booking, slot: string) =>
  changed(staff.client.post(`/api/bookings/${b.id}/confirm`, { slot, version: b.version }));

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url });
  [admin, musa, lindiwe] = await Promise.all([
    signInAs(server, 'admin', { name: 'Lerato Admin' }),
    signInAs(server, 'tutor', { name: 'Musa Stats', categories: ['Statistics'] }),
    signInAs(server, 'tutor', { name: 'Lindiwe Stats', categories: ['Statistics'] }),
  ]);
  for (const name of ['Thandi Mokoena', 'Sipho Dlamini']) {
    const account = await createVerifiedUser(server, { name });
    const person = { id: account.id, email: account.email, client: await logIn(server, account) };
    if (name.startsWith('Thandi')) thandi = person;
    else other = person;
  }
  confirmed = await confirm(musa, await book(thandi, inDays(10)), '14:00');
  requested = await book(thandi, inDays(11));
  const toCancel = await confirm(musa, await book(thandi, inDays(12)), '09:00');
  cancelled = await changed(thandi.client.post(`/api/bookings/${toCancel.id}/cancel`));
  const toComplete = await confirm(musa, await book(thandi, inDays(13)), '17:30');
  completed = await changed(
    musa.client.request(`/api/bookings/${toComplete.id}/status`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'Completed', version: toComplete.version, beforeStart: true }),
    }),
  );
  othersSession = await confirm(lindiwe, await book(other, inDays(10)), '14:00');
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

async function newFeed(person: Person): Promise<CalendarFeedCreated> {
  const response = await person.client.post('/api/me/calendar-feed');
  expect(response.status, response.text).toBe(201);
  return calendarFeedCreatedSchema.parse(response.body);
}

/** The feed fetched as a calendar app does: no cookie, no Origin. */
const fetchFeed = (url: string) => fetch(url, { redirect: 'manual' });

interface FeedEvent {
  uid: string;
  summary: string;
  status: string;
  sequence: number;
  start: string;
  end: string;
  tzid: string;
}

/** The feed read by ical.js, its times turned to UTC through the feed's own VTIMEZONE. */
function parseFeed(text: string): { events: FeedEvent[]; zones: string[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const zones = calendar.getAllSubcomponents('vtimezone');
  for (const zone of zones) ICAL.TimezoneService.register(new ICAL.Timezone(zone));
  const events = calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      summary: event.summary,
      status: String(vevent.getFirstPropertyValue('status')),
      sequence: event.sequence,
      start: event.startDate.toJSDate().toISOString(),
      end: event.endDate.toJSDate().toISOString(),
      tzid: String(vevent.getFirstProperty('dtstart')?.getParameter('tzid')),
    };
  });
  return { events, zones: zones.map((z) => String(z.getFirstPropertyValue('tzid'))) };
}

async function feedOf(person: Person) {
  const { url } = await newFeed(person);
  const response = await fetchFeed(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('private, no-store');
  return parseFeed(await response.text());
}

const uidsOf = (events: FeedEvent[]) => events.map((e) => e.uid).sort();
const requestUids = (b: Booking) => [1, 2, 3].map((n) => `${b.id}-request-${n}@tutorbook`);

describe('what each feed holds', () => {
  test('a student’s: their sessions at the SAST time, their request as three tentative times, a cancellation', async () => {
    const { events, zones } = await feedOf(thandi);
    expect(zones).toEqual(['Africa/Johannesburg']);
    expect(uidsOf(events)).toEqual(
      [
        `${confirmed.id}@tutorbook`,
        `${cancelled.id}@tutorbook`,
        `${completed.id}@tutorbook`,
        ...requestUids(requested),
      ].sort(),
    );
    const session = events.find((e) => e.uid === `${confirmed.id}@tutorbook`)!;
    // 14:00 SAST for two hours is 12:00 to 14:00 UTC.
    expect(session).toMatchObject({
      start: `${confirmed.date}T12:00:00.000Z`,
      end: `${confirmed.date}T14:00:00.000Z`,
      tzid: 'Africa/Johannesburg',
      status: 'CONFIRMED',
      sequence: confirmed.version,
      summary: 'TutorBook: Introduction to Statistics',
    });
    expect(events.find((e) => e.uid === `${cancelled.id}@tutorbook`)).toMatchObject({
      status: 'CANCELLED',
      start: `${cancelled.date}T07:00:00.000Z`,
      sequence: cancelled.version,
    });
    expect(events.find((e) => e.uid === `${completed.id}@tutorbook`)).toMatchObject({
      start: `${completed.date}T15:30:00.000Z`,
      status: 'CONFIRMED',
    });
    const asked = events.filter((e) => e.uid.startsWith(requested.id));
    expect(asked.map((e) => [e.status, e.start, e.summary])).toEqual(
      ['07:00', '12:00', '15:30'].map((utc, i) => [
        'TENTATIVE',
        `${requested.date}T${utc}:00.000Z`,
        `Request: Introduction to Statistics (time ${i + 1} of 3)`,
      ]),
    );
  });

  test('the feed’s event is the e-mailed invitation’s: the same UID and SEQUENCE', async () => {
    const email = await smtp.waitForEmail({ to: thandi.email, subject: 'Session confirmed' });
    const invitation = email.attachments.find((a) => a.filename.endsWith('.ics'))!;
    const [invited] = parseFeed(invitation.content).events;
    const { events } = await feedOf(thandi);
    const inFeed = events.find((e) => e.uid === invited!.uid);
    expect(inFeed).toMatchObject({ start: invited!.start, end: invited!.end, sequence: invited!.sequence });
  });

  test('a tutor’s: the sessions they tutor and their categories’ requests, not another tutor’s session', async () => {
    const musas = uidsOf((await feedOf(musa)).events);
    expect(musas).toEqual(
      [
        `${confirmed.id}@tutorbook`,
        `${cancelled.id}@tutorbook`,
        `${completed.id}@tutorbook`,
        ...requestUids(requested),
      ].sort(),
    );
    const lindiwes = (await feedOf(lindiwe)).events;
    expect(uidsOf(lindiwes)).toEqual([`${othersSession.id}@tutorbook`, ...requestUids(requested)].sort());
    // Staff see whose session it is.
    expect(lindiwes.find((e) => e.uid === `${othersSession.id}@tutorbook`)?.summary).toBe(
      'TutorBook: Introduction to Statistics, Sipho Dlamini',
    );
    expect(lindiwes.find((e) => e.uid === requestUids(requested)[0])?.summary).toBe(
      'Request: Introduction to Statistics, Thandi Mokoena (time 1 of 3)',
    );
  });

  test('the admin’s: every booking', async () => {
    const uids = uidsOf((await feedOf(admin)).events);
    for (const uid of [
      `${confirmed.id}@tutorbook`,
      `${cancelled.id}@tutorbook`,
      `${completed.id}@tutorbook`,
      `${othersSession.id}@tutorbook`,
      ...requestUids(requested),
    ])
      expect(uids).toContain(uid);
  });
});

describe('the feed’s address', () => {
  test('none at first; made, it answers without a cookie; renewed, the old one is 404 at once', async () => {
    const person = await signInAs(server, 'student', { name: 'Ayanda Zulu' });
    const state = async () => calendarFeedStateSchema.parse((await person.client.get('/api/me/calendar-feed')).body);
    expect(await state()).toEqual({ feed: null });
    const first = await newFeed(person);
    expect(first.url).toMatch(new RegExp(`^${server.url}/api/calendar/[A-Za-z0-9_-]{43}\\.ics$`));
    expect(first.webcalUrl).toBe(first.url.replace(/^http:/, 'webcal:'));
    // The address is not kept: the state says only since when.
    expect(await state()).toEqual({ feed: { createdAt: first.createdAt } });
    const stored = await server.services.deps.repos.calendarFeeds.find(person.id);
    expect(JSON.stringify(stored)).not.toContain(first.url.split('/').at(-1)!.replace('.ics', ''));

    const fetched = await fetchFeed(first.url);
    expect(fetched.status).toBe(200);
    expect(await fetched.text()).toMatch(/^BEGIN:VCALENDAR/);

    const second = await newFeed(person);
    expect(second.url).not.toBe(first.url);
    const old = await fetchFeed(first.url);
    expect(old.status).toBe(404);
    expect(await old.text()).not.toMatch(/renew|ayanda/i);
    expect((await fetchFeed(second.url)).status).toBe(200);
  });

  test('an unknown secret, a malformed one or no .ics is 404, the same answer each time', async () => {
    const { url } = await newFeed(thandi);
    const secret = url.split('/').at(-1)!.replace('.ics', '');
    const wrong = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    for (const path of [
      `/api/calendar/${wrong}.ics`,
      `/api/calendar/${secret}`,
      `/api/calendar/${secret}.json`,
      '/api/calendar/short.ics',
      '/api/calendar/.ics',
    ]) {
      const response = await createClient(server.url).get(path);
      expectApiError(response, 404, 'calendar.not_found');
    }
  });

  test('a visitor may neither read nor make one; another site may not make one', async () => {
    const visitor = createClient(server.url);
    expectApiError(await visitor.get('/api/me/calendar-feed'), 401, 'auth.unauthenticated');
    expectApiError(await visitor.post('/api/me/calendar-feed'), 401, 'auth.unauthenticated');
    const before = await server.services.deps.repos.calendarFeeds.find(thandi.id);
    expectApiError(
      await thandi.client.post('/api/me/calendar-feed', undefined, { headers: { origin: 'https://evil.example' } }),
      403,
      'request.invalid_origin',
    );
    expect(await server.services.deps.repos.calendarFeeds.find(thandi.id)).toEqual(before);
  });

  test('account deletion erases the feed: its address is 404; the export says whether one exists', async () => {
    const person = await signInAs(server, 'student', { name: 'Nomsa Khumalo' });
    expect((await person.client.get('/api/me/export')).body.calendarFeed).toBeNull();
    const { url, createdAt } = await newFeed(person);
    expect((await person.client.get('/api/me/export')).body.calendarFeed).toEqual({ createdAt });
    const deleted = await person.client.delete('/api/me');
    expect(deleted.status, deleted.text).toBe(200);
    expect((await fetchFeed(url)).status).toBe(404);
    expect(await server.services.deps.repos.calendarFeeds.find(person.id)).toBeUndefined();
  });
});
