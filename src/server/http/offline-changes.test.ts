import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { qaLimits, qaMessages } from '../../common/qa.ts';
import { sastDate } from '../../common/sast.ts';
import {
  createClient,
  createVerifiedUser,
  expectApiError,
  delay,
  logIn,
  startSmtpServer,
  startTestServer,
  type TestClient,
  type TestResponse,
  type TestServer,
  type TestSmtpServer,
  waitFor,
} from '../test/harness.ts';
import { storedRefusals as storedRefusalsOf } from '../test/stored.ts';

let smtp: TestSmtpServer;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  // The logs tell when a request the client broke off has been dealt with.
  server = await startTestServer({ smtpUrl: smtp.url, captureLogs: true });
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const day = 24 * 3_600_000;

async function newUser() {
  const account = await createVerifiedUser(server);
  return { ...account, client: await logIn(server, account) };
}
type User = Awaited<ReturnType<typeof newUser>>;

/** A change as the offline engine sends it: its user and change id in the headers (either may be left out). */
function send(
  client: TestClient,
  method: 'POST' | 'PUT',
  path: string,
  body: unknown,
  change: { id?: string; user?: string } = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (change.id !== undefined) headers['change-id'] = change.id;
  if (change.user !== undefined) headers['change-user'] = change.user;
  return client.request(path, { method, headers, body: JSON.stringify(body) });
}

const newChangeId = () => `change-${crypto.randomUUID()}`;

const question = (id: string = crypto.randomUUID()) => ({
  id,
  title: 'Why is my loop infinite?',
  text: 'while (i < 10) {}',
});
const booking = (fields: Record<string, unknown> = {}) => ({
  id: crypto.randomUUID(),
  module: 'Introduction to Statistics',
  date: sastDate(new Date(Date.now() + 10 * day)),
  slots: ['09:00', '14:00', '17:30'],
  hours: 2,
  concepts: 'Hypothesis testing',
  ...fields,
});

const storedRefusals = (userId: string) => storedRefusalsOf(server.services, userId);

/** 1 when the question, answer or booking is stored, 0 when not. */
async function countRows(table: 'questions' | 'answers' | 'bookings', id: string) {
  const repos = server.services.deps.repos;
  const found =
    table === 'questions'
      ? await repos.qa.findQuestion(id)
      : table === 'answers'
        ? await repos.qa.findAnswer(id)
        : await repos.bookings.findById(id);
  return found ? 1 : 0;
}

/** Runs `work` with the server's clock at `time`. */
async function at<T>(time: number, work: () => Promise<T>): Promise<T> {
  const clock = server.services.deps.clock;
  const real = clock.now;
  clock.now = () => new Date(time);
  try {
    return await work();
  } finally {
    clock.now = real;
  }
}

