import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availabilityMessages, noAvailability, type Availability } from '../../../common/availability.ts';
import {
  availabilityApiMessages,
  categoryAvailabilitySchema,
  tutorAvailabilitySchema,
  type CategoryAvailability,
} from '../../../common/availability-api.ts';
import type { BusMessage } from '../../events/events.ts';
import {
  createClient,
  expectApiError,
  signInAs,
  startSmtpServer,
  startTestServer,
  waitFor,
  type TestClient,
  type TestServer,
  type TestSmtpServer,
} from '../../test/harness.ts';

let smtp: TestSmtpServer;
let server: TestServer;
let admin: { id: string; client: TestClient };
let tutor: { id: string; client: TestClient };

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url });
  admin = await signInAs(server, 'admin', { name: 'Lerato Admin' });
  tutor = await signInAs(server, 'tutor', { name: 'Thabo Tutor', categories: ['Computer Science'] });
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const path = (tutorId: string) => `/api/availability/${tutorId}`;

/** Mornings on weekdays, a split shift on Wednesday, nothing at the weekend; two dates off; a 15-minute buffer. */
const week: Availability = {
  weekly: [
    [{ start: '08:00', end: '12:00' }],
    [{ start: '08:00', end: '12:00' }],
    [
      { start: '08:00', end: '10:00' },
      { start: '14:00', end: '24:00' },
    ],
    [{ start: '08:00', end: '12:00' }],
    [{ start: '08:00', end: '12:00' }],
    [],
    [],
  ],
  daysOff: ['2026-12-16', '2026-12-25'],
  bufferMinutes: 15,
};

const stored = (tutorId: string) => server.services.deps.repos.availability.find(tutorId);

/** Runs `refused` and checks that the tutor's availability is as it was. */
async function expectNothingChanged<T>(tutorId: string, refused: () => Promise<T>): Promise<T> {
  const before = await stored(tutorId);
  const result = await refused();
  expect(await stored(tutorId)).toEqual(before);
  return result;
}

describe('who may read and set a tutor’s availability', () => {
  const roles = [
    { who: 'a visitor', status: 401, code: 'auth.unauthenticated', signIn: async () => createClient(server.url) },
    {
      who: 'a student',
      status: 403,
      code: 'auth.forbidden',
      signIn: async () => (await signInAs(server, 'student')).client,
    },
    {
      who: 'another tutor',
      status: 403,
      code: 'auth.forbidden',
      signIn: async () => (await signInAs(server, 'tutor', { categories: ['Computer Science'] })).client,
    },
  ];

  test.each(roles)('$who can neither read nor set a tutor’s, whatever the body', async ({ status, code, signIn }) => {
    const client = await signIn();
    await expectNothingChanged(tutor.id, async () => {
      expectApiError(await client.get(path(tutor.id)), status, code);
      expectApiError(await client.put(path(tutor.id), week), status, code);
      // Refused before the body is read: an invalid one gets the same answer.
      expectApiError(await client.put(path(tutor.id), { weekly: 'all day' }), status, code);
    });
  });

  test('a visitor cannot read a category’s tutors, with a category or without', async () => {
    const visitor = createClient(server.url);
    expectApiError(await visitor.get('/api/availability?category=Statistics'), 401, 'auth.unauthenticated');
    expectApiError(await visitor.get('/api/availability'), 401, 'auth.unauthenticated');
  });

  test('for the admin, an id that is no tutor’s is Tutor not found: nobody, a student, the admin, no id at all', async () => {
    const student = await signInAs(server, 'student');
    for (const id of [crypto.randomUUID(), student.id, admin.id, 'a%2Fb', '__proto__']) {
      const read = expectApiError(await admin.client.get(path(id)), 404, 'availability.tutor_not_found');
      expect(read.message).toBe(availabilityApiMessages.tutorNotFound);
      expectApiError(await admin.client.put(path(id), week), 404, 'availability.tutor_not_found');
    }
    expect(await stored(student.id)).toBeUndefined();
    expect(await stored(admin.id)).toBeUndefined();
  });

  test('a tutor asking about an id that is not theirs is refused, not told whether it is a tutor’s', async () => {
    for (const id of [crypto.randomUUID(), admin.id]) {
      expectApiError(await tutor.client.get(path(id)), 403, 'auth.forbidden');
      expectApiError(await tutor.client.put(path(id), week), 403, 'auth.forbidden');
    }
  });
});

