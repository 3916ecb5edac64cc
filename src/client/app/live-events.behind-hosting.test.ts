// The app's live events (offline/live-events.ts) behind Firebase Hosting, which ends every request after 60 s, streams
// included (docs/decisions/0038). The real server, the Hosting stand-in in front of it (scripts/hosting-standin.ts)
// cutting each stream after a second, and the client's own module in a Node process with Node's EventSource, which
// reconnects as a browser's does (after the server's `retry:` hint, with Last-Event-ID).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { describe, expect, test, type TestContext } from 'vitest';
import { readFirebaseJson, startHostingStandin, type HostingStandin } from '../../../scripts/hosting-standin.ts';
import {
  createClient,
  createVerifiedUser,
  delay,
  findClosedPort,
  signInAs,
  startTestServer,
  waitFor,
  type TestClient,
  type TestServer,
} from '../../server/test/harness.ts';

/** Hosting's 60 s, made short for the streams: each cut is followed by the browser's 3-s wait (`retry:`). */
const cutAfterMs = 1_500;
type Finally = TestContext['onTestFinished'];

/** The server and, in front of it, the stand-in whose origin is the server's PUBLIC_URL (auth checks Origin). */
async function serverBehindHosting(
  onFinished: Finally,
  requestLimitMs = cutAfterMs,
): Promise<{ server: TestServer; hosting: HostingStandin; stopServer(): Promise<void> }> {
  const port = await findClosedPort();
  const server = await startTestServer({ env: { PUBLIC_URL: `http://127.0.0.1:${port}` } });
  let stopped: Promise<void> | undefined;
  const stopServer = () => (stopped ??= server.close());
  onFinished(stopServer);
  const hosting = await startHostingStandin({
    config: readFirebaseJson().hosting,
    publicDir: 'public',
    upstream: server.url,
    port,
    requestLimitMs,
  });
  onFinished(() => hosting.close());
  return { server, hosting, stopServer };
}

interface Heard {
  at: number;
  type: 'change' | 'resync';
  table?: string;
  ids?: string[];
}

/** startLiveEvents in a Node process of its own (EventSource needs Node's flag), reporting what it hands on. */
function listen(url: string, onFinished: Finally): Heard[] {
  const code = `
    globalThis.window = new EventTarget();
    const { startLiveEvents } = await import(process.argv[1]);
    const started = Date.now();
    const say = (heard) => process.stdout.write(JSON.stringify({ at: Date.now() - started, ...heard }) + '\\n');
    startLiveEvents({
      url: process.argv[2],
      onChange: (table, ids) => say({ type: 'change', table, ids }),
      onResync: () => say({ type: 'resync' }),
    });`;
  const module = pathToFileURL('src/client/offline/live-events.ts').href;
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--experimental-eventsource', '--no-warnings', '--input-type=module', '-e', code, module, url],
    { stdio: 'pipe' },
  );
  const heard: Heard[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => heard.push(JSON.parse(line) as Heard));
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  child.once('exit', (exitCode) => {
    if (exitCode) heard.push({ at: -1, type: 'change', table: `exited ${exitCode}: ${errors}` });
  });
  onFinished(() => void child.kill());
  return heard;
}

async function ask(client: TestClient): Promise<string> {
  const id = crypto.randomUUID();
  const response = await client.post('/api/questions', { id, title: 'How do I reverse a list?', text: 'In Python.' });
  expect(response.status, response.text).toBe(201);
  return id;
}

const resyncs = (heard: Heard[]) => heard.filter((h) => h.type === 'resync').length;
const questionIds = (heard: Heard[]) => heard.flatMap((h) => (h.table === 'questions' ? h.ids! : []));
const streamsOpened = (hosting: HostingStandin) => hosting.stats().proxied['/api/events'] ?? 0;

/** Resolves once the stand-in has cut `count` streams in all. */
const cuts = (hosting: HostingStandin, count: number) =>
  waitFor(async () => hosting.stats().cut >= count, `${count} streams cut`, 15_000);

