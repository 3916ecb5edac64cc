// Test support for the engine tests: a small real HTTP server that behaves like the app's idempotent
// endpoints, and a "page" (its own Dexie connection and engine) over a named fake IndexedDB.
import 'fake-indexeddb/auto';
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, apiFetch, NetworkError } from '../lib/api.ts';
import { ifNoneMatch, readRevalidated, type Revalidated } from '../lib/revalidated.ts';
import { createLocalDb, defineLocalTable } from './db.ts';
import { createEngine, type PullArgs } from './engine.ts';
import type { Marks } from './storage.ts';

export interface StoredNote {
  id: string;
  text: string;
  /** Set by the server: the acknowledged row is the server's, not the optimistic one. */
  savedAt: string;
  version?: number;
}

export interface NoteRow {
  id: string;
  text: string;
  savedAt?: string;
  version?: number;
  pending?: boolean;
}

/** One GET /notes as the server saw it: the cursor asked from, the ETag sent back, the status answered. */
export interface NotesGet {
  since: string | null;
  ifNoneMatch: string | null;
  status: 200 | 304;
}

/**
 * POST /notes {id, text}: stored once per id (a repeat answers with the stored row); GET /notes?since=… lists
 * them all (a snapshot) with a weak ETag of the body, or a 304 when `If-None-Match` names it, and records the
 * cursor it was asked from in `since` and each request in `gets`.
 * Knobs: `refuse` (id → 4xx/5xx), `unauthorised`, `dropAfterCommit` (how many answers to lose after
 * storing), `getDelayMs`; `stop()`/`start()` are a restart on the same port with the same store.
 */
export async function startNoteServer() {
  const store = new Map<string, StoredNote>();
  /** How many times each id's effect was applied: the server's own dedupe must keep it at 1. */
  const effects = new Map<string, number>();
  const knobs = { refuse: new Map<string, number>(), unauthorised: false, dropAfterCommit: 0, getDelayMs: 0 };
  let posts = 0;
  const since: (string | null)[] = [];
  const gets: NotesGet[] = [];
  let server: Server;
  let port = 0;

  const listen = async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const json = (status: number, value: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(value));
        };
        if (req.method === 'GET') {
          const asked = new URL(req.url ?? '/', 'http://localhost').searchParams.get('since');
          since.push(asked);
          setTimeout(() => {
            const text = JSON.stringify({ notes: [...store.values()] });
            const etag = `W/"${createHash('sha1').update(text).digest('base64url')}"`;
            const ifNoneMatch = req.headers['if-none-match'] ?? null;
            const status = ifNoneMatch === etag ? 304 : 200;
            gets.push({ since: asked, ifNoneMatch, status });
            res.writeHead(status, { 'content-type': 'application/json', etag });
            res.end(status === 200 ? text : undefined);
          }, knobs.getDelayMs);
          return;
        }
        posts += 1;
        const input = JSON.parse(body) as { id: string; text: string };
        if (knobs.unauthorised)
          return json(401, { error: { code: 'auth.unauthenticated', message: 'Please log in again.' } });
        const refused = knobs.refuse.get(input.id);
        if (refused)
          return json(refused, { error: { code: 'notes.refused', message: `Note "${input.text}" was refused.` } });
        if (!store.has(input.id)) {
          store.set(input.id, { id: input.id, text: input.text, savedAt: new Date().toISOString() });
          effects.set(input.id, (effects.get(input.id) ?? 0) + 1);
        }
        if (knobs.dropAfterCommit > 0) {
          knobs.dropAfterCommit -= 1;
          req.socket.destroy();
          return;
        }
        json(200, store.get(input.id));
      });
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  };
  await listen();

  return {
    store,
    effects,
    knobs,
    posts: () => posts,
    since,
    gets,
    url: () => `http://127.0.0.1:${port}`,
    start: listen,
    async stop() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

export type NoteServer = Awaited<ReturnType<typeof startNoteServer>>;

/** GET /notes as the app's sources ask for a list: with the ETag of the copy held, a 304 read as "not modified". */
export async function fetchNotes(
  server: NoteServer,
  { cursor, signal, etag }: PullArgs,
): Promise<Revalidated<{ notes: StoredNote[] }>> {
  return (await readRevalidated(
    await apiFetch(`${server.url()}/notes?since=${cursor ?? ''}`, { signal, headers: ifNoneMatch(etag) }),
  )) as Revalidated<{ notes: StoredNote[] }>;
}

/** fetch as the app's API client answers: NetworkError when unreachable, ApiError with the server's code. */
async function request<T>(url: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new NetworkError();
  }
  const json = (await response.json().catch(() => undefined)) as
    { error?: { code: string; message: string } } | undefined;
  if (!response.ok)
    throw new ApiError(
      response.status,
      json?.error?.code ?? 'unknown',
      json?.error?.message ?? 'Something went wrong.',
    );
  return json as T;
}

