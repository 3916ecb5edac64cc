import type { Server } from 'node:http';
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sastDate } from '../../common/sast.ts';
import { loadEnv } from '../env.ts';
import { createHttpServer } from '../http/node-server.ts';
import { createServices, type Services } from '../server.ts';
import { changeOf, openEventStream, type StreamMessage } from '../test/event-stream.ts';
import { startMainProcess } from '../test/main-process.ts';
import {
  createClient,
  signInAs,
  startSmtpServer,
  startTestServer,
  waitFor,
  type TestServer,
  type TestSmtpServer,
} from '../test/harness.ts';
import { deadline } from '../test/deadline.ts';

let smtp: TestSmtpServer;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ smtpUrl: smtp.url, eventsHeartbeatMs: 150 });
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const visitor = () => ({ url: server.url });
const isChange = (m: StreamMessage) => m.event === 'change';
const isReady = (m: StreamMessage) => m.event === 'ready';

describe('live events', () => {
  test('a visitor can open the stream: no caching, no proxy buffering, a reconnect hint and regular heartbeats', async () => {
    const opened = Date.now();
    const stream = await openEventStream(visitor());
    try {
      expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(stream.response.headers.get('cache-control')).toBe('no-store');
      expect(stream.response.headers.get('x-accel-buffering')).toBe('no');
      const hint = await stream.next();
      expect(hint.retry).toBeGreaterThan(0);
      for (let i = 0; i < 3; i++) await stream.next((m) => m.event === 'comment');
      // Every 112.5 to 150 ms here (each stream draws its period, stream-hub.ts), so the third cannot come before
      // 337.5 ms (timers never fire early).
      expect(Date.now() - opened).toBeGreaterThanOrEqual(330);
    } finally {
      stream.abort();
    }
  });

  test('a public notice reaches an open stream with its id, the table and the ids, and never its audience', async () => {
    const stream = await openEventStream(visitor());
    try {
      await stream.next();
      server.services.bus.publish({ table: 'questions', ids: ['q1', 'q2'], audience: 'everyone' });
      const message = await stream.next(isChange);
      expect(JSON.parse(message.data)).toEqual({ table: 'questions', ids: ['q1', 'q2'] });
      expect(message.id).toMatch(/\S/);
    } finally {
      stream.abort();
    }
  });

  test('a change notice carries the version its change committed at: a booking request, a question, a vote', async () => {
    const [admin, student] = await Promise.all([signInAs(server, 'admin'), signInAs(server, 'student')]);
    const stream = await openEventStream(admin.client);
    const changeTo = async (table: string, id: string) => {
      for (;;) {
        const change = changeOf(await stream.next(isChange));
        if (change.table === table && change.ids.includes(id)) return change;
      }
    };
    try {
      await stream.next((m) => m.event === 'ready');
      const booked = await student.client.post('/api/bookings', {
        id: crypto.randomUUID(),
        module: 'Introduction to Statistics',
        date: sastDate(new Date(Date.now() + 10 * 24 * 3_600_000)),
        slots: ['09:00', '14:00', '17:30'],
        hours: 2,
        concepts: 'Hypothesis testing',
      });
      expect(booked.status, booked.text).toBe(201);
      expect(await changeTo('bookings', booked.body.id)).toEqual({
        table: 'bookings',
        ids: [booked.body.id],
        version: booked.body.version,
      });

      const asked = await student.client.post('/api/questions', { id: crypto.randomUUID(), title: 'T', text: 'X' });
      expect(asked.status, asked.text).toBe(201);
      const questionId: string = asked.body.id;
      expect((await changeTo('questions', questionId)).version).toBe(asked.body.version);
      const voted = await admin.client.request(`/api/questions/${questionId}/vote`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ value: 1 }),
      });
      expect(voted.status, voted.text).toBe(200);
      expect(voted.body.version).toBeGreaterThan(asked.body.version);
      expect(await changeTo('questions', questionId)).toEqual({
        table: 'questions',
        ids: [questionId],
        version: voted.body.version,
      });
    } finally {
      stream.abort();
    }
  });

  test('a notice for one user reaches that user and the admins, not visitors, other students or tutors of other subjects', async () => {
    const student = await signInAs(server, 'student');
    const otherStudent = await signInAs(server, 'student');
    const admin = await signInAs(server, 'admin');
    const mathsTutor = await signInAs(server, 'tutor', { categories: ['Mathematics'] });
    const csTutor = await signInAs(server, 'tutor', { categories: ['Computer Science'] });
    const streams = {
      student: await openEventStream(student.client),
      otherStudent: await openEventStream(otherStudent.client),
      admin: await openEventStream(admin.client),
      mathsTutor: await openEventStream(mathsTutor.client),
      csTutor: await openEventStream(csTutor.client),
      visitor: await openEventStream(visitor()),
    };
    try {
      server.services.bus.publish({
        table: 'bookings',
        ids: ['b1'],
        audience: { userIds: [student.id], roles: ['admin'], tutorCategories: ['Mathematics'] },
      });
      // A public notice after it: whoever hears this first did not hear the first one.
      server.services.bus.publish({ table: 'modules', ids: ['m1'], audience: 'everyone' });
      const firstHeard = async (name: keyof typeof streams) => changeOf(await streams[name].next(isChange)).table;
      expect(await firstHeard('student')).toBe('bookings');
      expect(await firstHeard('admin')).toBe('bookings');
      expect(await firstHeard('mathsTutor')).toBe('bookings');
      expect(await firstHeard('otherStudent')).toBe('modules');
      expect(await firstHeard('csTutor')).toBe('modules');
      expect(await firstHeard('visitor')).toBe('modules');
    } finally {
      for (const stream of Object.values(streams)) stream.abort();
    }
  });

  test('a browser that reconnects with Last-Event-ID gets what it missed, and only what it may hear', async () => {
    const student = await signInAs(server, 'student');
    const first = await openEventStream(student.client);
    server.services.bus.publish({ table: 'questions', ids: ['before'], audience: 'everyone' });
    const seen = await first.next(isChange);
    first.abort();
    await waitFor(async () => server.services.streamHub.openStreams() === 0, 'the stream to close');

    server.services.bus.publish({ table: 'questions', ids: ['missed'], audience: 'everyone' });
    server.services.bus.publish({ table: 'bookings', ids: ['not-yours'], audience: { userIds: ['someone-else'] } });
    server.services.bus.publish({ table: 'bookings', ids: ['yours'], audience: { userIds: [student.id] } });

    const again = await openEventStream(student.client, { lastEventId: seen.id });
    try {
      // Its ready names no id: the browser's resume point stays where it was until the replay has come.
      expect((await again.next(isReady)).id).toBeUndefined();
      const replayed = [changeOf(await again.next(isChange)), changeOf(await again.next(isChange))];
      expect(replayed).toEqual([
        { table: 'questions', ids: ['missed'] },
        { table: 'bookings', ids: ['yours'] },
      ]);
      // Nothing else was waiting: the next change is a new one.
      server.services.bus.publish({ table: 'modules', ids: ['new'], audience: 'everyone' });
      expect(changeOf(await again.next(isChange))).toEqual({ table: 'modules', ids: ['new'] });
    } finally {
      again.abort();
    }
  });

  test('a Last-Event-ID the server does not know (another process, a restart) gets one resync', async () => {
    const stream = await openEventStream(visitor(), { lastEventId: 'elsewhere-42' });
    try {
      const first = await stream.next((m) => !['comment', 'ready'].includes(m.event) && m.retry === undefined);
      expect(first.event).toBe('resync');
      server.services.bus.publish({ table: 'modules', ids: ['m2'], audience: 'everyone' });
      expect(changeOf(await stream.next((m) => m.event !== 'comment'))).toEqual({ table: 'modules', ids: ['m2'] });
    } finally {
      stream.abort();
    }
  });

  test("a stream is told the position it opened at; every read carries where its reader's notices stood as it began, moving with each they hear", async () => {
    const student = await signInAs(server, 'student');
    const positionOf = async (path: string) => {
      const response = await student.client.get(path);
      expect(response.status).toBe(200);
      return response.headers.get('live-position')!;
    };
    const stream = await openEventStream(student.client);
    try {
      const opened = (JSON.parse((await stream.next((m) => m.event === 'ready')).data) as { position: string })
        .position;
      expect(opened).toMatch(/\S/);
      // The catalogue is answered before Hono (prepared-answers.ts), for everyone alike: a visitor's position,
      // the start of the student's. The board is read as the student: their whole position.
      const publicAtOpen = await positionOf('/api/modules');
      expect(opened.startsWith(`${publicAtOpen}.`)).toBe(true);
      expect(await positionOf('/api/questions')).toBe(opened);

      server.services.bus.publish({ table: 'questions', ids: ['q-moved'], audience: 'everyone' });
      await stream.next(isChange);
      const publicMoved = await positionOf('/api/modules');
      expect(publicMoved).not.toBe(publicAtOpen);
      const moved = await positionOf('/api/questions');
      expect(moved.startsWith(`${publicMoved}.`)).toBe(true);

      // The student's own notice moves their position, not the public one.
      server.services.bus.publish({ table: 'bookings', ids: ['b-own'], audience: { userIds: [student.id] } });
      await stream.next(isChange);
      expect(await positionOf('/api/modules')).toBe(publicMoved);
      const own = await positionOf('/api/questions');
      expect(own).not.toBe(moved);
      expect(own.startsWith(`${publicMoved}.`)).toBe(true);

      const later = await openEventStream(student.client);
      const ready = await later.next((m) => m.event === 'ready');
      later.abort();
      expect(JSON.parse(ready.data)).toEqual({ position: own });
    } finally {
      stream.abort();
    }
  });

  test('positions and event ids tell a reader nothing of the notices they may not hear', async () => {
    const student = await signInAs(server, 'student');
    const otherStudent = await signInAs(server, 'student');
    const admin = await signInAs(server, 'admin');
    const mathsTutor = await signInAs(server, 'tutor', { categories: ['Mathematics'] });
    const csTutor = await signInAs(server, 'tutor', { categories: ['Computer Science'] });
    const visitorClient = createClient(server.url);
    const readers = { student, otherStudent, admin, mathsTutor, csTutor, visitor: { client: visitorClient } };
    const positions = async () =>
      Object.fromEntries(
        await Promise.all(
          Object.entries(readers).map(async ([name, { client }]) => {
            const [board, catalogue] = await Promise.all([client.get('/api/questions'), client.get('/api/modules')]);
            return [name, `${board.headers.get('live-position')} ${catalogue.headers.get('live-position')}`];
          }),
        ),
      ) as Record<keyof typeof readers, string>;
    const stream = await openEventStream(visitor());
    try {
      server.services.bus.publish({ table: 'questions', ids: ['q-first'], audience: 'everyone' });
      const first = await stream.next(isChange);
      const before = await positions();
      // A burst of booking activity, none of it the visitor's, the other student's or the CS tutor's.
      for (let i = 0; i < 5; i++)
        server.services.bus.publish({
          table: 'bookings',
          ids: [`b-private-${i}`],
          audience: { userIds: [student.id], roles: ['admin'], tutorCategories: ['Mathematics'] },
        });
      // A stream that resumes with an id this process does not know is told to resync: the id it is given
      // is the newest it may hear, not the newest booking's.
      const resumed = await openEventStream(visitor(), { lastEventId: 'elsewhere-1' });
      const resync = await resumed.next((m) => m.event === 'resync');
      resumed.abort();
      expect(resync.id).toBe(first.id);
      // A new stream's ready names the newest event its reader hears, to resume from: never a booking's.
      const fresh = await openEventStream(visitor());
      const ready = await fresh.next(isReady);
      fresh.abort();
      expect(ready.id).toBe(first.id);
      const after = await positions();
      expect(after.visitor).toBe(before.visitor);
      expect(after.otherStudent).toBe(before.otherStudent);
      expect(after.csTutor).toBe(before.csTutor);
      expect(after.student).not.toBe(before.student);
      expect(after.admin).not.toBe(before.admin);
      expect(after.mathsTutor).not.toBe(before.mathsTutor);

      // Nor do the ids on a stream count what came between two notices it heard.
      server.services.bus.publish({ table: 'questions', ids: ['q-second'], audience: 'everyone' });
      const second = await stream.next(isChange);
      for (const id of [first.id, second.id]) expect(id).toMatch(/^[0-9a-f]{8}-[\w-]{12}$/);
    } finally {
      stream.abort();
    }
  });

  test('a client that goes away releases its place at once', async () => {
    const hub = server.services.streamHub;
    // Streams of earlier tests, already aborted, may still be on their way out.
    await waitFor(async () => hub.openStreams() === 0, 'earlier streams to close', 2_000);
    const stream = await openEventStream(visitor());
    await stream.next();
    expect(hub.openStreams()).toBe(1);
    stream.abort();
    await waitFor(async () => hub.openStreams() === 0, 'the hub to let the stream go', 2_000);
  });

  test('a client that stops reading does not hold up the others, and later gets a resync instead of the backlog', async () => {
    const slow = await openStalledStream(server.url);
    const fast = await openEventStream(visitor());
    try {
      await fast.next();
      // About 6 KB each (one NOTIFY on PostgreSQL), 6 MB in all: more than the sockets between them buffer.
      const count = 1_000;
      // Held up, the fast reader would wait once the slow one's buffers are full: the longest wait for one notice
      // says so, where the whole run's time also measures the machine (on the emulator, beside two other test
      // runs, it once took 106 s, each notice arriving in turn).
      let longestWait = 0;
      for (let i = 0; i < count; i++) {
        const sent = Date.now();
        server.services.bus.publish({
          table: `table-${i % 3}`,
          ids: Array.from({ length: 150 }, (_, j) => `${i}-${j}-${'x'.repeat(32)}`),
          audience: 'everyone',
        });
        expect(changeOf(await fast.next(isChange)).ids[0]).toBe(`${i}-0-${'x'.repeat(32)}`);
        longestWait = Math.max(longestWait, Date.now() - sent);
      }
      // A guard against the slow reader holding the others up, not a measure of speed: scaled (deadline.ts).
      expect(longestWait).toBeLessThan(deadline(5_000));

      const backlog = await slow.resume();
      expect(backlog).toContain('event: resync');
      expect(backlog.split('event: change').length - 1).toBeLessThan(count);
    } finally {
      slow.close();
      fast.abort();
    }
  });
});

