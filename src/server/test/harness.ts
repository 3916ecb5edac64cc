import { createHmac } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { insertVerifiedUserThroughAuth, insertVerifiedUsers } from '../auth/verified-users.ts';
import { createHttpServer, type Timeouts } from '../http/node-server.ts';
import type { PreparedAnswers } from '../http/prepared-answers.ts';
import type { RenderApp } from '../http/rendered-pages.ts';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { expect } from 'vitest';
import { apiErrorBodySchema } from '../../common/api-error.ts';
import type { Category, Role } from '../../common/roles.ts';
import { standInUser } from '../../common/page-user.ts';
import {
  prerenderedPages,
  requestRenderedPages,
  shellFile,
  signedInPageFile,
  signedInPages,
  signedInPagesDir,
  type SignedInPagePath,
} from '../../common/routes.ts';
import { loadEnv } from '../env.ts';
import { addStaff } from '../modules/staff/staff.usecases.ts';
import { createServices, type Services } from '../server.ts';
import { deadline } from './deadline.ts';

/**
 * Test helpers: a real SMTP server, the real app on a real port, and a fetch client with a cookie jar.
 * Nothing here is a mock: the tests talk HTTP to the server, which talks SMTP to `startSmtpServer`.
 */

// ---------------------------------------------------------------------------------------------------------
// SMTP

export interface ReceivedEmail {
  /** Arrival order across this SMTP server, starting at 1. */
  seq: number;
  /** Envelope recipients (RCPT TO), lower-cased. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** `content` as text (a calendar's); `bytes` as sent (a PDF's). */
  attachments: { filename: string; contentType: string; content: string; bytes: Buffer }[];
}

export interface EmailQuery {
  to: string;
  /** A part of the subject, or a pattern. */
  subject?: string | RegExp;
  /** How long to wait, scaled by the time factor (deadline.ts); 10 s unless told. */
  timeoutMs?: number;
}

