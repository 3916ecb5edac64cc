import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { accessChanged } from './events.ts';
import { removeStaff } from '../modules/staff/staff.usecases.ts';
import { changeOf, openEventStream, type StreamMessage, type TestEventStream } from '../test/event-stream.ts';
import { runCli, startProcessBeside } from '../test/main-process.ts';
import {
  withCookiesOf,
  logIn,
  signInAs,
  startSmtpServer,
  startTestServer,
  waitFor,
  type TestClient,
  type TestServer,
  type TestSmtpServer,
} from '../test/harness.ts';

// Issue 19, point 17: an open stream keeps no rights its session no longer has.

let smtp: TestSmtpServer;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  // Streams check their session by themselves only every minute here: what ends them sooner is a notice.
  server = await startTestServer({ smtpUrl: smtp.url, eventsHeartbeatMs: 150 });
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const isChange = (m: StreamMessage) => m.event === 'change';
const isReady = (m: StreamMessage) => m.event === 'ready';

/** Whether the server ended the stream within `ms` (a browser then reconnects with the cookie it has now). */
async function endsWithin(stream: TestEventStream, ms: number): Promise<boolean> {
  return Promise.race([stream.ended, new Promise<false>((resolve) => setTimeout(() => resolve(false), ms))]);
}

/** The table of the first change `stream` hears after a notice for `audience` and then a public one. */
async function hearsPrivate(target: TestServer, stream: TestEventStream, userId: string): Promise<boolean> {
  target.services.bus.publish({
    table: 'bookings',
    ids: ['b-private'],
    audience: { userIds: [userId], tutorCategories: ['Mathematics'] },
  });
  target.services.bus.publish({ table: 'modules', ids: ['m-public'], audience: 'everyone' });
  return changeOf(await stream.next(isChange)).table === 'bookings';
}

/** Whether a new stream opened with `client`'s cookie (the browser's reconnect) still hears `userId`'s notices. */
async function reconnectHearsPrivate(client: TestClient, userId: string): Promise<boolean> {
  const again = await openEventStream(client);
  try {
    await again.next(isReady);
    return await hearsPrivate(server, again, userId);
  } finally {
    again.abort();
  }
}

describe('open streams end when their access does', () => {
  test("signing out ends that session's streams, not the user's other sessions'; the old cookie hears as a visitor", async () => {
    const student = await signInAs(server, 'student');
    const otherDevice = await logIn(server, student);
    const stolen = withCookiesOf(student.client);
    const here = await openEventStream(student.client);
    const there = await openEventStream(otherDevice);
    try {
      await Promise.all([here.next(isReady), there.next(isReady)]);
      expect((await student.client.post('/api/auth/sign-out', {})).status).toBe(200);
      expect(await endsWithin(here, 2_000)).toBe(true);
      // The other device is still signed in and still hears the student's own notices.
      expect(await endsWithin(there, 300)).toBe(false);
      expect(await hearsPrivate(server, there, student.id)).toBe(true);
      // Reconnecting with the signed-out cookie gives a visitor's stream.
      expect(await reconnectHearsPrivate(stolen, student.id)).toBe(false);
    } finally {
      here.abort();
      there.abort();
    }
  });

  test('a tutor removed from the staff stops hearing the category at once: the stream ends, the next is a student’s', async () => {
    const tutor = await signInAs(server, 'tutor', { categories: ['Mathematics'] });
    const stream = await openEventStream(tutor.client);
    try {
      await stream.next(isReady);
      expect(await hearsPrivate(server, stream, 'someone-else')).toBe(true);
      // What `npm run cli -- staff remove` runs (in this process here; in another one below).
      await removeStaff(server.services.deps, tutor.email);
      expect(await endsWithin(stream, 2_000)).toBe(true);
      expect(await reconnectHearsPrivate(tutor.client, 'someone-else')).toBe(false);
      expect((await tutor.client.get('/api/me')).body).toMatchObject({ role: 'student', categories: [] });
    } finally {
      stream.abort();
    }
  });

  test('deleting the account ends its streams', async () => {
    const student = await signInAs(server, 'student');
    const stolen = withCookiesOf(student.client);
    const stream = await openEventStream(student.client);
    try {
      await stream.next(isReady);
      expect((await student.client.delete('/api/me')).status).toBe(200);
      expect(await endsWithin(stream, 2_000)).toBe(true);
      expect(await reconnectHearsPrivate(stolen, student.id)).toBe(false);
    } finally {
      stream.abort();
    }
  });

  test('a stream whose access is unchanged stays open when it is checked, and keeps hearing', async () => {
    const tutor = await signInAs(server, 'tutor', { categories: ['Mathematics'] });
    const stream = await openEventStream(tutor.client);
    try {
      await stream.next(isReady);
      server.services.bus.publish(accessChanged([tutor.id]));
      expect(await endsWithin(stream, 500)).toBe(false);
      expect(await hearsPrivate(server, stream, 'someone-else')).toBe(true);
    } finally {
      stream.abort();
    }
  });
});

/** `npm run cli -- <args>` as its own process, on `target`'s data. */
const cli = (target: TestServer, args: string[]) => runCli(args, target.envVars);