describe('shutting down', () => {
  test('closing every stream ends them cleanly and at once, and a stream opened afterwards ends at once', async () => {
    const own = await startTestServer({ smtpUrl: smtp.url });
    try {
      const streams = await Promise.all([openEventStream({ url: own.url }), openEventStream({ url: own.url })]);
      await Promise.all(streams.map((s) => s.next()));
      const started = Date.now();
      await own.services.streamHub.closeAll();
      expect(await Promise.all(streams.map((s) => s.ended))).toEqual([true, true]);
      expect(Date.now() - started).toBeLessThan(500);
      expect(own.services.streamHub.openStreams()).toBe(0);
      const late = await openEventStream({ url: own.url });
      expect(await late.ended).toBe(true);
    } finally {
      await own.close();
    }
  });

  test('the server stops promptly on SIGTERM while event streams are open', async () => {
    const main = await startMainProcess();
    try {
      const streams = await Promise.all([1, 2, 3].map(() => openEventStream({ url: main.url })));
      await Promise.all(streams.map((s) => s.next()));
      const stoppedAt = Date.now();
      expect(await main.terminate()).toBe(0);
      expect(Date.now() - stoppedAt).toBeLessThan(1_500);
      expect(await Promise.all(streams.map((s) => s.ended))).toEqual([true, true, true]);
    } finally {
      await main.stop();
    }
  });
});