export interface NoteInput {
  id: string;
  text: string;
  /** A note that must reach the server after another one (as an answer after its question). */
  after?: string;
}

/** localStorage's stand-in (Node has none without flags): one per "browser", shared by its pages. */
export function createMarks(): Marks & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

export interface PageOptions {
  marks?: Marks;
  /** Whether the device's session record is written, as the app does once the server has named the user. */
  session?: boolean;
}

/** One page: its own connection to the database `name`, the notes table, and an engine signed in as `userId`. */
export async function openPage(
  name: string,
  server: NoteServer,
  userId = 'u1',
  { marks = createMarks(), session = true }: PageOptions = {},
) {
  const db = createLocalDb(name);
  const notes = defineLocalTable<NoteRow>({ name: 'notes', schema: 'id', since: 10, scope: 'user' }, db);
  const engine = createEngine(db, { marks });
  const source = engine.defineSource({
    name: 'notes',
    tables: ['notes'],
    needsUser: true,
    listensTo: ['notes'],
    pull: async (args) => {
      const answer = await fetchNotes(server, args);
      if (answer.notModified) return answer;
      const rows = answer.body.notes;
      return { put: { notes: rows }, replace: true, cursor: String(rows.length), etag: answer.etag };
    },
  });
  const addNote = engine.defineMutation<NoteInput, StoredNote>({
    name: 'notes.add',
    version: 1,
    target: (p) => ({ table: 'notes', id: p.id }),
    after: (p) => p.after,
    apply: async (p, tx) => {
      await notes.in(tx).put({ id: p.id, text: p.text, pending: true });
    },
    send: (p) =>
      request<StoredNote>(`${server.url()}/notes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: p.id, text: p.text }),
      }),
    acknowledge: async (_p, stored, tx) => {
      await notes.in(tx).put(stored);
    },
    revert: async (p, tx) => {
      await notes.in(tx).delete(p.id);
    },
    describe: (p) => ({ label: `Note: ${p.text}`, href: `/notes#${p.id}` }),
  });
  // An edit of a stored note: re-applied on top of every refresh until sent (the server never gets it here).
  const renameNote = engine.defineMutation<{ id: string; text: string }>({
    name: 'notes.rename',
    version: 1,
    target: (p) => ({ table: 'notes', id: p.id }),
    apply: async (p, tx) => {
      await notes.in(tx).update(p.id, { text: p.text, pending: true });
    },
    send: () => Promise.reject(new NetworkError()),
  });
  if (session) await signIn();
  return { db, notes, engine, source, addNote, renameNote, signIn };

  /** What the app does once the server names the user: their session record, then the engine runs for them. */
  async function signIn() {
    await db.session.put({
      key: 'me',
      me: {
        id: userId,
        name: 'Test',
        email: `${userId}@example.test`,
        emailVerified: true,
        role: 'student',
        categories: [],
      },
      savedAt: new Date().toISOString(),
    });
    engine.setUser(userId);
  }
}

export type Page = Awaited<ReturnType<typeof openPage>>;

export const newDbName = () => `engine-test-${randomUUID()}`;

export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('Timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