describe('a refused change sent again', () => {
  test('an answer refused because its question did not exist is refused the same way once it does; a new change id goes through', async () => {
    const { id, client } = await newUser();
    const questionId = crypto.randomUUID();
    const changeId = newChangeId();
    const answer = { id: crypto.randomUUID(), text: 'Use a for loop.' };
    const path = `/api/questions/${questionId}/answers`;

    const refused = await send(client, 'POST', path, answer, { id: changeId, user: id });
    expectApiError(refused, 404, 'qa.not_found');
    expect(await send(client, 'POST', '/api/questions', question(questionId))).toMatchObject({ status: 201 });

    const again = await send(client, 'POST', path, answer, { id: changeId, user: id });
    expect(again.status).toBe(404);
    expect(again.text).toBe(refused.text);
    expect(again.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await countRows('answers', answer.id)).toBe(0);

    const fresh = await send(client, 'POST', path, answer, { id: newChangeId(), user: id });
    expect(fresh.status, fresh.text).toBe(201);
    expect(await countRows('answers', answer.id)).toBe(1);
  });

  type Change = { id: string; user: string };
  const cases: {
    route: string;
    /** Sends the change so that it is refused. */
    refuse(u: User, change: Change, questionId: string): Promise<TestResponse>;
    /** Sends it again once it would no longer be refused (or as it should have been). */
    retry(u: User, change: Change, questionId: string): Promise<TestResponse>;
    refusal: [number, string];
    success: number;
  }[] = [
    {
      route: 'POST /api/questions',
      refuse: (u, change) => send(u.client, 'POST', '/api/questions', { ...question(), title: '' }, change),
      retry: (u, change) => send(u.client, 'POST', '/api/questions', question(), change),
      refusal: [400, 'request.invalid'],
      success: 201,
    },
    {
      route: 'PUT /api/questions/:id/vote',
      refuse: (u, change, questionId) =>
        send(u.client, 'PUT', `/api/questions/${questionId}/vote`, { value: 1 }, change),
      retry: async (u, change, questionId) => {
        await send(u.client, 'POST', '/api/questions', question(questionId));
        return send(u.client, 'PUT', `/api/questions/${questionId}/vote`, { value: 1 }, change);
      },
      refusal: [404, 'qa.not_found'],
      success: 200,
    },
    {
      route: 'POST /api/bookings',
      refuse: (u, change) => send(u.client, 'POST', '/api/bookings', booking({ date: sastDate(new Date()) }), change),
      retry: (u, change) => send(u.client, 'POST', '/api/bookings', booking(), change),
      refusal: [400, 'bookings.too_soon'],
      success: 201,
    },
  ];
  test.each(cases)('$route: the same change id gets the stored refusal, a new one runs', async (c) => {
    const user = await newUser();
    const questionId = crypto.randomUUID();
    const change = { id: newChangeId(), user: user.id };
    const refused = await c.refuse(user, change, questionId);
    expectApiError(refused, c.refusal[0], c.refusal[1]);
    const again = await c.retry(user, change, questionId);
    expect(again.status).toBe(c.refusal[0]);
    expect(again.text).toBe(refused.text);
    const fresh = await c.retry(user, { id: newChangeId(), user: user.id }, questionId);
    expect(fresh.status, fresh.text).toBe(c.success);
  });

  test("another user's change with the same id is their own", async () => {
    const [first, second] = [await newUser(), await newUser()];
    const changeId = newChangeId();
    const questionId = crypto.randomUUID();
    const path = `/api/questions/${questionId}/answers`;
    const answer = () => ({ id: crypto.randomUUID(), text: 'An answer' });
    expectApiError(await send(first.client, 'POST', path, answer(), { id: changeId }), 404, 'qa.not_found');
    await send(first.client, 'POST', '/api/questions', question(questionId));
    expect((await send(second.client, 'POST', path, answer(), { id: changeId })).status).toBe(201);
    expectApiError(await send(first.client, 'POST', path, answer(), { id: changeId }), 404, 'qa.not_found');
    expect((await storedRefusals(second.id)).length).toBe(0);
  });

  test('the same refused change sent five times at once is stored once, and all five get that refusal', async () => {
    const { id, client } = await newUser();
    const changeId = newChangeId();
    const path = `/api/questions/${crypto.randomUUID()}/answers`;
    // Five connections open first, so the five sends arrive together rather than one per new connection.
    await Promise.all(Array.from({ length: 5 }, () => client.get('/api/questions/my-votes')));
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        send(client, 'POST', path, { id: crypto.randomUUID(), text: 'A' }, { id: changeId }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    expect(new Set(responses.map((r) => r.text)).size).toBe(1);
    expect(await storedRefusals(id)).toEqual([{ changeId, status: 404 }]);
  });
});

describe('which refusals are kept', () => {
  test('a rate limit (429) is not final: the same change goes through once the window has passed', async () => {
    const { id, client } = await newUser();
    for (let i = 0; i < qaLimits.postsPerWindow; i++)
      expect((await send(client, 'POST', '/api/questions', question())).status).toBe(201);
    const changeId = newChangeId();
    const post = question();
    expectApiError(await send(client, 'POST', '/api/questions', post, { id: changeId }), 429, 'qa.rate_limited');
    expect(await storedRefusals(id)).toEqual([]);
    const later = Date.now() + (qaLimits.rateWindowMinutes + 1) * 60_000;
    expect((await at(later, () => send(client, 'POST', '/api/questions', post, { id: changeId }))).status).toBe(201);
  });

  test('a change whose request broke off mid-body was never judged: it is not refused when sent whole', async () => {
    const { id, client } = await newUser();
    const changeId = newChangeId();
    const post = question();
    const before = server.logs.length;
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.on('connect', resolve));
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    socket.write(
      `POST /api/questions HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${server.url}\r\nCookie: ${cookie}\r\n` +
        `Change-Id: ${changeId}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"id":`,
    );
    await delay(100);
    socket.destroy();
    // The request's log line is written once every middleware, this one included, is done with it.
    await waitFor(
      async () => server.logs.slice(before).find((l) => l.path === '/api/questions' && l.status === 400),
      'the broken-off request to be answered',
    );
    expect(await storedRefusals(id)).toEqual([]);
    expect((await send(client, 'POST', '/api/questions', post, { id: changeId })).status).toBe(201);
  });

  test('a refusal is answered again for 30 days; older ones are purged when another is stored', async () => {
    const { id, client } = await newUser();
    const questionId = crypto.randomUUID();
    const path = `/api/questions/${questionId}/answers`;
    const old = newChangeId();
    await at(Date.now() - 31 * day, async () =>
      expectApiError(
        await send(client, 'POST', path, { id: crypto.randomUUID(), text: 'A' }, { id: old }),
        404,
        'qa.not_found',
      ),
    );
    const recent = newChangeId();
    await at(Date.now() - 29 * day, async () =>
      expectApiError(
        await send(client, 'POST', path, { id: crypto.randomUUID(), text: 'B' }, { id: recent }),
        404,
        'qa.not_found',
      ),
    );
    await send(client, 'POST', '/api/questions', question(questionId));
    expect((await send(client, 'POST', path, { id: crypto.randomUUID(), text: 'A' }, { id: old })).status).toBe(201);
    expect((await send(client, 'POST', path, { id: crypto.randomUUID(), text: 'B' }, { id: recent })).status).toBe(404);

    const another = newChangeId();
    await send(client, 'PUT', `/api/questions/${crypto.randomUUID()}/vote`, { value: 1 }, { id: another });
    expect((await storedRefusals(id)).map((r) => r.changeId).sort()).toEqual([another, recent].sort());
  });

  test("an account's refusals go with it", async () => {
    const { id, client } = await newUser();
    await send(client, 'PUT', `/api/questions/${crypto.randomUUID()}/vote`, { value: 1 }, { id: newChangeId() });
    expect(await storedRefusals(id)).toHaveLength(1);
    expect((await client.delete('/api/me')).status).toBe(200);
    expect(await storedRefusals(id)).toEqual([]);
  });
});