export interface TestSmtpServer {
  port: number;
  url: string;
  /** Every message received, in arrival order. */
  messages: ReceivedEmail[];
  /**
   * The first received message that matches and was not returned before; polls until it arrives.
   * Each message is returned once, so two calls for the same query give two different e-mails.
   */
  waitForEmail(query: EmailQuery): Promise<ReceivedEmail>;
  /** Messages that match and were not yet returned by `waitForEmail`. */
  unclaimed(query: Omit<EmailQuery, 'timeoutMs'>): ReceivedEmail[];
  /** Refuses every message to `address` from now on, as a mail server with no such mailbox does (550). */
  refuse(address: string): void;
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const messages: ReceivedEmail[] = [];
  const claimed = new Set<ReceivedEmail>();
  const refused = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!refused.has(address.address.toLowerCase())) return callback();
      callback(Object.assign(new Error('5.1.1 Mailbox unavailable'), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push({
            seq: messages.length + 1,
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            attachments: mail.attachments.map((a) => ({
              filename: a.filename ?? '',
              contentType: a.contentType,
              content: a.content.toString('utf8'),
              bytes: a.content,
            })),
          });
          callback();
        })
        .catch((error: unknown) => callback(error as Error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = ((server as unknown as { server: net.Server }).server.address() as net.AddressInfo).port;

  const matches = (m: ReceivedEmail, q: Omit<EmailQuery, 'timeoutMs'>) =>
    m.to.includes(q.to.toLowerCase()) &&
    (q.subject === undefined ||
      (typeof q.subject === 'string' ? m.subject.includes(q.subject) : q.subject.test(m.subject)));
  const unclaimed = (q: Omit<EmailQuery, 'timeoutMs'>) => messages.filter((m) => !claimed.has(m) && matches(m, q));

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    unclaimed,
    refuse: (address) => void refused.add(address.toLowerCase()),
    async waitForEmail(query) {
      const until = Date.now() + deadline(query.timeoutMs ?? 10_000);
      for (;;) {
        const found = unclaimed(query)[0];
        if (found) {
          claimed.add(found);
          return found;
        }
        if (Date.now() > until) {
          const seen = messages.map((m) => `${m.to.join(',')}: ${m.subject}`).join('\n  ');
          throw new Error(
            `No e-mail to ${query.to}${query.subject ? ` with subject ${String(query.subject)}` : ''} arrived. Received:\n  ${seen || '(none)'}`,
          );
        }
        await delay(50);
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first http(s) link in a text body. */
export function firstLink(text: string): string {
  const link = text.match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error(`No link in:\n${text}`);
  return link;
}

// ---------------------------------------------------------------------------------------------------------
// Server

export interface TestServerOptions {
  /** Where the worker sends mail; usually `smtp.url`. Unset: `env` names another way (EMAILJS_*). */
  smtpUrl?: string;
  rateLimit?: boolean;
  trustProxy?: boolean;
  /** Extra environment variables, e.g. GOOGLE_CLIENT_ID. */
  env?: Record<string, string>;
  /** Keep the server's log lines (at `info`) in `TestServer.logs`. */
  captureLogs?: boolean;
  /** Short request timeouts, to test slow clients without waiting for the real ones. */
  timeouts?: Partial<Timeouts>;
  /** How often live event streams send a heartbeat (25 s otherwise). */
  eventsHeartbeatMs?: number;
  /** The app's renderer for the pages rendered per request (the client's entry-server.tsx); without it, none are. */
  renderApp?: RenderApp;
  /** How often open signed-in streams check their session again (60 s otherwise). */
  eventsRecheckMs?: number;
}

export interface TestServer {
  /** The server's origin, which is also its PUBLIC_URL. */
  url: string;
  services: Services;
  /** The variables `loadEnv` was given: also what a child process (the CLI) needs to reach the same data. */
  envVars: Record<string, string>;
  /** The server's log lines, parsed (only with `captureLogs`). */
  logs: Record<string, unknown>[];
  close(): Promise<void>;
}

/**
 * The real app on 127.0.0.1 with a fresh data folder and database. The HTTP server listens first so that
 * PUBLIC_URL can be its real origin (better-auth checks the Origin header against it).
 */
export async function startTestServer(options: TestServerOptions): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tutorbook-test-'));
  const clientDir = path.join(dataDir, 'client');
  await mkdir(clientDir);
  // Stand-ins for the built PWA's documents, so the tests do not depend on `npm run build`; each names its file.
  for (const file of [shellFile, ...Object.values(prerenderedPages)]) {
    await writeFile(
      path.join(clientDir, file),
      `<!doctype html><html lang="en"><title>TutorBook</title><div id="root"></div><!-- ${file} --></html>`,
    );
  }
  // And for the signed-in pages rendered for a stand-in user (common/page-user.ts), with its markers.
  await mkdir(path.join(clientDir, signedInPagesDir), { recursive: true });
  for (const [pagePath, roles] of Object.entries(signedInPages) as [SignedInPagePath, readonly Role[]][]) {
    for (const role of roles) {
      const file = signedInPageFile(pagePath, role);
      const { name, categories } = standInUser(role);
      await writeFile(
        path.join(clientDir, signedInPagesDir, file),
        `<!doctype html><html lang="en"><head><title>TutorBook</title></head><div id="root"><h1>${name}</h1><p>${categories.join(', ')}</p></div><!-- ${file} --></html>`,
      );
    }
  }

  // And the templates of the pages rendered per request, which the server renders only with `renderApp`.
  for (const file of Object.values(requestRenderedPages))
    await writeFile(
      path.join(clientDir, signedInPagesDir, file),
      `<!doctype html><html lang="en"><head><!-- ${file} --></head><body><div id="root"></div></body></html>`,
    );

  const database = await createTestDatabase(dataDir);
  const logs: Record<string, unknown>[] = [];

  const app: { fetch?: (request: Request, env: unknown) => Response | Promise<Response>; prepared?: PreparedAnswers } =
    {};
  const server = createHttpServer(
    (request, env) => (app.fetch ? app.fetch(request, env) : new Response('starting', { status: 503 })),
    {
      production: false,
      timeouts: options.timeouts,
      prepared: (req, res, apiHeaders) => app.prepared?.(req, res, apiHeaders) ?? false,
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = (server.address() as net.AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  const envVars: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: options.captureLogs ? 'info' : 'silent',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    ...database.env,
    ...(options.smtpUrl ? { SMTP_URL: options.smtpUrl } : {}),
    RATE_LIMIT: options.rateLimit ? 'on' : 'off',
    TRUST_PROXY: options.trustProxy ? 'on' : 'off',
    ...options.env,
  };
  let services: Services;
  try {
    services = await createServices(loadEnv(envVars), {
      mailPollMs: 200,
      eventsHeartbeatMs: options.eventsHeartbeatMs,
      eventsRecheckMs: options.eventsRecheckMs,
      clientDir,
      renderApp: options.renderApp,
      logDestination: { write: (line: string) => void logs.push(JSON.parse(line)) },
    });
  } catch (error) {
    await closeHttpServer(server);
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  app.fetch = services.app.fetch;
  app.prepared = services.prepared;

  return {
    url,
    services,
    envVars,
    logs,
    async close() {
      await closeHttpServer(server);
      await services.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function closeHttpServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  return closed;
}

export interface TestDatabase {
  /** DATABASE_URL. */
  url: string;
  /** What else the server's environment needs to reach it (FIRESTORE_EMULATOR_HOST). */
  env?: Record<string, string>;
  drop(): Promise<void>;
}

/** Whether this run's test servers store in Firestore (TEST_DATABASE_URL=firestore://…): skips the tests of SQL alone. */
// eslint-disable-next-line no-restricted-properties -- a test setting, not app configuration (env.ts)
export const onFirestore = process.env.TEST_DATABASE_URL?.startsWith('firestore://') ?? false;

/** Whether this run's test servers store in PostgreSQL: runs the tests of PostgreSQL alone. */
// eslint-disable-next-line no-restricted-properties -- a test setting, not app configuration (env.ts)
export const onPostgres = /^postgres(ql)?:/.test(process.env.TEST_DATABASE_URL ?? '');

/**
 * SQLite: a file in the test's data folder. PostgreSQL (TEST_DATABASE_URL): a new database per test
 * server, dropped afterwards, so no test sees another's rows. Firestore (TEST_DATABASE_URL=firestore://…):
 * a new project on the run's emulator (vitest.global-setup.ts), which keeps projects apart with no clean-up.
 * Also used for `main.ts` run as a process (main-process.ts).
 *
 * A PostgreSQL database is a copy of the run's migrated one (TEST_POSTGRES_TEMPLATE, vitest.global-setup.ts),
 * so the server's migrations find nothing to do; `empty` gives one with no tables, for a test of the migrations
 * themselves. Without the template (a file run outside Vitest's global setup), an empty one.
 */
export async function createTestDatabase(dataDir: string, options: { empty?: boolean } = {}): Promise<TestDatabase> {
  // The one place tests read the environment: which database server to run against.
  // eslint-disable-next-line no-restricted-properties -- a test setting, not app configuration (env.ts)
  const { TEST_DATABASE_URL: adminUrl, TEST_POSTGRES_TEMPLATE: template } = process.env;
  if (!adminUrl) return { url: `file:${path.join(dataDir, 'app.db')}`, drop: async () => {} };
  if (adminUrl.startsWith('firestore://')) return createTestFirestoreProject();

  const name = `t_${crypto.randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}${template && !options.empty ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        // The test's own pool may still be closing its connections (pg's `end()` resolves before they are gone):
        // ended by force, one raises an error in the test process ("terminating connection due to administrator
        // command"), which fails the run. They are waited for, a little.
        for (let i = 0; i < 40; i++) {
          const { rows } = await client.query<{ n: string }>(
            'select count(*) as n from pg_stat_activity where datname = $1',
            [name],
          );
          if (Number(rows[0]?.n) === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        // WITH (FORCE) ends connections a child process (the CLI) may have left behind.
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A fresh project on the emulator FIRESTORE_EMULATOR_HOST names (the Firestore run's global setup). */
function createTestFirestoreProject(): TestDatabase {
  // eslint-disable-next-line no-restricted-properties -- a test setting, not app configuration (env.ts)
  const host = process.env.FIRESTORE_EMULATOR_HOST;
  if (!host)
    throw new Error('TEST_DATABASE_URL=firestore://… needs FIRESTORE_EMULATOR_HOST (vitest.global-setup.ts sets it)');
  // Google's rule for project ids: 6 to 30 lowercase letters, digits and hyphens (env.ts).
  const projectId = `demo-t${crypto.randomUUID().replaceAll('-', '').slice(0, 20)}`;
  // A named database, where the new site's data lives beside the old site's `(default)` in production
  // (docs/moving-in-from-firebase.md): every Firestore test then runs on one.
  return { url: `firestore://${projectId}/tutorbook`, env: { FIRESTORE_EMULATOR_HOST: host }, drop: async () => {} };
}

/** A port nothing listens on (for "the mail server is down"). */
export { findClosedPort } from './free-port.ts';

// ---------------------------------------------------------------------------------------------------------
// HTTP client

/** Response bodies are read loosely in tests: a wrong shape fails the assertion that reads it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface TestResponse<T = Json> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  /** The body as sent (a PDF's). */
  bytes: Uint8Array;
}

export interface TestClient {
  readonly baseUrl: string;
  /** Cookies held, by name. */
  readonly cookies: Map<string, string>;
  hasSessionCookie(): boolean;
  /** Any request; `path` is relative to the server or an absolute URL. Redirects are not followed. */
  request<T = Json>(path: string, init?: RequestInit): Promise<TestResponse<T>>;
  get<T = Json>(path: string, init?: RequestInit): Promise<TestResponse<T>>;
  /** POSTs `body` as JSON. */
  post<T = Json>(path: string, body?: unknown, init?: RequestInit): Promise<TestResponse<T>>;
  /** PATCHes `body` as JSON. */
  patch<T = Json>(path: string, body: unknown, init?: RequestInit): Promise<TestResponse<T>>;
  /** PUTs `body` as JSON. */
  put<T = Json>(path: string, body: unknown, init?: RequestInit): Promise<TestResponse<T>>;
  delete<T = Json>(path: string, init?: RequestInit): Promise<TestResponse<T>>;
}

export const sessionCookieName = '__session';

/**
 * A client holding a copy of `client`'s cookies as they are now, talking to `baseUrl`: someone who kept an old
 * cookie, or the same browser reaching another server process.
 */
export function withCookiesOf(client: TestClient, baseUrl = client.baseUrl): TestClient {
  const copy = createClient(baseUrl);
  for (const [name, value] of client.cookies) copy.cookies.set(name, value);
  return copy;
}

/**
 * A browser-like client: keeps the cookies the server sets and sends `Origin` (the server's own origin,
 * like a browser on the site would). Pass `headers: { origin: … }` to pretend to be another site.
 */
export function createClient(baseUrl: string): TestClient {
  const cookies = new Map<string, string>();

  async function request<T>(target: string, init: RequestInit = {}): Promise<TestResponse<T>> {
    const headers = new Headers(init.headers);
    if (!headers.has('origin')) headers.set('origin', baseUrl);
    if (cookies.size > 0 && !headers.has('cookie')) {
      headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    }
    const response = await fetch(new URL(target, baseUrl), { redirect: 'manual', ...init, headers });
    for (const line of response.headers.getSetCookie()) storeCookie(cookies, line);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    let body: unknown = text;
    if (response.headers.get('content-type')?.includes('application/json') && text) body = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: body as T, text, bytes };
  }

  return {
    baseUrl,
    cookies,
    hasSessionCookie: () => cookies.has(sessionCookieName),
    request,
    get: (target, init) => request(target, { ...init, method: 'GET' }),
    post: (target, body, init = {}) => sendJson('POST', target, body, init),
    patch: (target, body, init = {}) => sendJson('PATCH', target, body, init),
    put: (target, body, init = {}) => sendJson('PUT', target, body, init),
    delete: (target, init) => request(target, { ...init, method: 'DELETE' }),
  };

  function sendJson<T>(method: string, target: string, body: unknown, init: RequestInit) {
    const headers = new Headers(init.headers);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    return request<T>(target, { ...init, method, headers, body: body === undefined ? '{}' : JSON.stringify(body) });
  }
}

function storeCookie(jar: Map<string, string>, line: string) {
  const [pair = '', ...attributes] = line.split(';');
  const eq = pair.indexOf('=');
  if (eq < 1) return;
  const name = pair.slice(0, eq).trim();
  const value = pair.slice(eq + 1).trim();
  const expired = attributes.some((a) => {
    const [k = '', v = ''] = a.split('=').map((s) => s.trim());
    if (k.toLowerCase() === 'max-age') return Number(v) <= 0;
    if (k.toLowerCase() === 'expires') return Date.parse(v) <= Date.now();
    return false;
  });
  if (expired || value === '') jar.delete(name);
  else jar.set(name, value);
}

// ---------------------------------------------------------------------------------------------------------
// Journeys

let counter = 0;
/** A fresh address per call, so tests in one file never collide. */
export function uniqueEmail(prefix = 'student'): string {
  counter += 1;
  return `${prefix}-${counter}-${crypto.randomUUID().slice(0, 8)}@example.com`;
}

export const testPassword = 'correct horse battery';

export interface Account {
  name: string;
  email: string;
  password: string;
}

/**
 * Signs up through the API, takes the verification link from the e-mail, follows it to the login page and
 * logs in with its token, which confirms the address (docs/decisions/0003). The client is signed out again.
 */
export async function signUpAndVerify(
  server: { url: string },
  smtp: TestSmtpServer,
  account: Partial<Account> = {},
): Promise<Account & { verificationEmail: ReceivedEmail }> {
  const name = account.name ?? 'Thandi Mokoena';
  const email = account.email ?? uniqueEmail();
  const password = account.password ?? testPassword;
  const client = createClient(server.url);
  const signUp = await client.post('/api/auth/sign-up/email', { name, email, password });
  if (signUp.status !== 200) throw new Error(`Sign-up failed: ${signUp.status} ${signUp.text}`);
  const verificationEmail = await smtp.waitForEmail({ to: email, subject: 'Verify your e-mail' });
  const login = await logInWithLink(client, firstLink(verificationEmail.text), { email, password });
  if (login.status !== 200) throw new Error(`Verification failed: ${login.status} ${login.text}`);
  await client.post('/api/auth/sign-out');
  return { name, email, password, verificationEmail };
}

/** Opens an e-mailed verification link (which leads to the login page) and logs in there with its token. */
export async function logInWithLink(
  client: TestClient,
  link: string,
  account: { email: string; password: string },
): Promise<TestResponse> {
  const opened = await client.get(link);
  const location = new URL(opened.headers.get('location') ?? '/', client.baseUrl);
  if (opened.status !== 302 || location.pathname !== '/login')
    throw new Error(`The link led to ${opened.status} ${location}`);
  const verificationToken = location.searchParams.get('verify');
  return client.post('/api/auth/sign-in/email', { ...account, ...(verificationToken ? { verificationToken } : {}) });
}

/** Hashing is slow by design; tests reuse one (salted) hash per password rather than make one per user. */
const hashes = new Map<string, Promise<string>>();
async function hashOnce(server: TestServer, password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = server.services.auth.$context.then((ctx) => ctx.password.hash(password));
    hashes.set(password, hash);
  }
  return hash;
}

/**
 * A verified student with a password, written straight to the database: for tests where signing up is not
 * what is tested (no e-mails, no SMTP round trip). The password is hashed the way better-auth hashes it.
 */
export async function createVerifiedUser(
  server: TestServer,
  account: Partial<Account> = {},
): Promise<Account & { id: string }> {
  const name = account.name ?? 'Thandi Mokoena';
  const email = account.email ?? uniqueEmail();
  const password = account.password ?? testPassword;
  const hash = await hashOnce(server, password);
  if (server.services.kind === 'firestore') {
    const { adapter } = await server.services.auth.$context;
    return { ...(await insertVerifiedUserThroughAuth(adapter, { name, email }, hash)), password };
  }
  const id = crypto.randomUUID();
  await insertVerifiedUsers(server.services.db, [{ id, name, email }], hash);
  return { id, name, email, password };
}

/** Logs in with a new client and returns it (holding the session cookie). */
export async function logIn(
  server: { url: string },
  account: { email: string; password: string },
): Promise<TestClient> {
  const client = createClient(server.url);
  const response = await client.post('/api/auth/sign-in/email', { email: account.email, password: account.password });
  if (response.status !== 200) throw new Error(`Login failed: ${response.status} ${response.text}`);
  return client;
}

/** Makes an existing account staff with `addStaff`, the usecase the staff CLI runs (quicker than the CLI). */
export async function makeStaff(
  server: TestServer,
  email: string,
  role: Exclude<Role, 'student'>,
  categories: Category[] = [],
): Promise<void> {
  const { deps, auth } = server.services;
  await addStaff({ ...deps, auth }, { email, role, categories: role === 'tutor' ? categories : [] });
}

/**
 * A new client signed in as `userId` as a login would leave it, without checking the password: better-auth
 * writes the session (its internal adapter, on whatever engine the server runs), and its cookie is signed as
 * better-auth signs it. A login's password check is scrypt, about 95 ms of CPU; a test run signs in a few hundred
 * times where logging in is not under test (auth.test.ts and the login journeys test it).
 */
async function signedInWithoutPassword(server: TestServer, userId: string): Promise<TestClient> {
  const context = await server.services.auth.$context;
  // What a login from this client would record: undici's user agent, the loopback address.
  const session = await context.internalAdapter.createSession(userId, false, {
    userAgent: 'node',
    ipAddress: '127.0.0.1',
  });
  const signature = createHmac('sha256', context.secret).update(session.token).digest('base64');
  const client = createClient(server.url);
  client.cookies.set(context.authCookies.sessionToken.name, encodeURIComponent(`${session.token}.${signature}`));
  return client;
}

/** A verified account of `role`, with a new client signed in as it. */
export async function signInAs(
  server: TestServer,
  role: Role,
  options: { name?: string; categories?: Category[] } = {},
): Promise<Account & { id: string; client: TestClient }> {
  const account = await createVerifiedUser(server, { name: options.name });
  if (role !== 'student') await makeStaff(server, account.email, role, options.categories ?? ['Mathematics']);
  const client = await signedInWithoutPassword(server, account.id);
  const me = await client.get('/api/me');
  if (me.body.role !== role) throw new Error(`Expected a ${role}, got ${me.text}`);
  return { ...account, client };
}

/** Asserts a refusal in the one error shape with the status and code given, and returns the error. */
export function expectApiError(
  response: TestResponse,
  status: number,
  code: string,
): { code: string; message: string; fields?: Record<string, string> } {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(apiErrorBodySchema.safeParse(response.body).success, response.text).toBe(true);
  expect(response.body.error.code, response.text).toBe(code);
  return response.body.error;
}

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns something truthy, for `timeoutMs` scaled by the time factor (deadline.ts). */
export async function waitFor<T>(
  check: () => Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const until = Date.now() + deadline(timeoutMs);
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await delay(50);
  }
}

/**
 * A changes answer's `version` on the SQL engines, which these tests run on: the whole number it always was (a
 * position's text is a string on Firestore only, 0027). Fails the test when it is not one.
 */
export function sqlVersion(version: number | string): number {
  expect(typeof version, `version ${JSON.stringify(version)}`).toBe('number');
  return Number(version);
}
