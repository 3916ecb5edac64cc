import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Module } from '../../../common/catalogue.ts';
import { enrolmentSchema, profileMessages, type Enrolment } from '../../../common/profile.ts';
import {
  createClient,
  expectApiError,
  logIn,
  makeStaff,
  sessionCookieName,
  signInAs,
  signUpAndVerify,
  startSmtpServer,
  startTestServer,
  type TestServer,
  type TestSmtpServer,
} from '../../test/harness.ts';
import { storedAuthRecords, storedRows } from '../../test/stored.ts';
import type { PersonalDataPart } from '../../personal-data.ts';
import { deleteMyAccount, enrolmentsPersonalData, exportMyData } from './profile.usecases.ts';

let smtp: TestSmtpServer;
let server: TestServer;
let modules: Module[];
const bySlug = (slug: string) => modules.find((m) => m.slug === slug)!;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url });
  modules = (await createClient(server.url).get('/api/modules')).body.modules;
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const enrolments = () => storedRows(server.services, 'enrolments');

/** Runs `refused` and checks that it left the enrolments exactly as they were. */
async function expectNoEnrolmentChanged<T>(refused: () => Promise<T>): Promise<T> {
  const before = await enrolments();
  const result = await refused();
  expect(await enrolments()).toEqual(before);
  return result;
}