describe('a change saved by another account', () => {
  test.each([
    { method: 'POST', route: '/api/questions', body: () => question(), made: 'questions' },
    {
      method: 'POST',
      route: '/api/questions/{q}/answers',
      body: () => ({ id: crypto.randomUUID(), text: 'An answer' }),
      made: 'answers',
    },
    { method: 'PUT', route: '/api/questions/{q}/vote', body: () => ({ value: 1 }), made: 'question_votes' },
    { method: 'POST', route: '/api/bookings', body: () => booking(), made: 'bookings' },
  ] as const)('$method $route is refused 401 auth.other_user, runs nothing and stores nothing', async (c) => {
    const [signedIn, owner] = [await newUser(), await newUser()];
    const asked = await send(signedIn.client, 'POST', '/api/questions', question());
    const path = c.route.replace('{q}', asked.body.id);
    const made = async () =>
      c.made === 'question_votes'
        ? (await server.services.deps.repos.qa.listVotesBy(signedIn.id)).length
        : await countRows(c.made, (sent as { id: string }).id);
    const sent = c.body();
    const changeId = newChangeId();
    const refused = await send(signedIn.client, c.method, path, sent, { id: changeId, user: owner.id });
    expect(expectApiError(refused, 401, 'auth.other_user').message).toBe(
      'This was saved by another account. Log in as that account to send it.',
    );
    expect(await made()).toBe(0);
    expect(await storedRefusals(signedIn.id)).toEqual([]);
    // Sent as the right user under the same change id, it runs: nothing of the 401 was kept.
    const right = await send(signedIn.client, c.method, path, sent, { id: changeId, user: signedIn.id });
    expect(right.status, right.text).toBeLessThan(300);
    expect(await made()).toBe(1);
  });

  test("a visitor still gets the route's own 401, in the spec's words", async () => {
    const visitor = createClient(server.url);
    const asked = await send(visitor, 'POST', '/api/questions', question(), { id: newChangeId(), user: 'someone' });
    expect(expectApiError(asked, 401, 'auth.unauthenticated').message).toBe(qaMessages.askSignedOut);
    const booked = await send(visitor, 'POST', '/api/bookings', booking(), { id: newChangeId(), user: 'someone' });
    expectApiError(booked, 401, 'auth.unauthenticated');
  });
});

describe('the headers themselves', () => {
  test('without them a refused change runs again, as before, and nothing is stored', async () => {
    const { id, client } = await newUser();
    const questionId = crypto.randomUUID();
    const path = `/api/questions/${questionId}/answers`;
    const answer = { id: crypto.randomUUID(), text: 'An answer' };
    expectApiError(await send(client, 'POST', path, answer), 404, 'qa.not_found');
    await send(client, 'POST', '/api/questions', question(questionId));
    expect((await send(client, 'POST', path, answer)).status).toBe(201);
    expect(await storedRefusals(id)).toEqual([]);
  });

  test.each([
    ['empty', ''],
    ['101 characters', 'x'.repeat(101)],
    ['a space', 'two words'],
    ['a tab', 'tab\there'],
    ['a character beyond ASCII', 'caf\u00e9'],
  ])('a Change-Id with %s is 400 request.invalid, and nothing runs', async (_, changeId) => {
    const { client } = await newUser();
    const post = question();
    const refused = await send(client, 'POST', '/api/questions', post, { id: changeId });
    expect(expectApiError(refused, 400, 'request.invalid').message).toMatch(/Change-Id/);
    expect(await countRows('questions', post.id)).toBe(0);
  });

  test('a Change-Id of 100 visible characters is taken', async () => {
    const { client } = await newUser();
    const changeId = '!~'.repeat(50);
    expect((await send(client, 'POST', '/api/questions', question(), { id: changeId })).status).toBe(201);
  });
});