describe('a tutor’s own availability', () => {
  test('a tutor who has set nothing reads no hours at all', async () => {
    const fresh = await signInAs(server, 'tutor', { categories: ['Mathematics'] });
    const response = await fresh.client.get(path(fresh.id));
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.body).toEqual({ tutorId: fresh.id, availability: noAvailability, updatedAt: null });
  });

  test('a tutor sets their week and reads it back: each day’s ranges in order, each date off once', async () => {
    const shuffled = {
      ...week,
      weekly: week.weekly.map((day) => [...day].reverse()),
      daysOff: ['2026-12-25', '2026-12-16', '2026-12-25'],
    };
    const saved = await tutor.client.put(path(tutor.id), shuffled);
    expect(saved.status, saved.text).toBe(200);
    expect(tutorAvailabilitySchema.parse(saved.body)).toEqual(saved.body);
    expect(saved.body).toEqual({ tutorId: tutor.id, availability: week, updatedAt: expect.any(String) });
    expect(Date.parse(saved.body.updatedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await tutor.client.get(path(tutor.id))).body).toEqual(saved.body);
  });

  test('a save replaces the whole of it: what it leaves out is gone', async () => {
    await tutor.client.put(path(tutor.id), week);
    const tuesdaysOnly: Availability = {
      ...noAvailability,
      weekly: [[], [{ start: '13:00', end: '15:30' }], [], [], [], [], []],
    };
    const saved = await tutor.client.put(path(tutor.id), tuesdaysOnly);
    expect(saved.body.availability).toEqual(tuesdaysOnly);
    expect((await tutor.client.get(path(tutor.id))).body.availability).toEqual(tuesdaysOnly);
  });

  test('the admin reads any tutor’s and sets it for them; the tutor reads what the admin set', async () => {
    const other = await signInAs(server, 'tutor', { categories: ['Statistics'] });
    expect((await admin.client.get(path(other.id))).body.availability).toEqual(noAvailability);
    const saved = await admin.client.put(path(other.id), week);
    expect(saved.status, saved.text).toBe(200);
    expect((await admin.client.get(path(other.id))).body).toEqual(saved.body);
    expect((await other.client.get(path(other.id))).body).toEqual(saved.body);
  });

  test('each save is announced to signed-in users, ids only, once committed', async () => {
    const heard: BusMessage[] = [];
    const stop = server.services.bus.subscribe((message) => void heard.push(message));
    try {
      await tutor.client.put(path(tutor.id), week);
      const about = () => heard.filter((m) => m.type === 'notice' && m.event.table === 'availability');
      await waitFor(async () => about().length >= 1, 'a notice');
      expect(about()).toEqual([
        {
          type: 'notice',
          event: {
            table: 'availability',
            ids: [tutor.id],
            audience: { roles: ['student', 'tutor', 'admin'] },
            id: expect.any(String),
          },
        },
      ]);
    } finally {
      stop();
    }
  });
});

