// Test support for the engine tests: a small real HTTP server that behaves like the app's idempotent
// endpoints, and a "page" (its own Dexie connection and engine) over a named fake IndexedDB.
import 'fake-indexeddb/auto';
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, apiFetch, NetworkError } from '../lib/api.ts';
import { ifNoneMatch, readRevalidated, syncedToOf, type Revalidated, type Sent } from '../lib/revalidated.ts';
import { completeSchema, createLocalDb, defineLocalTable } from '../offline/db.ts';
import { createEngine, type PullArgs } from '../offline/engine.ts';
import type { Marks } from '../offline/storage.ts';

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
 * POST /notes {id, text}: stored once per id (a repeat answers with the stored row); PUT /notes/:id {text} sets
 * a stored note's text; GET /notes?since=… lists them all (a snapshot) with a weak ETag of the body, or a 304
 * when `If-None-Match` names it, and records the cursor it was asked from in `since` and each request in `gets`.
 * Like the app's server, every change takes the next version of the collection, and every answer says the
 * version it reflects (`Synced-To`); a change's `Change-User` must be the session's user (`sessionUser`, when
 * set) and a refusal is answered again the same way for the same `Change-Id`.
 * Knobs: `position` (the `Synced-To` text for a version), `refuse` (id → 4xx/5xx), `unauthorised`, `dropAfterCommit` (how many answers to lose after
 * storing), `getDelayMs` (before a GET reads), `answerDelayMs` (after it read, before the answer leaves),
 * `sessionUser`; `stop()`/`start()` are a restart on the same port with the same store.
 */