describe.concurrent('behind Firebase Hosting (the stand-in)', () => {
  test('a student signs in, stays signed in and signs out: the session cookie is the one Hosting passes', async ({
    onTestFinished,
    expect,
  }) => {
    // Hosting's own time limit: hashing a password can take longer than the streams' short one on a busy machine.
    const { server, hosting } = await serverBehindHosting(onTestFinished, 60_000);
    const account = await createVerifiedUser(server);
    const browser = createClient(hosting.url);
    const login = await browser.post('/api/auth/sign-in/email', { email: account.email, password: account.password });
    expect(login.status, login.text).toBe(200);
    const me = await browser.get('/api/me');
    expect(me.status, me.text).toBe(200);
    expect(me.body.email).toBe(account.email);
    expect((await browser.post('/api/auth/sign-out')).status).toBe(200);
    expect((await browser.get('/api/me')).status).toBe(401);
  });

  test('every cut stream comes back once, with what it missed meanwhile, and no refetch of everything', async ({
    onTestFinished,
    expect,
  }) => {
    const { server, hosting } = await serverBehindHosting(onTestFinished);
    const student = await signInAs(server, 'student');
    const author = createClient(hosting.url);
    for (const [name, value] of student.client.cookies) author.cookies.set(name, value);
    // Asked before the page opens: its stream's first `ready` names that event, so the browser resumes with
    // Last-Event-ID from the start, whatever the timing of the cuts.
    await ask(author);
    const heard = listen(`${hosting.url}/api/events`, onTestFinished);
    const asked: string[] = [];
    for (let cut = 1; cut <= 2; cut++) {
      await cuts(hosting, cut);
      // Asked while the stream is down (the browser waits the server's 3-s `retry:` before it reconnects).
      asked.push(await ask(author));
    }
    await waitFor(
      async () => asked.every((id) => questionIds(heard).includes(id)),
      `every question asked: ${JSON.stringify(heard)}`,
      15_000,
    );
    expect(resyncs(heard), JSON.stringify(heard)).toBe(0);
    // One stream per cut, and the first: no storm.
    const { cut } = hosting.stats();
    expect(streamsOpened(hosting)).toBeGreaterThanOrEqual(cut);
    expect(streamsOpened(hosting)).toBeLessThanOrEqual(cut + 1);
  });

  test('a stream that has heard nothing yet catches up only when it missed something, and backs off from a server that is down', async ({
    onTestFinished,
    expect,
  }) => {
    const { server, hosting, stopServer } = await serverBehindHosting(onTestFinished);
    const student = await signInAs(server, 'student');
    const author = createClient(hosting.url);
    for (const [name, value] of student.client.cookies) author.cookies.set(name, value);
    const heard = listen(`${hosting.url}/api/events`, onTestFinished);
    // Nothing happens: the streams it reconnects stand where the first one stood (and the page, which made no
    // reads of its own here, has nothing to catch up on from the start).
    await cuts(hosting, 2);
    await waitFor(async () => streamsOpened(hosting) === 3, 'the third stream');
    await delay(300);
    expect(resyncs(heard), JSON.stringify(heard)).toBe(0);
    // Asked while it is down, with no event id to resume from: the reconnect's position has moved, so it catches up.
    await cuts(hosting, 3);
    const id = await ask(author);
    await waitFor(async () => resyncs(heard) === 1, `a catching up: ${JSON.stringify(heard)}`, 15_000);
    expect(questionIds(heard)).not.toContain(id);

    // The server goes away: Hosting answers the reconnects with an error, which the browser does not retry by
    // itself; the page tries again after 1, 2, 4 s… (each spread by up to half): a few tries, not a storm.
    await stopServer();
    const before = streamsOpened(hosting);
    await delay(8_000);
    const tries = streamsOpened(hosting) - before;
    expect(tries).toBeGreaterThanOrEqual(2);
    expect(tries).toBeLessThanOrEqual(6);
  });
});