describe('what is refused, with a message that says why', () => {
  const day = (ranges: unknown[]) => ({ ...week, weekly: [ranges, [], [], [], [], [], []] });
  const m = availabilityMessages;
  const cases: [what: string, body: unknown, field: string, message: string][] = [
    ['six days', { ...week, weekly: week.weekly.slice(0, 6) }, 'weekly', m.weekInvalid],
    ['no week', { daysOff: [], bufferMinutes: 0 }, 'weekly', m.weekInvalid],
    ['a day that is not a list', { ...week, weekly: ['09:00-12:00', [], [], [], [], [], []] }, 'weekly', m.weekInvalid],
    ['a range without its end', day([{ start: '09:00' }]), 'weekly', m.rangeInvalid],
    ['a time without its leading zero', day([{ start: '9:00', end: '12:00' }]), 'weekly', m.rangeInvalid],
    ['a time past midnight', day([{ start: '09:00', end: '24:30' }]), 'weekly', m.rangeInvalid],
    ['a range that starts at 24:00', day([{ start: '24:00', end: '24:00' }]), 'weekly', m.rangeInvalid],
    ['a range that ends as it starts', day([{ start: '09:00', end: '09:00' }]), 'weekly', m.rangeOrder],
    ['a range that ends before it starts', day([{ start: '13:00', end: '09:00' }]), 'weekly', m.rangeOrder],
    [
      'two ranges that overlap',
      day([
        { start: '09:00', end: '12:00' },
        { start: '11:30', end: '14:00' },
      ]),
      'weekly',
      m.rangesOverlap,
    ],
    [
      'seven ranges in a day',
      day(['06', '08', '10', '12', '14', '16', '18'].map((h) => ({ start: `${h}:00`, end: `${h}:30` }))),
      'weekly',
      m.tooManyRanges,
    ],
    ['a date off that is no date', { ...week, daysOff: ['2026-02-30'] }, 'daysOff', m.dayOffInvalid],
    ['a date off in another form', { ...week, daysOff: ['25/12/2026'] }, 'daysOff', m.dayOffInvalid],
    [
      'more dates off than a year',
      {
        ...week,
        daysOff: Array.from({ length: 367 }, (_, i) => new Date(Date.UTC(2027, 0, 1 + i)).toISOString().slice(0, 10)),
      },
      'daysOff',
      m.tooManyDaysOff,
    ],
    ['a negative buffer', { ...week, bufferMinutes: -5 }, 'bufferMinutes', m.bufferInvalid],
    ['a buffer of part of a minute', { ...week, bufferMinutes: 7.5 }, 'bufferMinutes', m.bufferInvalid],
    ['a buffer past the most', { ...week, bufferMinutes: 121 }, 'bufferMinutes', m.bufferInvalid],
    ['a buffer as text', { ...week, bufferMinutes: '15' }, 'bufferMinutes', m.bufferInvalid],
    ['no buffer', { weekly: week.weekly, daysOff: [] }, 'bufferMinutes', m.bufferInvalid],
    ['a field it does not know', { ...week, note: 'Exams' }, '_form', 'Unknown field: note.'],
    [
      'a range with a field it does not know',
      day([{ start: '09:00', end: '12:00', room: 'B' }]),
      '_form',
      'Unknown field: room.',
    ],
  ];

  test.each(cases)('a week with %s: 400 and nothing changes', async (_what, body, field, message) => {
    const error = await expectNothingChanged(tutor.id, async () =>
      expectApiError(await tutor.client.put(path(tutor.id), body), 400, 'request.invalid'),
    );
    expect(error.fields?.[field]).toBe(message);
    expect(error.message).toBe(message);
  });

  test('the limits themselves are accepted: six ranges a day, a day to midnight, 366 dates off, a 120-minute buffer', async () => {
    const full: Availability = {
      weekly: Array.from({ length: 7 }, () => [
        ...['06', '08', '10', '12', '14'].map((h) => ({ start: `${h}:00`, end: `${h}:30` })),
        { start: '18:00', end: '24:00' },
      ]),
      daysOff: Array.from({ length: 366 }, (_, i) => new Date(Date.UTC(2027, 0, 1 + i)).toISOString().slice(0, 10)),
      bufferMinutes: 120,
    };
    const saved = await tutor.client.put(path(tutor.id), full);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.availability).toEqual(full);
  });

  test('a body that is not JSON, or not declared as JSON, is refused and nothing changes', async () => {
    await expectNothingChanged(tutor.id, async () => {
      const request = (contentType: string, body: string) =>
        tutor.client.request(path(tutor.id), { method: 'PUT', headers: { 'content-type': contentType }, body });
      expectApiError(await request('application/json', '{"weekly": ['), 400, 'request.malformed_json');
      expectApiError(await request('text/plain', JSON.stringify(week)), 400, 'request.unsupported_content_type');
    });
  });
});