// Across processes on Firestore: firestore-bus.test.ts and firestore-server.test.ts.
// eslint-disable-next-line no-restricted-properties -- a test setting, as in harness.ts
const onPostgres = /^postgres(ql)?:/.test(process.env.TEST_DATABASE_URL ?? '');

describe.runIf(onPostgres)('live events across processes (PostgreSQL)', () => {
  let second: { services: Services; url: string; http: Server };

  beforeAll(async () => {
    // A second process on the same database: its own services, bus and HTTP server.
    const services = await createServices(loadEnv({ ...server.envVars, PORT: '0' }), { eventsHeartbeatMs: 150 });
    const http = createHttpServer(services.app.fetch, { production: false, prepared: services.prepared });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    second = { services, http, url: `http://127.0.0.1:${(http.address() as net.AddressInfo).port}` };
  });

  afterAll(async () => {
    if (!second) return;
    await new Promise<void>((resolve) => {
      second.http.close(() => resolve());
      second.http.closeAllConnections();
    });
    await second.services.close();
  });

  test('a notice published in one process reaches the streams of both', async () => {
    const here = await openEventStream(visitor());
    const there = await openEventStream({ url: second.url });
    try {
      await Promise.all([here.next(), there.next()]);
      server.services.bus.publish({ table: 'questions', ids: ['q-across'], audience: 'everyone', version: 41 });
      expect(changeOf(await there.next(isChange))).toEqual({ table: 'questions', ids: ['q-across'], version: 41 });
      // The publisher hears it through LISTEN too, once.
      expect(changeOf(await here.next(isChange))).toEqual({ table: 'questions', ids: ['q-across'], version: 41 });
      second.services.bus.publish({ table: 'questions', ids: ['q-back'], audience: 'everyone' });
      expect(changeOf(await here.next(isChange))).toEqual({ table: 'questions', ids: ['q-back'] });
    } finally {
      here.abort();
      there.abort();
    }
  });

  test('a notice too big for one NOTIFY arrives whole, in parts', async () => {
    const there = await openEventStream({ url: second.url });
    try {
      await there.next();
      const ids = Array.from({ length: 1_000 }, () => crypto.randomUUID());
      server.services.bus.publish({ table: 'questions', ids, audience: 'everyone' });
      const wanted = new Set<string>(ids);
      const received = new Set<string>();
      // Only this notice's ids: a notice from an earlier test may still be on its way.
      while (received.size < ids.length)
        for (const id of changeOf(await there.next(isChange)).ids) if (wanted.has(id)) received.add(id);
      expect([...received].sort()).toEqual([...ids].sort());
    } finally {
      there.abort();
    }
  });

  test('when the listening connection is cut, streams are told to resync and later notices still arrive', async () => {
    const student = await signInAs(server, 'student');
    const streams = [await openEventStream(visitor()), await openEventStream(student.client)];
    const admin = new pg.Client({ connectionString: server.envVars.DATABASE_URL });
    await admin.connect();
    try {
      const [atStart] = await Promise.all(streams.map((s) => s.next((m) => m.event === 'ready')));
      const { rowCount } = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
      );
      expect(rowCount).toBe(2);
      // Every open stream, whoever it belongs to: notices sent during the gap are gone.
      for (const stream of streams)
        expect((await stream.next((m) => !['comment', 'ready'].includes(m.event), 10_000)).event).toBe('resync');
      // So a read from before the gap no longer matches the position of a stream opened after it.
      const after = await openEventStream(visitor());
      const ready = await after.next((m) => m.event === 'ready');
      after.abort();
      expect(ready.data).not.toBe(atStart!.data);
      second.services.bus.publish({ table: 'questions', ids: ['after-the-cut'], audience: 'everyone' });
      for (const stream of streams)
        expect(changeOf(await stream.next(isChange))).toEqual({ table: 'questions', ids: ['after-the-cut'] });
    } finally {
      for (const stream of streams) stream.abort();
      await admin.end();
    }
  });
});

/** A raw connection that sends the request and then reads nothing until `resume`. */
async function openStalledStream(baseUrl: string): Promise<{ resume(): Promise<string>; close(): void }> {
  const { port } = new URL(baseUrl);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  await waitFor(async () => received.includes('retry:'), 'the stalled stream to open');
  socket.pause();
  return {
    async resume() {
      socket.resume();
      await waitFor(async () => received.includes('event: resync'), 'the backlog to drain', 10_000);
      return received;
    },
    close: () => socket.destroy(),
  };
}