describe('enrolling in modules', () => {
  test('a student enrols in a module, sees it on their profile, and removes it', async () => {
    const { client } = await signInAs(server, 'student');
    expect((await client.get('/api/me/enrolments')).body).toEqual({ enrolments: [] });

    const python = bySlug('introduction-to-programming-with-python');
    const enrolled = await client.post('/api/me/enrolments', { moduleId: python.id });
    expect(enrolled.status, enrolled.text).toBe(201);
    expect(enrolmentSchema.parse(enrolled.body)).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      moduleId: python.id,
      moduleName: 'Introduction to Programming with Python',
      moduleSlug: 'introduction-to-programming-with-python',
      enrolledAt: expect.any(String),
    });
    const stats = await client.post('/api/me/enrolments', { moduleId: bySlug('introduction-to-statistics').id });
    expect(stats.status).toBe(201);

    const listed = await client.get('/api/me/enrolments');
    expect(listed.headers.get('cache-control')).toBe('private, no-store');
    expect(listed.body.enrolments).toEqual([enrolled.body, stats.body]);

    const removed = await client.delete(`/api/me/enrolments/${enrolled.body.id}`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toEqual({ removed: true });
    expect((await client.get('/api/me/enrolments')).body.enrolments).toEqual([stats.body]);
  });

  test('enrolling twice in the same module is refused, also with a double click, and keeps one enrolment', async () => {
    const { client, id } = await signInAs(server, 'student');
    const moduleId = bySlug('fet-mathematics').id;
    expect((await client.post('/api/me/enrolments', { moduleId })).status).toBe(201);
    const error = await expectNoEnrolmentChanged(async () =>
      expectApiError(await client.post('/api/me/enrolments', { moduleId }), 409, 'profile.already_enrolled'),
    );
    expect(error.message).toBe(profileMessages.alreadyEnrolled);

    // Two requests at once: the database's unique (user, module) pair decides.
    const other = bySlug('fet-physical-science').id;
    const both = await Promise.all([
      client.post('/api/me/enrolments', { moduleId: other }),
      client.post('/api/me/enrolments', { moduleId: other }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const rows = await server.services.deps.repos.profile.enrolmentsOf(id);
    expect(rows.map((r) => r.moduleId).sort()).toEqual([moduleId, other].sort());
  });

  test('enrolling in an unknown module says it is no longer offered, and adds nothing', async () => {
    const { client } = await signInAs(server, 'student');
    const error = await expectNoEnrolmentChanged(async () =>
      expectApiError(
        await client.post('/api/me/enrolments', { moduleId: crypto.randomUUID() }),
        404,
        'profile.module_not_found',
      ),
    );
    expect(error.message).toBe(profileMessages.moduleGone);
  });

  test.each([
    ['no module chosen', {}, 'moduleId', profileMessages.selectModule],
    ['an empty module id', { moduleId: '' }, 'moduleId', profileMessages.selectModule],
    ['a module id that is not an id', { moduleId: 'fet-mathematics' }, 'moduleId', profileMessages.selectModule],
    [
      'an unknown field',
      { moduleId: crypto.randomUUID(), userId: crypto.randomUUID() },
      '_form',
      'Unknown field: userId.',
    ],
  ])('enrolling with %s is refused with a message, and adds nothing', async (_, body, field, message) => {
    const { client } = await signInAs(server, 'student');
    const error = await expectNoEnrolmentChanged(async () =>
      expectApiError(await client.post('/api/me/enrolments', body), 400, 'request.invalid'),
    );
    expect(error.fields?.[field]).toBe(message);
  });

  test('a visitor can neither see nor change enrolments', async () => {
    const visitor = createClient(server.url);
    await expectNoEnrolmentChanged(async () => {
      expectApiError(await visitor.get('/api/me/enrolments'), 401, 'auth.unauthenticated');
      expectApiError(
        await visitor.post('/api/me/enrolments', { moduleId: modules[0]!.id }),
        401,
        'auth.unauthenticated',
      );
      expectApiError(await visitor.delete(`/api/me/enrolments/${crypto.randomUUID()}`), 401, 'auth.unauthenticated');
    });
  });

  test('each user sees only their own enrolments', async () => {
    const thandi = await signInAs(server, 'student', { name: 'Thandi' });
    const sipho = await signInAs(server, 'student', { name: 'Sipho' });
    const mine = await thandi.client.post('/api/me/enrolments', { moduleId: bySlug('java-oop-and-gui').id });
    const theirs = await sipho.client.post('/api/me/enrolments', { moduleId: bySlug('java-oop-and-gui').id });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect((await thandi.client.get('/api/me/enrolments')).body.enrolments.map((e: Enrolment) => e.id)).toEqual([
      mine.body.id,
    ]);
    expect((await sipho.client.get('/api/me/enrolments')).body.enrolments.map((e: Enrolment) => e.id)).toEqual([
      theirs.body.id,
    ]);
  });

  test.each([
    ['a student', 'student'],
    ['a tutor', 'tutor'],
    ['even the admin', 'admin'],
  ] as const)('%s cannot remove someone else’s enrolment (403), and it stays', async (_, role) => {
    const owner = await signInAs(server, 'student');
    const enrolment = (
      await owner.client.post('/api/me/enrolments', { moduleId: bySlug('databases-and-programming').id })
    ).body as Enrolment;
    const other = await signInAs(server, role);

    await expectNoEnrolmentChanged(async () => {
      expectApiError(await other.client.delete(`/api/me/enrolments/${enrolment.id}`), 403, 'auth.forbidden');
    });
    expect((await owner.client.get('/api/me/enrolments')).body.enrolments).toEqual([enrolment]);
    // Their own list is theirs alone, whatever their role.
    expect((await other.client.get('/api/me/enrolments')).body.enrolments).toEqual([]);
  });

  test('removing an enrolment that does not exist, or was already removed, is a 404', async () => {
    const { client } = await signInAs(server, 'student');
    const enrolment = (await client.post('/api/me/enrolments', { moduleId: bySlug('introduction-to-calculus').id }))
      .body as Enrolment;
    expect((await client.delete(`/api/me/enrolments/${enrolment.id}`)).status).toBe(200);
    await expectNoEnrolmentChanged(async () => {
      expectApiError(await client.delete(`/api/me/enrolments/${enrolment.id}`), 404, 'profile.enrolment_not_found');
      expectApiError(await client.delete('/api/me/enrolments/not-an-id'), 404, 'profile.enrolment_not_found');
    });
  });

  // On Firestore an id is looked up in an index, which refuses a value over 1,500 bytes (an error, a 500), and is
  // part of a document path (`a/b`, `..`, `__…__`): such ids name no enrolment, on every engine.
  test.each([
    ['1,600 bytes long', 'x'.repeat(1600)],
    ['of 400 emoji (1,600 bytes)', '%F0%9F%98%80'.repeat(400)],
    ['a%2Fb', 'a%2Fb'],
    ['__proto__', '__proto__'],
  ])('removing the enrolment %s, which no enrolment can be, is a 404', async (_, id) => {
    const { client } = await signInAs(server, 'student');
    await client.post('/api/me/enrolments', { moduleId: bySlug('introduction-to-calculus').id });
    await expectNoEnrolmentChanged(async () => {
      expectApiError(await client.delete(`/api/me/enrolments/${id}`), 404, 'profile.enrolment_not_found');
    });
  });
});

describe('changing my name', () => {
  test('a name change is checked as sign-up checks a name; no input gives a 5xx or is stored', async () => {
    const { client, name } = await signInAs(server, 'student', { name: 'Lindiwe Nkosi' });
    const bodies: unknown[] = [
      { name: null },
      { name: { a: 1 } },
      { name: 42 },
      { image: [1] },
      { image: 'javascript:alert(1)' },
      { name: 'Ok', image: 'javascript:alert(1)' },
      { name: 'Ok', role: 'admin' },
      { name: 'Ok', email: 'someone-else@example.com' },
      { name: 'n'.repeat(50_000) },
      { name: 'n'.repeat(101) },
      { name: '   ' },
      { name: 'Line one\r\nLine two' },
      { name: 'Tab\there' },
      { name: 'Null\u0000byte' },
      { name: 'Evil\u202Eeman' },
      {},
      [],
      'just text',
    ];
    for (const body of bodies) {
      const response = await client.put('/api/me/name', body);
      expect(response.status, `${JSON.stringify(body).slice(0, 60)} → ${response.text}`).toBe(400);
      expectApiError(response, 400, 'request.invalid');
    }
    const malformed = await client.request('/api/me/name', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"name":',
    });
    expectApiError(malformed, 400, 'request.malformed_json');
    expect((await client.get('/api/me')).body.name).toBe(name);
    const stored = await server.services.deps.repos.accounts.findByEmail((await client.get('/api/me')).body.email);
    expect(stored).toMatchObject({ name, image: null, role: 'student' });

    // Signed out, or from another site: refused, and nothing is renamed.
    expectApiError(await createClient(server.url).put('/api/me/name', { name: 'Anyone' }), 401, 'auth.unauthenticated');
    expectApiError(
      await client.put('/api/me/name', { name: 'Anyone' }, { headers: { origin: 'https://evil.example' } }),
      403,
      'request.invalid_origin',
    );
    // better-auth's own endpoint is not open: it would rename the account and leave the bookings' copies behind.
    expectApiError(await client.post('/api/auth/update-user', { name: 'Anyone' }), 404, 'request.not_found');
    expect((await client.get('/api/me')).body.name).toBe(name);

    const renamed = await client.put('/api/me/name', { name: '  Lindiwe Nkosi-Dube ' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toEqual({ renamed: true });
    expect(renamed.headers.get('cache-control')).toBe('no-store');
    expect((await client.get('/api/me')).body.name).toBe('Lindiwe Nkosi-Dube');
  });
});

describe('downloading my data', () => {
  test('the file holds the account, role, tutor categories, sessions, enrolments and e-mails, and no password hash or token', async () => {
    // Signed up for real: the e-mails that sign-up sends are part of the export.
    const account = await signUpAndVerify(server, smtp, { name: 'Ayanda Zulu' });
    await makeStaff(server, account.email, 'tutor', ['Statistics', 'Computer Science']);
    const client = await logIn(server, account);
    const tutor = { ...account, client, id: (await client.get('/api/me')).body.id as string };
    const enrolment = (
      await tutor.client.post('/api/me/enrolments', { moduleId: bySlug('introduction-to-statistics').id })
    ).body as Enrolment;
    // A second session, from a phone.
    await logIn(server, tutor);

    const before = sastDate(new Date());
    const response = await tutor.client.get('/api/me/export');
    const after = sastDate(new Date());
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const disposition = response.headers.get('content-disposition') ?? '';
    expect([
      `attachment; filename="tutorbook-data-${before}.json"`,
      `attachment; filename="tutorbook-data-${after}.json"`,
    ]).toContain(disposition);

    const data = response.body;
    // The profile's own keys, and those of every feature that registered a part (the Q&A board and its photos,
    // bookings, availability, the calendar feed, the money recorded against their bookings, their monthly packages,
    // their notifications and choices).
    expect(Object.keys(data).sort()).toEqual([
      'account',
      'answers',
      'availability',
      'bookings',
      'calendarFeed',
      'emails',
      'enrolments',
      'exportedAt',
      'notifications',
      'packages',
      'payments',
      'photos',
      'questions',
      'sessionOffers',
      'sessions',
      'votes',
    ]);
    expect(data.account).toEqual({
      id: tutor.id,
      name: 'Ayanda Zulu',
      email: tutor.email,
      emailVerified: true,
      image: null,
      role: 'tutor',
      tutorCategories: ['Computer Science', 'Statistics'],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      logins: [{ provider: 'credential', createdAt: expect.any(String), updatedAt: expect.any(String) }],
    });
    expect(data.sessions).toHaveLength(2);
    for (const session of data.sessions) {
      expect(session).toEqual({
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
        ipAddress: '127.0.0.1',
        userAgent: expect.any(String),
      });
      expect(Date.parse(session.expiresAt)).toBeGreaterThan(Date.now());
    }
    expect(data.enrolments).toEqual([enrolment]);
    const kinds = data.emails.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['verification', 'welcome']));
    for (const email of data.emails)
      expect(Object.keys(email).sort()).toEqual(['createdAt', 'kind', 'sentAt', 'status', 'subject']);
    expect(data.emails.find((e: { kind: string }) => e.kind === 'welcome').subject).toBe('Welcome to TutorBook!');

    // No secrets: not the password hash, not a session token, not the links in the e-mails.
    const [login] = await storedAuthRecords(server.services, 'accounts', tutor.id);
    const sessions = await storedAuthRecords(server.services, 'sessions', tutor.id);
    expect(login?.password).toBeTruthy();
    expect(response.text).not.toContain(login!.password as string);
    expect(sessions.length).toBeGreaterThan(0);
    for (const { token } of sessions) expect(response.text).not.toContain(token as string);
    expect(response.text).not.toMatch(/password|token|https?:\/\//i);
  });

  test('a visitor has no data to download', async () => {
    expectApiError(await createClient(server.url).get('/api/me/export'), 401, 'auth.unauthenticated');
  });
});

describe('deleting my account', () => {
  test('removes the login, every session, enrolments and tutor categories; the old cookie and password stop working; the address can sign up again', async () => {
    const tutor = await signInAs(server, 'tutor', { categories: ['Mathematics'] });
    const phone = await logIn(server, tutor);
    await tutor.client.post('/api/me/enrolments', { moduleId: bySlug('calculus-and-linear-algebra').id });
    const oldCookie = `${sessionCookieName}=${tutor.client.cookies.get(sessionCookieName)}`;
    const { repos } = server.services.deps;
    const count = async (table: 'sessions' | 'accounts' | 'enrolments' | 'tutor_categories') =>
      table === 'enrolments'
        ? (await repos.profile.enrolmentsOf(tutor.id)).length
        : table === 'tutor_categories'
          ? (await repos.accounts.categoriesOf(tutor.id)).length
          : (await storedAuthRecords(server.services, table, tutor.id)).length;
    expect([
      await count('sessions'),
      await count('accounts'),
      await count('enrolments'),
      await count('tutor_categories'),
    ]).toEqual([2, 1, 1, 1]);

    const deleted = await tutor.client.delete('/api/me');
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ deleted: true });
    // The browser is told to forget the session cookie.
    expect(
      deleted.headers.getSetCookie().some((c) => c.startsWith(`${sessionCookieName}=;`) && /Max-Age=0/i.test(c)),
    ).toBe(true);
    expect(tutor.client.hasSessionCookie()).toBe(false);

    expect(await repos.accounts.findById(tutor.id)).toBeUndefined();
    expect([
      await count('sessions'),
      await count('accounts'),
      await count('enrolments'),
      await count('tutor_categories'),
    ]).toEqual([0, 0, 0, 0]);

    // Every session is gone: the other device, and the old cookie replayed.
    expectApiError(await phone.get('/api/me'), 401, 'auth.unauthenticated');
    const replayed = await fetch(`${server.url}/api/me`, { headers: { cookie: oldCookie } });
    expect(replayed.status).toBe(401);
    expect(
      (
        await createClient(server.url).post('/api/auth/sign-in/email', {
          email: tutor.email,
          password: tutor.password,
        })
      ).status,
    ).toBe(401);

    // The address is free: signing up again makes a new student account with nothing from before.
    const again = await signUpAndVerify(server, smtp, { email: tutor.email, password: 'a brand new passphrase' });
    const client = await logIn(server, again);
    const me = (await client.get('/api/me')).body;
    expect(me).toMatchObject({ email: tutor.email, role: 'student', categories: [] });
    expect(me.id).not.toBe(tutor.id);
    expect((await client.get('/api/me/enrolments')).body.enrolments).toEqual([]);
  });

  test('leaves everyone else’s account and enrolments as they were', async () => {
    const leaving = await signInAs(server, 'student');
    const staying = await signInAs(server, 'student');
    const moduleId = bySlug('introduction-to-oop-with-java').id;
    await leaving.client.post('/api/me/enrolments', { moduleId });
    const kept = (await staying.client.post('/api/me/enrolments', { moduleId })).body;

    expect((await leaving.client.delete('/api/me')).status).toBe(200);
    expect((await staying.client.get('/api/me')).status).toBe(200);
    expect((await staying.client.get('/api/me/enrolments')).body.enrolments).toEqual([kept]);
  });

  test('an admin deletes only their own account', async () => {
    const admin = await signInAs(server, 'admin');
    const student = await signInAs(server, 'student');
    expect((await admin.client.delete('/api/me')).status).toBe(200);
    expect((await student.client.get('/api/me')).status).toBe(200);
    expectApiError(await admin.client.get('/api/me'), 401, 'auth.unauthenticated');
  });

  test('needs a session, and is refused from another site, leaving the account as it was', async () => {
    expectApiError(await createClient(server.url).delete('/api/me'), 401, 'auth.unauthenticated');

    const student = await signInAs(server, 'student');
    expectApiError(
      await student.client.delete('/api/me', { headers: { origin: 'https://evil.example' } }),
      403,
      'request.invalid_origin',
    );
    const cookie = `${sessionCookieName}=${student.client.cookies.get(sessionCookieName)}`;
    expect((await fetch(`${server.url}/api/me`, { method: 'DELETE', headers: { cookie } })).status).toBe(403);
    expect((await student.client.get('/api/me')).body.id).toBe(student.id);
  });
});