describe('a category’s tutors, for the booking page', () => {
  test('a student reads each tutor of the category, by name, with their hours or none; nobody else, nothing private', async () => {
    const [withHours, without, elsewhere, both] = [
      await signInAs(server, 'tutor', { name: 'Zodwa Stats', categories: ['Statistics'] }),
      await signInAs(server, 'tutor', { name: 'Ayanda Stats', categories: ['Statistics'] }),
      await signInAs(server, 'tutor', { name: 'Bongani Maths', categories: ['Mathematics'] }),
      await signInAs(server, 'tutor', { name: 'Mpho Both', categories: ['Mathematics', 'Statistics'] }),
    ];
    await withHours.client.put(path(withHours.id), week);
    await both.client.put(path(both.id), { ...noAvailability, bufferMinutes: 30 });
    const student = await signInAs(server, 'student');

    const response = await student.client.get('/api/availability?category=Statistics');
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const { tutors } = categoryAvailabilitySchema.parse(response.body) as CategoryAvailability;
    const mine = tutors.filter((t) => [withHours, without, elsewhere, both].some((p) => p.id === t.tutorId));
    expect(mine).toEqual([
      { tutorId: without.id, name: 'Ayanda Stats', availability: noAvailability },
      { tutorId: both.id, name: 'Mpho Both', availability: { ...noAvailability, bufferMinutes: 30 } },
      { tutorId: withHours.id, name: 'Zodwa Stats', availability: week },
    ]);
    // Names in order, tutors only (not the admin, who hears of every category's bookings).
    expect(tutors.map((t) => t.name)).toEqual([...tutors.map((t) => t.name)].sort((a, b) => a.localeCompare(b, 'en')));
    expect(tutors.map((t) => t.tutorId)).not.toContain(admin.id);
    for (const entry of response.body.tutors)
      expect(Object.keys(entry).sort()).toEqual(['availability', 'name', 'tutorId']);
    expect(response.text).not.toContain('@');

    const maths = (await tutor.client.get('/api/availability?category=Mathematics')).body.tutors;
    expect(maths.map((t: { tutorId: string }) => t.tutorId)).toEqual(expect.arrayContaining([elsewhere.id, both.id]));
    expect(maths.map((t: { tutorId: string }) => t.tutorId)).not.toContain(withHours.id);
  });

  test.each([
    ['no category', ''],
    ['a category there is not', '?category=Physics'],
    ['two categories', '?category=Statistics&category=Mathematics'],
  ])('%s is refused with the categories to choose from', async (_what, query) => {
    const error = expectApiError(await tutor.client.get(`/api/availability${query}`), 400, 'request.invalid');
    expect(error.fields?.category).toBe(availabilityApiMessages.categoryInvalid);
  });

  test('a parameter it does not know is refused', async () => {
    const error = expectApiError(
      await tutor.client.get('/api/availability?category=Statistics&email=1'),
      400,
      'request.invalid',
    );
    expect(error.message).toBe('Unknown field: email.');
  });
});

describe('the availability is the tutor’s personal data', () => {
  test('the export holds a tutor’s availability, and a student’s export says there is none', async () => {
    const own = await signInAs(server, 'tutor', { categories: ['Statistics'] });
    const saved = (await own.client.put(path(own.id), week)).body;
    const exported = await own.client.get('/api/me/export');
    expect(exported.status, exported.text).toBe(200);
    expect(exported.body.availability).toEqual({ ...week, updatedAt: saved.updatedAt });
    const student = await signInAs(server, 'student');
    expect((await student.client.get('/api/me/export')).body.availability).toBeNull();
  });

  test('a tutor who deletes their account leaves no availability behind, nor in the category’s list', async () => {
    const leaving = await signInAs(server, 'tutor', { categories: ['Statistics'] });
    await leaving.client.put(path(leaving.id), week);
    expect(await stored(leaving.id)).toBeDefined();
    const heard: BusMessage[] = [];
    const stop = server.services.bus.subscribe((message) => void heard.push(message));
    try {
      const deleted = await leaving.client.delete('/api/me');
      expect(deleted.status, deleted.text).toBe(200);
      expect(await stored(leaving.id)).toBeUndefined();
      // Devices holding the category's tutors are told to read them again.
      await waitFor(
        async () =>
          heard.some(
            (m) => m.type === 'notice' && m.event.table === 'availability' && m.event.ids.includes(leaving.id),
          ),
        'a notice of the erased availability',
      );
    } finally {
      stop();
    }
    const listed = (await admin.client.get('/api/availability?category=Statistics')).body.tutors;
    expect(listed.map((t: { tutorId: string }) => t.tutorId)).not.toContain(leaving.id);
  });
});