// eslint-disable-next-line no-restricted-properties -- a test setting, as in harness.ts
const postgresUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(postgresUrl)('the CLI on SQLite, a process without the bus', () => {
  let checking: TestServer;
  beforeAll(async () => {
    checking = await startTestServer({ smtpUrl: smtp.url, eventsHeartbeatMs: 150, eventsRecheckMs: 300 });
  });
  afterAll(async () => checking?.close());

  test('`staff remove` in another process ends the tutor’s stream at its next check of the session', async () => {
    const tutor = await signInAs(checking, 'tutor', { categories: ['Mathematics'] });
    const stream = await openEventStream(tutor.client);
    try {
      await stream.next(isReady);
      const removed = await cli(checking, ['staff', 'remove', tutor.email]);
      expect(removed.stdout.trim()).toBe(`${tutor.email} is now a student.`);
      expect(await endsWithin(stream, 3_000)).toBe(true);
    } finally {
      stream.abort();
    }
  });
});

describe.runIf(postgresUrl)('across processes (PostgreSQL)', () => {
  let second: Awaited<ReturnType<typeof startProcessBeside>>;

  beforeAll(async () => {
    second = await startProcessBeside(server);
  });
  afterAll(async () => second?.stop());

  test('`npm run cli -- staff remove` ends the tutor’s streams in every server process at once', async () => {
    const tutor = await signInAs(server, 'tutor', { categories: ['Mathematics'] });
    const here = await openEventStream(tutor.client);
    const there = await openEventStream(withCookiesOf(tutor.client, second.url));
    try {
      await Promise.all([here.next(isReady), there.next(isReady)]);
      // The second process hears the category's notices, published by the first.
      expect(await hearsPrivate(server, there, 'someone-else')).toBe(true);
      const removed = await cli(server, ['staff', 'remove', tutor.email]);
      expect(removed.stdout.trim()).toBe(`${tutor.email} is now a student.`);
      // Streams check themselves only every minute: this is the CLI's notice, through LISTEN/NOTIFY.
      expect(await endsWithin(here, 5_000)).toBe(true);
      expect(await endsWithin(there, 5_000)).toBe(true);
      expect(await reconnectHearsPrivate(withCookiesOf(tutor.client, second.url), 'someone-else')).toBe(false);
    } finally {
      here.abort();
      there.abort();
    }
  });

  test('signing out in one process ends the stream that session holds in another', async () => {
    const student = await signInAs(server, 'student');
    const there = await openEventStream(withCookiesOf(student.client, second.url));
    try {
      await there.next(isReady);
      expect((await student.client.post('/api/auth/sign-out', {})).status).toBe(200);
      expect(await endsWithin(there, 5_000)).toBe(true);
    } finally {
      there.abort();
    }
  });
});

describe('how many streams one user and one address may hold', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({
      smtpUrl: smtp.url,
      env: { EVENT_STREAMS_PER_USER: '2', EVENT_STREAMS_PER_ADDRESS: '3' },
    });
  });
  afterAll(async () => {
    await limited?.close();
  });

  /** GET /api/events as `client` (or a visitor) when the server refuses it: the answer, read whole. */
  const refused = async (client?: TestClient) => {
    const cookie = client && [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(new URL('/api/events', limited.url), {
      headers: { accept: 'text/event-stream', ...(cookie && { cookie }) },
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
  };
  const tooMany = {
    status: 429,
    retryAfter: '60',
    body: {
      error: {
        code: 'events.too_many_streams',
        message: 'Too many live connections are open. Close some tabs or devices and try again.',
      },
    },
  };

  test('more than EVENT_STREAMS_PER_USER, or EVENT_STREAMS_PER_ADDRESS, get 429 with Retry-After; a closed one makes room', async () => {
    const student = await signInAs(limited, 'student');
    const opened: TestEventStream[] = [];
    try {
      for (let i = 0; i < 2; i++) opened.push(await openEventStream(student.client));
      expect(await refused(student.client)).toEqual(tooMany);
      // The address's visitors have room of their own: three.
      for (let i = 0; i < 3; i++) opened.push(await openEventStream(limited));
      expect(await refused()).toEqual(tooMany);

      // A tab closing gives its place back.
      opened.shift()!.abort();
      const again = await waitFor(
        () => openEventStream(student.client).catch(() => undefined),
        'a stream once one was closed',
      );
      opened.push(again);
      await again.next(isReady);
    } finally {
      for (const stream of opened) stream.abort();
    }
  });

  test("visitors filling their address's streams never cost a signed-in user their live updates", async () => {
    const opened: TestEventStream[] = [];
    try {
      // Everyone here is on one address (127.0.0.1), as a campus is. (The last test's streams may still be closing.)
      for (let i = 0; i < 3; i++) {
        opened.push(await waitFor(() => openEventStream(limited).catch(() => undefined), "a visitor's stream"));
      }
      expect(await refused()).toEqual(tooMany);
      const [student, tutor] = await Promise.all([signInAs(limited, 'student'), signInAs(limited, 'tutor')]);
      for (const client of [student.client, student.client, tutor.client]) {
        const stream = await openEventStream(client);
        opened.push(stream);
        await stream.next(isReady);
      }
    } finally {
      for (const stream of opened) stream.abort();
    }
  });
});