export async function startNoteServer() {
  const store = new Map<string, StoredNote>();
  /** How many times each id's effect was applied: the server's own dedupe must keep it at 1. */
  const effects = new Map<string, number>();
  /** Whose session stored each note. */
  const owners = new Map<string, string | null>();
  const knobs = {
    refuse: new Map<string, number>(),
    unauthorised: false,
    dropAfterCommit: 0,
    getDelayMs: 0,
    answerDelayMs: 0,
    /** How long a change takes to answer once stored. */
    postDelayMs: 0,
    sessionUser: null as string | null,
    /** The `Synced-To` an answer says, from the version when it is read: the version itself unless set. */
    position: null as ((version: number) => string) | null,
  };
  const refusals = new Map<string, { status: number; body: unknown }>();
  let version = 0;
  let posts = 0;
  const since: (string | null)[] = [];
  const gets: NotesGet[] = [];
  let server: Server;
  let port = 0;

  // As Firestore writes one (`12-0-7`, 0027) when a test says so; the SQL engines' whole number otherwise.
  const positionText = () => knobs.position?.(version) ?? String(version);

  const listen = async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const json = (status: number, value: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json', 'synced-to': positionText() });
          res.end(JSON.stringify(value));
        };
        if (req.method === 'GET') {
          const asked = new URL(req.url ?? '/', 'http://localhost').searchParams.get('since');
          since.push(asked);
          setTimeout(() => {
            const text = JSON.stringify({ notes: [...store.values()] });
            const syncedTo = positionText();
            const etag = `W/"${createHash('sha1').update(text).digest('base64url')}"`;
            const ifNoneMatch = req.headers['if-none-match'] ?? null;
            const status = ifNoneMatch === etag ? 304 : 200;
            gets.push({ since: asked, ifNoneMatch, status });
            // Read now, answered later: what the answer says is as of now.
            setTimeout(() => {
              res.writeHead(status, { 'content-type': 'application/json', etag, 'synced-to': syncedTo });
              res.end(status === 200 ? text : undefined);
            }, knobs.answerDelayMs);
          }, knobs.getDelayMs);
          return;
        }
        posts += 1;
        const input = JSON.parse(body) as { id: string; text: string };
        if (req.method === 'PUT') input.id = decodeURIComponent(req.url!.split('/').at(-1)!);
        if (knobs.unauthorised)
          return json(401, { error: { code: 'auth.unauthenticated', message: 'Please log in again.' } });
        const changeUser = req.headers['change-user'];
        if (knobs.sessionUser !== null && changeUser !== undefined && changeUser !== knobs.sessionUser)
          return json(401, { error: { code: 'auth.other_user', message: 'This was saved by another account.' } });
        const changeId = req.headers['change-id'] as string | undefined;
        const replay = changeId ? refusals.get(changeId) : undefined;
        if (replay) return json(replay.status, replay.body);
        const refused = knobs.refuse.get(input.id);
        if (refused) {
          const answer = { error: { code: 'notes.refused', message: `Note "${input.text}" was refused.` } };
          if (changeId && refused >= 400 && refused < 500 && ![401, 408, 429].includes(refused))
            refusals.set(changeId, { status: refused, body: answer });
          return json(refused, answer);
        }
        if (req.method === 'PUT') {
          const note = store.get(input.id);
          if (!note) return json(404, { error: { code: 'notes.not_found', message: 'No such note.' } });
          version += 1;
          store.set(input.id, { ...note, text: input.text });
        } else if (!store.has(input.id)) {
          version += 1;
          store.set(input.id, { id: input.id, text: input.text, savedAt: new Date().toISOString() });
          effects.set(input.id, (effects.get(input.id) ?? 0) + 1);
          owners.set(input.id, knobs.sessionUser);
        }
        if (knobs.dropAfterCommit > 0) {
          knobs.dropAfterCommit -= 1;
          req.socket.destroy();
          return;
        }
        const stored = store.get(input.id);
        if (knobs.postDelayMs > 0) setTimeout(() => json(200, stored), knobs.postDelayMs);
        else json(200, stored);
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
    owners,
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

/** fetch as the app's API client answers a change: NetworkError when unreachable, ApiError with the server's code. */
async function request<T>(url: string, init?: RequestInit): Promise<Sent<T>> {
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
  return { result: json as T, syncedTo: syncedToOf(response) };
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
  const notes = defineLocalTable<NoteRow>({ name: 'notes', schema: 'id', version: 1, scope: 'user' }, db);
  completeSchema(db);
  const engine = createEngine(db, { marks });
  const source = engine.defineSource({
    name: 'notes',
    tables: ['notes'],
    needsUser: true,
    listensTo: ['notes'],
    collection: 'notes',
    pull: async (args) => {
      const answer = await fetchNotes(server, args);
      if (answer.notModified) return answer;
      const rows = answer.body.notes;
      return {
        put: { notes: rows },
        replace: true,
        cursor: String(rows.length),
        etag: answer.etag,
        syncedTo: answer.syncedTo,
      };
    },
  });
  const addNote = engine.defineMutation<NoteInput, StoredNote>({
    name: 'notes.add',
    version: 1,
    collection: 'notes',
    target: (p) => ({ table: 'notes', id: p.id }),
    after: (p) => (p.after === undefined ? undefined : { table: 'notes', id: p.after }),
    apply: async (p, tx) => {
      await notes.in(tx).put({ id: p.id, text: p.text, pending: true });
    },
    send: (p, change) =>
      request<StoredNote>(`${server.url()}/notes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...change.headers },
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
  // The same edit, sent: PUT /notes/:id, acknowledged with the server's copy (a row without a version here).
  const editNote = engine.defineMutation<{ id: string; text: string }, StoredNote>({
    name: 'notes.edit',
    version: 1,
    collection: 'notes',
    target: (p) => ({ table: 'notes', id: p.id }),
    apply: async (p, tx) => {
      await notes.in(tx).update(p.id, { text: p.text, pending: true });
    },
    send: (p, change) =>
      request<StoredNote>(`${server.url()}/notes/${encodeURIComponent(p.id)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...change.headers },
        body: JSON.stringify({ text: p.text }),
      }),
    acknowledge: async (_p, stored, tx) => {
      await notes.in(tx).put(stored);
    },
  });
  if (session) await signIn();
  return { db, notes, engine, source, addNote, renameNote, editNote, signIn };

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