function sastDate(date: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Johannesburg' }).format(date);
}

describe('export and deletion composed from each feature’s part', () => {
  /** A feature's part that keeps notes in memory, as a stand-in for one that keeps a table. */
  function notesPart(notes: Map<string, string[]>, options: { failErase?: boolean } = {}): PersonalDataPart {
    return {
      exportFor: async (_deps, me) => ({ notes: notes.get(me.id) ?? [] }),
      eraseFor: async (tx, userId) => {
        // Inside the deletion's transaction: what it reads is the transaction's view.
        expect(await tx.repos.accounts.findById(userId)).toBeDefined();
        if (options.failErase) throw new Error('this part could not erase');
        notes.delete(userId);
      },
    };
  }

  test('the export adds each registered part’s keys beside the account’s own', async () => {
    const student = await signInAs(server, 'student');
    const me = (await student.client.get('/api/me')).body;
    const notes = new Map([[student.id, ['Bring past papers']]]);
    const { data } = await exportMyData(server.services.deps, me, [enrolmentsPersonalData, notesPart(notes)]);
    expect(Object.keys(data).sort()).toEqual(['account', 'emails', 'enrolments', 'exportedAt', 'notes', 'sessions']);
    expect(data).toMatchObject({ notes: ['Bring past papers'], enrolments: [] });
  });

  test('deletion runs every part, then removes the account', async () => {
    const student = await signInAs(server, 'student');
    const me = (await student.client.get('/api/me')).body;
    await student.client.post('/api/me/enrolments', { moduleId: bySlug('introduction-to-statistics').id });
    const notes = new Map([[student.id, ['Bring past papers']]]);
    await deleteMyAccount(server.services.deps, me, [enrolmentsPersonalData, notesPart(notes)]);
    expect(notes.has(student.id)).toBe(false);
    expect(await server.services.deps.repos.profile.enrolmentsOf(student.id)).toEqual([]);
    expectApiError(await student.client.get('/api/me'), 401, 'auth.unauthenticated');
  });

  test('when one part cannot erase, nothing is deleted: the account and its enrolments stay', async () => {
    const student = await signInAs(server, 'student');
    const me = (await student.client.get('/api/me')).body;
    await student.client.post('/api/me/enrolments', { moduleId: bySlug('introduction-to-statistics').id });
    const notes = new Map([[student.id, ['Bring past papers']]]);
    await expectNoEnrolmentChanged(async () => {
      await expect(
        deleteMyAccount(server.services.deps, me, [enrolmentsPersonalData, notesPart(notes, { failErase: true })]),
      ).rejects.toThrow('this part could not erase');
    });
    expect((await student.client.get('/api/me')).body.id).toBe(student.id);
  });
});
