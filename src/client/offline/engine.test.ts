// Before Dexie is imported: it takes IndexedDB from the global scope when it loads.
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { forceCloseDatabase } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { completeSchema, createLocalDb, defineLocalTable } from './db.ts';
import { ApiError, apiFetch } from '../lib/api.ts';
import { createEngine, LocalWriteError } from './engine.ts';
import {
  createMarks,
  newDbName,
  openPage,
  startNoteServer,
  waitFor,
  type NoteServer,
  type Page,
  type PageOptions,
} from '../test/engine-test-kit.ts';

let server: NoteServer;
let pages: Page[];

beforeEach(async () => {
  server = await startNoteServer();
  pages = [];
});

afterEach(async () => {
  for (const page of pages) {
    page.engine.stop();
    page.db.close();
  }
  await server.stop().catch(() => undefined);
});

async function open(name = newDbName(), userId = 'u1', options?: PageOptions) {
  const page = await openPage(name, server, userId, options);
  pages.push(page);
  return page;
}

const unsent = (page: Page) => page.db.outbox.count();

describe('local tables', () => {
  it('a table declared before others still reads and writes', async () => {
    const db = createLocalDb(newDbName());
    const first = defineLocalTable<{ id: string }>({ name: 'first', schema: 'id', version: 1, scope: 'public' }, db);
    defineLocalTable<{ id: string }>({ name: 'second', schema: 'id', version: 1, scope: 'user' }, db);
    defineLocalTable<{ id: string }>({ name: 'third', schema: 'id', version: 2, scope: 'user' }, db);
    completeSchema(db);
    await first.put({ id: 'a' });
    expect(await first.toArray()).toEqual([{ id: 'a' }]);
    expect(() => defineLocalTable({ name: 'late', schema: 'id', version: 1, scope: 'public' }, db)).toThrow(
      /declared after the schema was complete/,
    );
    db.close();
  });

  it('a log-out takes the localStorage keys a feature keeps for the user, and leaves the others', async () => {
    const marks = createMarks();
    const page = await open(newDbName(), 'u1', { marks });
    marks.setItem('chosen', 'Algebra');
    marks.setItem('visitedHome', 'true');
    page.engine.forgetAtLogOut('chosen');
    await page.engine.clearUserData();
    expect(marks.map.has('chosen')).toBe(false);
    expect(marks.map.get('visitedHome')).toBe('true');
  });

  it("a table's own version going up upgrades the database, and every row stays", async () => {
    const name = newDbName();
    const before = createLocalDb(name);
    const notes = defineLocalTable<{ id: string; text: string }>(
      { name: 'notes', schema: 'id', version: 1, scope: 'user' },
      before,
    );
    completeSchema(before);
    await notes.put({ id: 'n1', text: 'Kept' });
    before.close();

    const after = createLocalDb(name);
    const indexed = defineLocalTable<{ id: string; text: string }>(
      { name: 'notes', schema: 'id, text', version: 2, scope: 'user' },
      after,
    );
    defineLocalTable({ name: 'tags', schema: 'id', version: 1, scope: 'public' }, after);
    completeSchema(after);
    expect(await indexed.where('text').equals('Kept').primaryKeys()).toEqual(['n1']);
    after.close();
  });

  it('a database the older numbering made (version 5) opens with its queue, drafts and bookings', async () => {
    const name = newDbName();
    // As the app declared it before each table had its own version.
    const old = new Dexie(name);
    old.version(1).stores({ session: 'key' });
    old.version(2).stores({ syncState: 'key', modules: 'id, slug, category', enrolments: 'id' });
    old.version(3).stores({ outbox: '++seq, userId, target.id' });
    old.version(4).stores({ questions: 'id, createdAt', answers: 'id, questionId', myVotes: 'id', qaPaging: 'id' });
    old.version(5).stores({ bookings: 'id, date', bookingDrafts: 'id' });
    await old.table('outbox').add({ name: 'bookings.request', version: 1, payload: { id: 'b1' }, userId: 'u1' });
    await old.table('bookingDrafts').put({ id: 'current', values: { concepts: 'Typed' }, requestId: 'b1' });
    await old.table('answers').put({ id: 'a1', questionId: 'q1', text: 'Seen' });
    old.close();

    const db = createLocalDb(name);
    for (const [table, schema, scope] of [
      ['modules', 'id, slug, category', 'public'],
      ['enrolments', 'id', 'user'],
      ['questions', 'id, createdAt', 'public'],
      ['answers', 'id, questionId', 'public'],
      ['myVotes', 'id', 'user'],
      ['qaPaging', 'id', 'public'],
      ['bookings', 'id, date', 'user'],
      ['bookingDrafts', 'id', 'user'],
    ] as const)
      defineLocalTable({ name: table, schema, version: 1, scope }, db);
    completeSchema(db);
    expect(await db.outbox.toArray()).toMatchObject([{ name: 'bookings.request', payload: { id: 'b1' } }]);
    expect(await db.table('bookingDrafts').get('current')).toMatchObject({ requestId: 'b1' });
    expect(await db.table('answers').where('questionId').equals('q1').count()).toBe(1);
    expect(await db.settling.count()).toBe(0);
    expect(db.verno).toBe(13);
    db.close();
  });

  it('clearing user data keeps public tables and the public sync state', async () => {
    const page = await open();
    server.store.set('n1', { id: 'n1', text: 'Mine', savedAt: 'x' });
    await page.engine.refreshSource(page.source);
    await page.db.syncState.put({ key: 'public-source', userId: null, cursor: '7', syncedAt: 'x' });
    await page.addNote({ id: 'n2', text: 'Unsent' });
    expect(await page.engine.countUnsent()).toBe(1);
    await page.engine.clearUserData();
    expect(await page.notes.count()).toBe(0);
    expect(await unsent(page)).toBe(0);
    expect(await page.db.session.count()).toBe(0);
    expect((await page.db.syncState.toArray()).map((s) => s.key)).toEqual(['public-source']);
  });
});

describe('starting on a page', () => {
  it('each source is fetched once, though the page, the start and the session all ask', async () => {
    const page = await open();
    server.store.set('n1', { id: 'n1', text: 'Mine', savedAt: 'x' });
    server.knobs.getDelayMs = 50;
    // As the app opens: the page reads its source, the engine starts, and the session names the same user twice
    // (lib/session.tsx, app/data-sync.tsx).
    const read = page.engine.refreshSource(page.source, { ifStale: true });
    page.engine.start({ userId: 'u1' });
    page.engine.setUser('u1');
    page.engine.setUser('u1');
    await read;
    await waitFor(() => page.engine.getStatus().sources.notes?.running === false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.gets).toHaveLength(1);
    expect(await page.notes.count()).toBe(1);

    // Reconnecting is a reason of its own: it fetches again.
    await page.engine.reconnected();
    await waitFor(() => server.gets.length === 2);
  });

  it('a source read for this user is not fetched again as the engine starts or a page opens; focus or a notice fetch it again', async () => {
    const page = await open();
    server.store.set('n1', { id: 'n1', text: 'Mine', savedAt: 'x' });
    page.engine.setUser('u1');
    // The page's reader is answered before the lazily loaded part of the app starts the engine.
    await page.engine.refreshSource(page.source, { ifStale: true });
    page.engine.start({ userId: 'u1' });
    page.engine.setUser('u1');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.gets).toHaveLength(1);

    // Another page opening reads what the device holds: fresh for this user.
    await page.engine.refreshSource(page.source, { ifStale: true });
    expect(server.gets).toHaveLength(1);
    await page.engine.refreshSource(page.source);
    expect(server.gets).toHaveLength(2);
  });

  it('a refresh that failed is tried again when the same user is named again (logging in again, say)', async () => {
    const page = await open();
    server.store.set('n1', { id: 'n1', text: 'Mine', savedAt: 'x' });
    page.engine.setUser('u1');
    await server.stop();
    expect(await page.engine.refreshSource(page.source, { ifStale: true })).toBe('offline');
    await server.start();
    page.engine.start({ userId: 'u1' });
    // The request reaches the server before its answer is merged: wait for the merge.
    await waitFor(async () => server.gets.length === 1 && (await page.notes.count()) === 1);
  });

  it('a read that came back before the device recorded its user is dropped, and made again when the user is named again', async () => {
    // A new device (or cleared site data) with the session cookie: the page was served for u1, nothing is stored.
    const page = await open(newDbName(), 'u1', { session: false });
    server.store.set('n1', { id: 'n1', text: 'Mine', savedAt: 'x' });
    page.engine.setUser('u1');
    await page.engine.refreshSource(page.source, { ifStale: true });
    // Kept only for the user the device records (another tab may have logged out): none yet.
    expect(await page.notes.count()).toBe(0);
    expect(server.gets).toHaveLength(1);
    // The session records u1 and names them again (lib/session.tsx): the dropped read is made again, once.
    await page.db.session.put({
      key: 'me',
      me: { id: 'u1', name: 'Test', email: 'u1@example.test', emailVerified: true, role: 'student', categories: [] },
      savedAt: new Date().toISOString(),
    });
    page.engine.start({ userId: 'u1' });
    page.engine.setUser('u1');
    await waitFor(() => server.gets.length === 2);
    await waitFor(async () => (await page.notes.count()) === 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.gets).toHaveLength(2);
  });

  it("a new user's refresh does not join the one begun for the last user, which is dropped", async () => {
    const page = await open();
    server.store.set('n1', { id: 'n1', text: 'Mine', savedAt: 'x' });
    server.knobs.getDelayMs = 100;
    page.engine.start({ userId: 'u1' });
    await waitFor(() => server.since.length === 1);
    const me = { id: 'u2', name: 'Next', email: 'u2@example.test', emailVerified: true, role: 'student' as const };
    await page.db.session.put({ key: 'me', me: { ...me, categories: [] }, savedAt: new Date().toISOString() });
    page.engine.setUser('u2');
    // A page's reader joins too: it must get the new user's run, not the dropped one.
    await page.engine.refreshSource(page.source, { ifStale: true });
    expect((await page.db.syncState.get('notes'))?.userId).toBe('u2');
    expect(await page.notes.count()).toBe(1);
  });
});

describe('a refresh never overwrites pending work', () => {
  it('a note typed while a refresh is on its way survives it, still marked pending, and a deleted note stays deleted', async () => {
    server.store.set('old', { id: 'old', text: 'On the server', savedAt: 'x' });
    const page = await open();
    page.engine.start({ userId: 'u1' });
    await page.engine.refreshSource(page.source);
    expect((await page.notes.toArray()).map((n) => n.id)).toEqual(['old']);

    // The server keeps the new note pending (500), and the next refresh is slow: the note is typed meanwhile.
    server.knobs.refuse.set('typed', 500);
    server.knobs.getDelayMs = 150;
    server.store.delete('old');
    const refreshing = page.engine.refreshSource(page.source);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await page.addNote({ id: 'typed', text: 'Typed during the refresh' });
    expect(await refreshing).toBe('ok');

    expect(await page.notes.toArray()).toEqual([{ id: 'typed', text: 'Typed during the refresh', pending: true }]);
    expect(await unsent(page)).toBe(1);
  });

  it('an unsent edit of a stored note is applied again on top of the server copy', async () => {
    server.store.set('n1', { id: 'n1', text: 'Server text', savedAt: 'x' });
    const page = await open();
    page.engine.start({ userId: 'u1' });
    await page.engine.refreshSource(page.source);
    await page.renameNote({ id: 'n1', text: 'My edit' });
    server.store.set('n1', { id: 'n1', text: 'Server text, changed by someone', savedAt: 'y' });

    await page.engine.refreshSource(page.source);
    expect(await page.notes.get('n1')).toEqual({ id: 'n1', text: 'My edit', savedAt: 'y', pending: true });
  });

  it('rows a page fetched by itself (a next page, a search) merge as a pull does: the unsent edit stays on top', async () => {
    server.store.set('n1', { id: 'n1', text: 'Server text', savedAt: 'x' });
    // Not started: no background refresh can land after the rows below, and the edit stays unsent.
    const page = await open();
    await page.engine.refreshSource(page.source);
    await page.renameNote({ id: 'n1', text: 'My edit' });

    await page.engine.mergeRows({
      put: {
        notes: [
          { id: 'n1', text: 'Server text', savedAt: 'y' },
          { id: 'n2', text: 'Older', savedAt: 'y' },
        ],
      },
    });
    expect(await page.notes.get('n1')).toEqual({ id: 'n1', text: 'My edit', savedAt: 'y', pending: true });
    expect(await page.notes.get('n2')).toEqual({ id: 'n2', text: 'Older', savedAt: 'y' });

    // Fetched before the user changed: not theirs to keep.
    const fetchedAt = page.engine.generation();
    page.engine.setUser('u2');
    await page.engine.mergeRows({ put: { notes: [{ id: 'n3', text: 'Stale', savedAt: 'y' }] } }, fetchedAt);
    expect(await page.notes.get('n3')).toBeUndefined();
  });

  it('an answer fetched before a newer copy of a row landed does not undo it', async () => {
    server.store.set('n1', { id: 'n1', text: 'Version 3', savedAt: 'x', version: 3 });
    server.store.set('n2', { id: 'n2', text: 'Version 1', savedAt: 'x', version: 1 });
    const page = await open();
    // A page's own fetch (or a change's answer) already brought version 5 of n1; the pull below left earlier.
    await page.engine.mergeRows({ put: { notes: [{ id: 'n1', text: 'Version 5', savedAt: 'y', version: 5 }] } });
    await page.engine.refreshSource(page.source);
    expect(await page.notes.get('n1')).toEqual({ id: 'n1', text: 'Version 5', savedAt: 'y', version: 5 });
    expect(await page.notes.get('n2')).toEqual({ id: 'n2', text: 'Version 1', savedAt: 'x', version: 1 });

    // The same version or a newer one is taken as the server's word.
    server.store.set('n1', { id: 'n1', text: 'Version 6', savedAt: 'z', version: 6 });
    await page.engine.refreshSource(page.source);
    expect(await page.notes.get('n1')).toEqual({ id: 'n1', text: 'Version 6', savedAt: 'z', version: 6 });
  });

  it("a notice of a change whose rows the device holds at its version already (the user's own, acknowledged) fetches nothing", async () => {
    server.store.set('n1', { id: 'n1', text: 'Mine', savedAt: 'x', version: 3 });
    const page = await open();
    page.engine.start({ userId: 'u1' });
    await page.engine.refreshSource(page.source);
    const gets = server.gets.length;
    await page.engine.refreshSources('notes', { ids: ['n1'], version: 3 });
    expect(server.gets).toHaveLength(gets);
    await page.engine.refreshSources('notes', { ids: ['n1'], version: 4 });
    await page.engine.refreshSources('notes', { ids: ['n1', 'n2'], version: 3 });
    await page.engine.refreshSources('notes');
    expect(server.gets).toHaveLength(gets + 3);
  });

  it('an answer that arrives after the user logged out is dropped', async () => {
    server.store.set('n1', { id: 'n1', text: 'Theirs', savedAt: 'x' });
    server.knobs.getDelayMs = 100;
    const page = await open();
    page.engine.start({ userId: 'u1' });
    const refreshing = page.engine.refreshSource(page.source);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await page.engine.clearUserData();
    page.engine.setUser(null);
    // The request was aborted with the user's work: dropped, not a failure.
    expect(await refreshing).toBe('ok');
    expect(page.engine.getStatus().sources[page.source.name]?.result).toBeUndefined();
    expect(await page.notes.count()).toBe(0);
    expect(await page.db.syncState.count()).toBe(0);
  });
});

describe('enqueue and acknowledge', () => {
  it('a sent note is replaced by the server copy and leaves the outbox in one step', async () => {
    const page = await open();
    page.engine.start({ userId: 'u1' });
    await page.addNote({ id: 'n1', text: 'Hello' });
    await waitFor(async () => (await unsent(page)) === 0);
    const row = await page.notes.get('n1');
    expect(row).toEqual(server.store.get('n1'));
    expect(row?.savedAt).toBeDefined();
  });

  it('an acknowledgement does not hide what is still queued for the same row: it is applied again on top', async () => {
    const page = await open();
    await page.addNote({ id: 'n1', text: 'First words' });
    // An edit queued behind it (this one never reaches the server).
    await page.renameNote({ id: 'n1', text: 'Second thoughts' });
    page.engine.start({ userId: 'u1' });
    await waitFor(() => server.store.has('n1'));
    await waitFor(async () => (await unsent(page)) === 1);
    expect(await page.notes.get('n1')).toMatchObject({
      text: 'Second thoughts',
      pending: true,
      savedAt: expect.any(String),
    });
  });

  it('an item an older build queued (no `rows` index entries) is still applied again on top', async () => {
    const page = await open();
    await page.addNote({ id: 'n1', text: 'First words' });
    const { seq } = await page.renameNote({ id: 'n1', text: 'Second thoughts' });
    await page.db.outbox.update(seq, { rows: undefined });
    page.engine.start({ userId: 'u1' });
    await waitFor(() => server.store.has('n1'));
    await waitFor(async () => (await unsent(page)) === 1);
    expect(await page.notes.get('n1')).toMatchObject({ text: 'Second thoughts', pending: true });
    expect((await page.db.outbox.get(seq))?.rows).toEqual([`notes\u0000n1`]);
  });

  it('when the page dies during an enqueue, neither the note nor its outbox row is stored', async () => {
    const page = await open();
    const broken = page.engine.defineMutation<{ id: string }>({
      name: 'notes.broken',
      version: 1,
      target: (p) => ({ table: 'notes', id: p.id }),
      apply: async (p, tx) => {
        await page.notes.in(tx).put({ id: p.id, text: 'half' });
        throw new Error('The page died here');
      },
      send: async () => ({ result: undefined, syncedTo: null }),
    });
    page.engine.start({ userId: 'u1' });
    await expect(broken({ id: 'n1' })).rejects.toThrow('The page died here');
    expect(await page.notes.count()).toBe(0);
    expect(await unsent(page)).toBe(0);
  });

  it("a mutation that reaches a table without the transaction's `in(tx)` is refused, and nothing is stored", async () => {
    const page = await open();
    const careless = page.engine.defineMutation<{ id: string }>({
      name: 'notes.careless',
      version: 1,
      target: (p) => ({ table: 'notes', id: p.id }),
      // Works while Dexie keeps track of the transaction across awaits, which it does not always do (db.ts).
      apply: async (p) => {
        await page.notes.put({ id: p.id, text: 'outside' });
      },
      send: async () => ({ result: undefined, syncedTo: null }),
    });
    page.engine.start({ userId: 'u1' });
    await expect(careless({ id: 'n1' })).rejects.toThrow('Table "notes" was used inside a transaction without it');
    expect(await page.notes.count()).toBe(0);
    expect(await unsent(page)).toBe(0);
  });

  it('when IndexedDB refuses the write, enqueue says so in words a form can show and stores nothing', async () => {
    const page = await open();
    page.engine.start({ userId: 'u1' });
    page.db.close();
    const error = await page.addNote({ id: 'n1', text: 'Hello' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalWriteError);
    expect((error as Error).message).toMatch(/could not be saved on your device/);
    await page.db.open();
    expect(await page.notes.count()).toBe(0);
    expect(await unsent(page)).toBe(0);
  });

  it('nothing is queued for nobody', async () => {
    const page = await open();
    page.engine.start({ userId: null });
    page.engine.setUser(null);
    await expect(page.addNote({ id: 'n1', text: 'Hello' })).rejects.toThrow(/nobody signed in/);
  });
});

describe('offline, the network is left alone', () => {
  let offline = false;
  beforeEach(() => {
    offline = false;
    Object.defineProperty(navigator, 'onLine', { get: () => !offline, configurable: true });
  });
  afterEach(() => {
    offline = false;
    vi.restoreAllMocks();
  });

  it('while the browser says it is offline, one request goes per 30 s (the probe); once it is answered, the rest goes', async () => {
    const page = await open();
    page.engine.start({ userId: 'u1' });
    await page.engine.refreshSource(page.source);
    const [gets, posts] = [server.gets.length, server.posts()];

    offline = true;
    await page.addNote({ id: 'n1', text: 'Typed offline' });
    for (let i = 0; i < 3; i++) expect(await page.engine.refreshSource(page.source)).toBe('offline');
    await page.engine.flush();
    expect([server.gets.length, server.posts()]).toEqual([gets, posts]);

    // Half a minute later, one request: the probe, for the source and the queue together (lib/connectivity.ts).
    const later = Date.now() + 31_000;
    vi.spyOn(Date, 'now').mockImplementation(() => later);
    expect(await page.engine.refreshSource(page.source)).toBe('ok');
    expect(server.gets.length).toBe(gets + 1);
    // The server answered, so the browser was wrong: the queue goes now (woken by the answer, or by this flush).
    await page.engine.flush();
    expect([server.gets.length, server.posts()]).toEqual([gets + 1, posts + 1]);
    vi.restoreAllMocks();

    // The browser reports a connection: everything goes at once.
    offline = false;
    await page.addNote({ id: 'n2', text: 'Typed online' });
    await waitFor(async () => (await unsent(page)) === 0);
    expect(await page.engine.refreshSource(page.source)).toBe('ok');
  });
});

describe('a server no background request reaches', () => {
  it('an answer to a request of the user’s own (a 409, say) makes it reachable again at once: the lists refresh', async () => {
    const page = await open();
    page.engine.start({ userId: 'u1' });
    await page.engine.refreshSource(page.source);
    await server.stop();
    // Two background requests without an answer: unreachable, and the next waits for the probe's window.
    await page.engine.refreshSource(page.source);
    await page.engine.refreshSource(page.source);
    expect(page.engine.getStatus().connection).toBe('unreachable');
    await server.start();
    const gets = server.gets.length;
    expect(await page.engine.refreshSource(page.source)).toBe('offline');
    expect(server.gets.length).toBe(gets);

    // The user's own request (a confirm, through the app's API client) gets an answer: the server is there.
    await apiFetch(`${server.url()}/notes`);
    expect(page.engine.getStatus().connection).toBe('online');
    expect(await page.engine.refreshSource(page.source)).toBe('ok');
  });
});

describe('following a change', () => {
  it('enqueue hands back what to follow; the change is waiting, on its way, then done, or refused, or gone once discarded', async () => {
    const page = await open();
    await server.stop();
    const queued = await page.addNote({ id: 'n1', text: 'Followed' });
    expect(queued).toMatchObject({ seq: expect.any(Number), target: { table: 'notes', id: 'n1' } });
    expect(await page.engine.changeState(queued.target)).toMatchObject({ state: 'waiting', attempts: 0 });
    page.engine.start({ userId: 'u1' });
    await waitFor(async () => {
      const state = await page.engine.changeState(queued.target);
      return state.state === 'waiting' && state.attempts === 1;
    });

    await server.start();
    server.knobs.postDelayMs = 300;
    void page.engine.reconnected();
    await waitFor(async () => (await page.engine.changeState(queued.target)).state === 'sending');
    await waitFor(async () => (await page.engine.changeState(queued.target)).state === 'done');

    server.knobs.refuse.set('n2', 409);
    const refused = await page.addNote({ id: 'n2', text: 'Refused' });
    await waitFor(async () => (await page.engine.changeState(refused.target)).state === 'attention');
    expect(await page.engine.changeState(refused.target)).toMatchObject({
      state: 'attention',
      seq: refused.seq,
      error: { status: 409, message: 'Note "Refused" was refused.' },
    });
    await page.engine.discardItem(refused.seq);
    expect(await page.engine.changeState(refused.target)).toEqual({ state: 'none' });
  });
});

describe('refusals', () => {
  it('item 3 of 5 is refused: it keeps its text and the message, 4 and 5 are sent, and the note after it waits', async () => {
    const page = await open();
    server.knobs.refuse.set('n3', 400);
    for (let i = 1; i <= 5; i++) await page.addNote({ id: `n${i}`, text: `Note ${i}` });
    await page.addNote({ id: 'reply', text: 'After note 3', after: 'n3' });
    page.engine.start({ userId: 'u1' });
    await waitFor(async () => (await unsent(page)) === 2);
    await page.engine.flush();

    expect([...server.store.keys()].sort()).toEqual(['n1', 'n2', 'n4', 'n5']);
    const items = await page.engine.outboxItems();
    expect(items.map((i) => [i.target.id, i.state, i.error?.message])).toEqual([
      ['n3', 'attention', 'Note "Note 3" was refused.'],
      ['reply', 'waiting', undefined],
    ]);
    expect(await page.notes.get('n3')).toEqual({ id: 'n3', text: 'Note 3', pending: true });

    // Edited and sent again: it goes, and the note waiting after it follows.
    server.knobs.refuse.clear();
    await page.engine.retryItem(items[0]!.seq, { id: 'n3', text: 'Note 3, corrected' });
    await waitFor(async () => (await unsent(page)) === 0);
    expect(server.store.get('n3')?.text).toBe('Note 3, corrected');
    expect(server.store.has('reply')).toBe(true);
  });

  it('discarding a refused item also discards what waits after it, and undoes both', async () => {
    const page = await open();
    server.knobs.refuse.set('q', 422);
    await page.addNote({ id: 'q', text: 'Question' });
    await page.addNote({ id: 'a', text: 'Answer', after: 'q' });
    page.engine.start({ userId: 'u1' });
    await waitFor(async () => (await page.engine.outboxItems()).some((i) => i.state === 'attention'));
    const [refused] = await page.engine.outboxItems();
    expect(await page.engine.discardItem(refused!.seq)).toBe(2);
    expect(await page.notes.count()).toBe(0);
    expect(await unsent(page)).toBe(0);
    expect(server.store.size).toBe(0);
  });

  it('a 500 is retried with backoff and the item goes once the server recovers', async () => {
    const page = await open();
    server.knobs.refuse.set('n1', 503);
    page.engine.start({ userId: 'u1' });
    await page.addNote({ id: 'n1', text: 'Hello' });
    await waitFor(async () => (await page.db.outbox.toArray())[0]?.attempts === 1);
    server.knobs.refuse.clear();
    // The first retry comes after one second, without anyone asking.
    await waitFor(async () => (await unsent(page)) === 0, 3000);
    expect(server.effects.get('n1')).toBe(1);
  });

  it('the list of unsent items names each item as its feature describes it, and leaves the rest to a generic label', async () => {
    const page = await open();
    await page.addNote({ id: 'n1', text: 'Hello' });
    await page.renameNote({ id: 'n1', text: 'Hello again' });
    const items = await page.engine.outboxItems();
    expect(items.map((i) => i.description)).toEqual([{ label: 'Note: Hello', href: '/notes#n1' }, undefined]);
  });

  it('an item saved by another version of the app is kept and shown as needing attention, never sent or dropped', async () => {
    const page = await open();
    await page.db.outbox.add({
      name: 'notes.add',
      version: 2,
      payload: { id: 'future', text: 'From a newer tab' },
      userId: 'u1',
      target: { table: 'notes', id: 'future' },
      state: 'waiting',
      attempts: 0,
      nextAttemptAt: 0,
      createdAt: '',
    });
    await page.addNote({ id: 'n1', text: 'Hello' });
    page.engine.start({ userId: 'u1' });
    await waitFor(() => server.store.has('n1'));
    await page.engine.flush();
    const items = await page.engine.outboxItems();
    expect(items.map((i) => [i.target.id, i.state, i.error?.code])).toEqual([
      ['future', 'attention', 'outbox.unknown_mutation'],
    ]);
    expect((await page.db.outbox.toArray())[0]?.state).toBe('waiting');
  });
});

describe('a pull that left before an acknowledgement (OFFLINE-ENGINE.md rule 9)', () => {
  /** Starts a refresh whose answer the server reads at once and sends `ms` later; returns once it has read. */
  async function startStalePull(page: Page, ms = 300) {
    server.knobs.answerDelayMs = ms;
    const read = server.gets.length;
    const refresh = page.engine.refreshSource(page.source);
    await waitFor(() => server.gets.length > read);
    server.knobs.answerDelayMs = 0;
    return { done: refresh };
  }

  it('does not delete a note acknowledged meanwhile; a pull that left after it settles it', async () => {
    const page = await open();
    page.engine.start({ userId: 'u1' });
    await page.engine.refreshSource(page.source);
    const stale = await startStalePull(page);
    await page.addNote({ id: 'n1', text: 'Typed during the pull' });
    await waitFor(async () => (await unsent(page)) === 0);
    expect(await stale.done).toBe('ok');
    expect(await page.notes.get('n1')).toMatchObject({
      id: 'n1',
      text: 'Typed during the pull',
      savedAt: expect.any(String),
    });
    expect(await page.db.settling.count()).toBe(1);

    await page.engine.refreshSource(page.source);
    expect(await page.notes.get('n1')).toMatchObject({ text: 'Typed during the pull' });
    expect(await page.db.settling.count()).toBe(0);
  });

  it('does not undo an acknowledged edit of a row without a version, in this tab or another', async () => {
    const name = newDbName();
    const [a, b] = [await open(name), await open(name)];
    server.store.set('n1', { id: 'n1', text: 'Before', savedAt: 'x' });
    a.engine.start({ userId: 'u1' });
    b.engine.start({ userId: 'u1' });
    await a.engine.refreshSource(a.source);
    // Something else changed too, so that the stale answers are whole ones, not "not modified".
    server.store.set('n2', { id: 'n2', text: 'Someone else', savedAt: 'x' });
    const [staleA, staleB] = [await startStalePull(a), await startStalePull(b)];
    await a.editNote({ id: 'n1', text: 'After' });
    await waitFor(async () => (await unsent(a)) === 0);
    await Promise.all([staleA.done, staleB.done]);
    expect(await a.notes.get('n1')).toMatchObject({ text: 'After' });

    // Once a pull shows the edit, the server's copy is the truth again: a later change on the server comes in.
    await a.engine.refreshSource(a.source);
    await b.engine.refreshSource(b.source);
    expect(await a.db.settling.count()).toBe(0);
    server.store.set('n1', { id: 'n1', text: 'Edited elsewhere', savedAt: 'y' });
    await b.engine.refreshSource(b.source);
    expect(await a.notes.get('n1')).toMatchObject({ text: 'Edited elsewhere' });
  });

  it('a server whose versions went back (restored, reset) does not hold a change forever', async () => {
    const page = await open();
    page.engine.start({ userId: 'u1' });
    // The start's own read is over before the note goes: no pull can settle it before the one below.
    await page.engine.refreshSource(page.source, { ifStale: true });
    await page.addNote({ id: 'n1', text: 'Hello' });
    await waitFor(async () => (await unsent(page)) === 0);
    const [record] = await page.db.settling.toArray();
    await page.db.settling.update(record!.seq!, { version: 1_000_000 });
    // This pull left after the acknowledgement: it reflects the change, whatever its version says.
    await page.engine.refreshSource(page.source);
    expect(await page.db.settling.count()).toBe(0);
  });
});

describe('settling with positions of several shards (docs/decisions/0027)', () => {
  /** Starts a refresh whose answer says `position`, read at once and sent later; returns once it has read. */
  async function startStalePull(page: Page, position: string) {
    server.knobs.position = () => position;
    server.knobs.answerDelayMs = 300;
    const read = server.gets.length;
    const refresh = page.engine.refreshSource(page.source);
    await waitFor(() => server.gets.length > read);
    server.knobs.answerDelayMs = 0;
    return { done: refresh };
  }

  /** Sends a note whose acknowledgement says `position`, while `pull` (left before it) is on its way. */
  async function acknowledge(page: Page, position: string) {
    server.knobs.position = () => position;
    await page.addNote({ id: 'n1', text: 'Typed during the pull' });
    await waitFor(async () => (await unsent(page)) === 0);
  }

  async function started() {
    const page = await open();
    page.engine.start({ userId: 'u1' });
    // The start's own read is over before the pulls below: none of them settles anything by leaving late.
    await page.engine.refreshSource(page.source, { ifStale: true });
    return page;
  }

  afterEach(() => {
    server.knobs.position = null;
  });

  it('keeps the acknowledged change as its text, and a pull that covers every shard settles it', async () => {
    const page = await started();
    const stale = await startStalePull(page, '4-7');
    await acknowledge(page, '3-7');
    expect((await page.db.settling.toArray()).map((record) => record.version)).toEqual(['3-7']);
    expect(await stale.done).toBe('ok');
    expect(await page.db.settling.count()).toBe(0);
  });

  it('a pull ahead on one shard but behind on another does not settle it, nor undo the change', async () => {
    const page = await started();
    // As a number, 9 is past 3; as a position, shard 1 is at 6, before the change's 7.
    const stale = await startStalePull(page, '9-6');
    await acknowledge(page, '3-7');
    expect(await stale.done).toBe('ok');
    expect(await page.db.settling.count()).toBe(1);
    expect(await page.notes.get('n1')).toMatchObject({ text: 'Typed during the pull', savedAt: expect.any(String) });
  });

  it('a number stored by an older version reads as a one-shard position', async () => {
    const page = await started();
    const behind = await startStalePull(page, '2-5');
    await acknowledge(page, '3');
    const [record] = await page.db.settling.toArray();
    // As the app stored it before positions had shards.
    await page.db.settling.update(record!.seq!, { version: 3 });
    expect(await behind.done).toBe('ok');
    expect(await page.db.settling.count()).toBe(1);

    // A pull that left after the record was written settles it whatever it says: the record is written again
    // once this one is on its way, so that only its position can settle it.
    const covering = await startStalePull(page, '3-1');
    await page.db.transaction('rw', page.db.settling, async () => {
      await page.db.settling.delete(record!.seq!);
      await page.db.settling.add({ ...record!, seq: undefined, version: 3 });
    });
    expect(await covering.done).toBe('ok');
    expect(await page.db.settling.count()).toBe(0);
  });

  it("rows fetched by a page leave the change's rows alone unless their position covers it", async () => {
    const page = await started();
    await acknowledge(page, '3-7');
    const [record] = await page.db.settling.toArray();
    const stale = { id: 'n1', text: 'Before the change' };
    await page.engine.mergeRows({ put: { notes: [stale] }, syncedTo: [9, 6], collection: 'notes' });
    expect(await page.notes.get('n1')).toMatchObject({ text: 'Typed during the pull' });
    await page.db.settling.update(record!.seq!, { version: 3 });
    await page.engine.mergeRows({ put: { notes: [stale] }, syncedTo: [2, 9], collection: 'notes' });
    expect(await page.notes.get('n1')).toMatchObject({ text: 'Typed during the pull' });
    await page.engine.mergeRows({
      put: { notes: [{ id: 'n1', text: 'On the server' }] },
      syncedTo: [3, 0, 1],
      collection: 'notes',
    });
    expect(await page.notes.get('n1')).toMatchObject({ text: 'On the server' });
  });
});

describe('dependencies name the table as well as the id (rule 10)', () => {
  it('a refused change to one row does not hold back, or take with it, the items that follow a row of another table with the same id', async () => {
    const page = await open();
    server.store.set('q', { id: 'q', text: 'A question on the server', savedAt: 'x' });
    // A vote-like change: it targets row `q` of another table, and follows the question.
    const flag = page.engine.defineMutation<{ noteId: string }>({
      name: 'notes.flag',
      version: 1,
      target: (p) => ({ table: 'flags', id: p.noteId }),
      after: (p) => ({ table: 'notes', id: p.noteId }),
      apply: async () => undefined,
      send: async () => {
        throw new ApiError(409, 'flags.refused', 'Flag refused.');
      },
    });
    page.engine.start({ userId: 'u1' });
    await flag({ noteId: 'q' });
    await page.addNote({ id: 'answer', text: 'An answer to q', after: 'q' });
    await waitFor(() => server.store.has('answer'));
    await waitFor(async () => (await unsent(page)) === 1);
    const [refused] = await page.engine.outboxItems();
    expect(refused).toMatchObject({ name: 'notes.flag', state: 'attention', dependants: 0 });
    expect(await page.engine.discardItem(refused!.seq)).toBe(1);
    expect(await page.notes.get('answer')).toMatchObject({ text: 'An answer to q' });
  });

  it('an item an older build queued with a bare id still waits for its row', async () => {
    const page = await open();
    server.knobs.refuse.set('q', 422);
    await page.addNote({ id: 'q', text: 'Question' });
    await page.db.outbox.add({
      name: 'notes.add',
      version: 1,
      payload: { id: 'a', text: 'Answer', after: 'q' },
      userId: 'u1',
      target: { table: 'notes', id: 'a' },
      after: 'q',
      state: 'waiting',
      attempts: 0,
      nextAttemptAt: 0,
      createdAt: '',
    });
    page.engine.start({ userId: 'u1' });
    await waitFor(async () => (await page.engine.outboxItems()).some((i) => i.state === 'attention'));
    await page.engine.flush();
    expect(server.store.has('a')).toBe(false);
    expect((await page.engine.outboxItems()).map((i) => [i.target.id, i.waitsForEarlier, i.dependants])).toEqual([
      ['q', false, 1],
      ['a', true, 0],
    ]);
  });
});

describe('whose change it is (Change-User, Change-Id)', () => {
  it('a log-in in another tab between the owner check and the request: the server refuses it, nothing is stored for the other user, and the queue waits for its owner', async () => {
    const page = await open();
    // The cookie is u2's now; this device's record still says u1, so the owner check passes.
    server.knobs.sessionUser = 'u2';
    page.engine.start({ userId: 'u1' });
    await page.addNote({ id: 'n1', text: 'Mine' });
    await waitFor(() => page.engine.getStatus().paused);
    expect(server.store.size).toBe(0);
    expect(await unsent(page)).toBe(1);

    server.knobs.sessionUser = 'u1';
    page.engine.setUser('u1');
    await waitFor(async () => (await unsent(page)) === 0);
    expect(server.owners.get('n1')).toBe('u1');
  });

  it('a refused change sent again unchanged is refused again; edited, it goes as a new change', async () => {
    const page = await open();
    server.knobs.refuse.set('n1', 400);
    page.engine.start({ userId: 'u1' });
    await page.addNote({ id: 'n1', text: 'Too short' });
    await waitFor(async () => (await page.engine.outboxItems())[0]?.state === 'attention');
    // What refused it has changed, but the server answers the same change the same way.
    server.knobs.refuse.clear();
    const [item] = await page.engine.outboxItems();
    await page.engine.retryItem(item!.seq);
    await waitFor(async () => (await page.engine.outboxItems())[0]?.state === 'attention');
    expect(server.store.size).toBe(0);

    await page.engine.retryItem(item!.seq, { id: 'n1', text: 'Long enough now' });
    await waitFor(async () => (await unsent(page)) === 0);
    expect(server.store.get('n1')?.text).toBe('Long enough now');
  });
});

describe('a 401 in the middle of the queue', () => {
  it('pauses the queue with nothing lost, and resumes only for the same user', async () => {
    const page = await open();
    for (let i = 1; i <= 5; i++) await page.addNote({ id: `n${i}`, text: `Note ${i}` });
    server.knobs.refuse.set('n3', 401);
    server.knobs.unauthorised = false;
    page.engine.start({ userId: 'u1' });
    await waitFor(() => page.engine.getStatus().paused);
    expect([...server.store.keys()]).toEqual(['n1', 'n2']);
    server.knobs.refuse.clear();

    // Still paused: more work, focus and a reconnect send nothing.
    await page.addNote({ id: 'n6', text: 'Note 6' });
    await page.engine.reconnected();
    await page.engine.flush();
    expect(server.store.size).toBe(2);

    // Someone else signs in on this tab: the first user's items are not sent with their cookie.
    await page.db.session.update('me', {
      me: { id: 'u2', name: 'Other', email: 'u2@example.test', emailVerified: true, role: 'student', categories: [] },
    });
    page.engine.setUser('u2');
    await page.engine.flush();
    expect(server.store.size).toBe(2);

    await page.db.session.update('me', {
      me: { id: 'u1', name: 'Test', email: 'u1@example.test', emailVerified: true, role: 'student', categories: [] },
    });
    page.engine.setUser('u1');
    await waitFor(async () => (await unsent(page)) === 0);
    expect([...server.store.keys()].sort()).toEqual(['n1', 'n2', 'n3', 'n4', 'n5', 'n6']);
  });
});

describe('at scale and under chaos', () => {
  // How long the flush takes is measured by bench/outbox.ts (`npm run bench`), not by a timed test.
  it('200 queued notes all reach the server, each once and in order', async () => {
    const page = await open();
    for (let i = 0; i < 200; i++) await page.addNote({ id: `n${i}`, text: `Note ${i}` });
    page.engine.start({ userId: 'u1' });
    await waitFor(async () => (await unsent(page)) === 0, 20_000);
    expect([...server.store.keys()]).toEqual(Array.from({ length: 200 }, (_, i) => `n${i}`));
    expect([...server.effects.values()].every((n) => n === 1)).toBe(true);
  });

  it(
    "two tabs queue 100 notes each; the sending tab closes mid-request: all 200 arrive once, in each tab's order",
    { timeout: 60_000 },
    async () => {
      const name = newDbName();
      const [a, b] = [await open(name), await open(name)];
      await server.stop();
      for (let i = 0; i < 100; i++) {
        await a.addNote({ id: `a-${String(i).padStart(3, '0')}`, text: `From tab A, ${i}` });
        await b.addNote({ id: `b-${String(i).padStart(3, '0')}`, text: `From tab B, ${i}` });
      }
      await server.start();
      a.engine.start({ userId: 'u1' });
      b.engine.start({ userId: 'u1' });
      // Tab A (or B: whichever holds the Web Lock) is closed while its requests are on their way.
      await waitFor(() => server.store.size >= 40);
      a.engine.stop();
      a.db.close();
      await b.engine.reconnected();
      await waitFor(() => server.store.size === 200, 30_000);
      expect([...server.effects.values()].every((n) => n === 1)).toBe(true);
      const arrived = [...server.store.keys()];
      for (const tab of ['a-', 'b-']) {
        const order = arrived.filter((id) => id.startsWith(tab));
        expect(order).toEqual([...order].sort());
      }
      await waitFor(async () => (await unsent(b)) === 0);
    },
  );

  it(
    'random enqueues, outages, lost answers, reloads and restarts: every note reaches the server once, none is lost',
    { timeout: 120_000 },
    async () => {
      const runs = 6;
      for (let run = 0; run < runs; run++) {
        let seed = 1000 + run;
        const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
        const name = newDbName();
        let page = await open(name);
        page.engine.start({ userId: 'u1' });
        const typed = new Map<string, string>();
        let down = false;
        const log: string[] = [];
        for (let step = 0; step < 40; step++) {
          const roll = random();
          if (roll < 0.45) {
            const id = `r${run}-${step}`;
            const previous = [...typed.keys()].at(-1);
            // Some notes follow the one before (an answer after its question).
            await page.addNote({ id, text: `Run ${run} step ${step}`, after: random() < 0.3 ? previous : undefined });
            typed.set(id, `Run ${run} step ${step}`);
            log.push('enqueue');
          } else if (roll < 0.55 && !down) {
            await server.stop();
            down = true;
            log.push('offline');
          } else if (roll < 0.65 && down) {
            await server.start();
            down = false;
            await page.engine.reconnected();
            log.push('online');
          } else if (roll < 0.75) {
            server.knobs.dropAfterCommit += 1 + Math.floor(random() * 3);
            log.push('lose answers');
          } else if (roll < 0.85) {
            // The page is closed mid-work and opened again over the same IndexedDB.
            page.engine.stop();
            page.db.close();
            page = await open(name);
            page.engine.start({ userId: 'u1' });
            log.push('reload');
          } else if (roll < 0.95 && !down) {
            await server.stop();
            await server.start();
            log.push('restart');
          } else {
            await new Promise((resolve) => setTimeout(resolve, 20 + random() * 50));
            log.push('wait');
          }
        }
        if (down) await server.start();
        server.knobs.dropAfterCommit = 0;
        await page.engine.reconnected();
        await waitFor(async () => (await unsent(page)) === 0, 20_000).catch(() => {
          throw new Error(`Run ${run} did not drain: ${log.join(', ')}`);
        });
        for (const [id, text] of typed) {
          expect(server.store.get(id)?.text, `run ${run}: ${log.join(', ')}`).toBe(text);
          expect(server.effects.get(id)).toBe(1);
        }
        await page.engine.refreshSource(page.source);
        const local = await page.notes.toArray();
        expect(local.filter((n) => n.id.startsWith(`r${run}-`)).length).toBe(typed.size);
        expect(local.every((n) => !n.pending)).toBe(true);
        console.info(
          `random run ${run}: ${typed.size} notes, ${log.length} steps (${log.filter((s) => s === 'reload').length} reloads), ${server.posts()} posts so far`,
        );
      }
    },
  );
});

/** Deletes a database as another tab, DevTools or the browser's eviction would: open connections are asked to close first. */
function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error('not deleted'));
  });
}

/** What the browser does when it drops a connection (WebKit) or DevTools clears the site's data. */
const forceClose = (page: Page) => forceCloseDatabase(page.db.backendDB() as unknown as typeof IDBDatabase);

const markOf = (marks: ReturnType<typeof createMarks>, name: string) =>
  JSON.parse(marks.map.get(`${name}:stored-user`) ?? 'null') as { userId: string; unsent: number } | null;

describe('storage that vanishes', () => {
  it('wiped while the app was closed: the next start says how many unsent items went with it, and every source loads from the start', async () => {
    const name = newDbName();
    const marks = createMarks();
    server.store.set('n1', { id: 'n1', text: 'On the server', savedAt: 'x' });
    const before = await open(name, 'u1', { marks });
    await before.engine.refreshSource(before.source);
    expect(server.since).toEqual(['']);
    await before.engine.refreshSource(before.source);
    expect(server.since).toEqual(['', '1']);
    await server.stop();
    await before.addNote({ id: 'n2', text: 'Typed offline' });
    await waitFor(() => markOf(marks, name)?.unsent === 1);
    before.engine.stop();
    before.db.close();
    await deleteDatabase(name);
    await server.start();

    // The app starts with nobody, then the server names u1: nothing stored, but the mark says what was there.
    const after = await open(name, 'u1', { marks, session: false });
    after.engine.start({ userId: null });
    await after.engine.noticeSignedIn('u1', { loggingIn: false });
    expect(after.engine.getStatus().storage).toEqual({ state: 'cleared', unsent: 1 });
    await after.signIn();
    await waitFor(async () => (await after.notes.count()) === 1);
    expect(server.since.at(-1)).toBe('');
    expect(await after.notes.get('n1')).toEqual(server.store.get('n1'));
    expect(server.store.has('n2')).toBe(false);
    // From now on the mark follows the new database: a reload finds it whole and says nothing.
    await waitFor(() => markOf(marks, name)?.unsent === 0);
    const reloaded = await open(name, 'u1', { marks, session: false });
    await reloaded.engine.noticeSignedIn('u1', { loggingIn: false });
    expect(reloaded.engine.getStatus().storage).toEqual({ state: 'ok' });
  });

  it('nothing stored and no mark either (Safari clears both): a loss of unknown size, unless the user is logging in right now', async () => {
    const name = newDbName();
    const loggingIn = await open(name, 'u1', { session: false });
    await loggingIn.engine.noticeSignedIn('u1', { loggingIn: true });
    expect(loggingIn.engine.getStatus().storage).toEqual({ state: 'ok' });

    const returning = await open(newDbName(), 'u1', { session: false });
    await returning.engine.noticeSignedIn('u1', { loggingIn: false });
    expect(returning.engine.getStatus().storage).toEqual({ state: 'cleared', unsent: null });
    // Said once per page: the app's later checks (reconnecting, say) do not repeat it.
    const reported = returning.engine.getStatus();
    await returning.engine.noticeSignedIn('u1', { loggingIn: false });
    expect(returning.engine.getStatus()).toBe(reported);
  });

  it('found emptied as the page starts (a new device, cleared site data): what the page has read since is not read again', async () => {
    const page = await open(newDbName(), 'u1', { session: false });
    let reads = 0;
    const catalogue = page.engine.defineSource({
      name: 'catalogue',
      tables: [],
      needsUser: false,
      listensTo: [],
      pull: () => Promise.resolve((reads += 1) && {}),
    });
    page.engine.setUser('u1');
    await page.engine.refreshSource(catalogue, { ifStale: true });
    await page.engine.noticeSignedIn('u1', { loggingIn: false });
    expect(page.engine.getStatus().storage).toEqual({ state: 'cleared', unsent: null });
    // Everything else loads (the user's notes, from the start).
    await waitFor(() => server.gets.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reads).toBe(1);
  });

  it("a log-out takes the mark with the data: logging in again later is no loss; another user's mark gives no count", async () => {
    const name = newDbName();
    const marks = createMarks();
    const page = await open(name, 'u1', { marks });
    await page.addNote({ id: 'n1', text: 'Unsent' });
    await waitFor(() => markOf(marks, name)?.unsent === 1);
    await page.engine.clearUserData();
    expect(markOf(marks, name)).toBeNull();
    const next = await open(name, 'u1', { marks, session: false });
    await next.engine.noticeSignedIn('u1', { loggingIn: true });
    expect(next.engine.getStatus().storage).toEqual({ state: 'ok' });

    marks.setItem(`${name}:stored-user`, JSON.stringify({ userId: 'u2', unsent: 4 }));
    const other = await open(name, 'u1', { marks, session: false });
    await other.engine.noticeSignedIn('u1', { loggingIn: true });
    expect(other.engine.getStatus().storage).toEqual({ state: 'cleared', unsent: null });
  });

  it('the browser closes the connection: it is opened again at once, with everything it held, and sending goes on', async () => {
    const page = await open();
    page.engine.start({ userId: 'u1' });
    await page.addNote({ id: 'n1', text: 'Before' });
    await waitFor(async () => (await unsent(page)) === 0);
    const first = page.db.backendDB();
    forceClose(page);
    // Opened again by the engine, before anything asked for it.
    await waitFor(() => page.db.isOpen() && page.db.backendDB() !== first);
    expect(page.engine.getStatus().storage).toEqual({ state: 'ok' });
    expect(await page.notes.get('n1')).toEqual(server.store.get('n1'));
    await page.addNote({ id: 'n2', text: 'After' });
    await waitFor(() => server.store.has('n2'));
  });

  it('the database is deleted under a running page: the loss is reported with what was unsent, and the page goes on for the same user', async () => {
    const name = newDbName();
    const marks = createMarks();
    server.store.set('n1', { id: 'n1', text: 'On the server', savedAt: 'x' });
    const page = await open(name, 'u1', { marks });
    page.engine.start({ userId: 'u1' });
    await page.engine.refreshSource(page.source);
    server.knobs.refuse.set('n2', 503);
    await page.addNote({ id: 'n2', text: 'Not sent yet' });
    await waitFor(() => markOf(marks, name)?.unsent === 1);

    await deleteDatabase(name);
    await waitFor(() => page.engine.getStatus().storage.state === 'cleared');
    expect(page.engine.getStatus().storage).toEqual({ state: 'cleared', unsent: 1 });
    // Loaded again for the same user (the session record went back), and new work is sent.
    await waitFor(async () => (await page.notes.count()) === 1);
    expect((await page.db.session.get('me'))?.me.id).toBe('u1');
    await page.addNote({ id: 'n3', text: 'After the loss' });
    await waitFor(() => server.store.has('n3'));
    expect(server.store.has('n2')).toBe(false);
  });

  it('the database is deleted while the page is still loading the engine: the loss is reported when it starts', async () => {
    const name = newDbName();
    const marks = createMarks();
    server.store.set('n1', { id: 'n1', text: 'On the server', savedAt: 'x' });
    const page = await open(name, 'u1', { marks });
    // Signed in (the session names the user before the engine runs, lib/session.tsx): the mark is written.
    await waitFor(() => markOf(marks, name)?.unsent === 0);

    await deleteDatabase(name);
    await waitFor(() => !page.db.isOpen());
    // The watch has heard of the close (it looks a task later), while the engine was not running.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(page.engine.getStatus().storage).toEqual({ state: 'ok' });
    page.engine.start({ userId: 'u1' });
    await waitFor(() => page.engine.getStatus().storage.state === 'cleared');
    expect(page.engine.getStatus().storage).toEqual({ state: 'cleared', unsent: 0 });
    await waitFor(async () => (await page.notes.count()) === 1);
    expect((await page.db.session.get('me'))?.me.id).toBe('u1');
  });

  it('an open that fails once (closed again while opening) is tried again before anything is reported', async () => {
    const page = await open();
    page.engine.start({ userId: 'u1' });
    await page.addNote({ id: 'n1', text: 'Kept' });
    await waitFor(async () => (await unsent(page)) === 0);
    const states: string[] = [];
    page.engine.subscribe(() => states.push(page.engine.getStatus().storage.state));
    const factory = indexedDB as IDBFactory & { open: IDBFactory['open'] };
    factory.open = () => {
      delete (factory as { open?: unknown }).open;
      throw new DOMException('The connection was closed.', 'AbortError');
    };
    try {
      const first = page.db.backendDB();
      forceClose(page);
      await waitFor(() => page.db.isOpen() && page.db.backendDB() !== first);
    } finally {
      delete (factory as { open?: unknown }).open;
    }
    expect(states).not.toContain('failing');
    expect(page.engine.getStatus().storage).toEqual({ state: 'ok' });
    expect(await page.notes.get('n1')).toEqual(server.store.get('n1'));
  });

  it('a database that cannot be opened again is reported as failing, a write says so, and it recovers once it opens', async () => {
    const page = await open();
    page.engine.start({ userId: 'u1' });
    await page.addNote({ id: 'n1', text: 'Kept' });
    await waitFor(async () => (await unsent(page)) === 0);
    // WebKit's lost IndexedDB server: every open fails until the page reloads (here: until it is restored).
    const factory = indexedDB as IDBFactory & { open: IDBFactory['open'] };
    factory.open = () => {
      throw new DOMException(
        'Connection to Indexed Database server lost. Refresh the page to try again',
        'UnknownError',
      );
    };
    try {
      forceClose(page);
      await waitFor(() => page.engine.getStatus().storage.state === 'failing');
      const error = await page.addNote({ id: 'n2', text: 'Lost?' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LocalWriteError);
      expect((error as Error).message).toMatch(/could not be saved on your device/);
    } finally {
      delete (factory as { open?: unknown }).open;
    }
    await page.engine.reconnected();
    await waitFor(() => page.engine.getStatus().storage.state === 'ok');
    expect(await page.notes.get('n1')).toEqual(server.store.get('n1'));
  });
});

describe('a new version of the app', () => {
  it('adds a table: what the older page queued is kept, and the older page, closed for the upgrade, opens again and sends it once', async () => {
    const name = newDbName();
    const old = await open(name);
    await server.stop();
    await old.addNote({ id: 'n1', text: 'Queued by the old version' });
    old.engine.start({ userId: 'u1' });

    const db = createLocalDb(name);
    defineLocalTable({ name: 'notes', schema: 'id', version: 1, scope: 'user' }, db);
    const tags = defineLocalTable<{ id: string }>({ name: 'tags', schema: 'id', version: 1, scope: 'public' }, db);
    completeSchema(db);
    const upgraded = createEngine(db, { marks: createMarks() });
    pages.push({ db, engine: upgraded } as Page);
    await tags.put({ id: 't1' });
    expect((await db.outbox.toArray()).map((row) => [row.name, row.version, row.payload])).toEqual([
      ['notes.add', 1, { id: 'n1', text: 'Queued by the old version' }],
    ]);

    await server.start();
    await old.engine.reconnected();
    await waitFor(() => server.store.has('n1'));
    await waitFor(async () => (await db.outbox.count()) === 0);
    expect(server.effects.get('n1')).toBe(1);
    expect(old.engine.getStatus().storage).toEqual({ state: 'ok' });
    expect(await db.table('notes').get('n1')).toEqual(server.store.get('n1'));
  });
});

describe('background refresh off (the data saver)', () => {
  it('nothing refreshes by itself, a page reads only a source never read here, asking reads, and turning it back on catches up', async () => {
    const name = newDbName();
    server.store.set('n1', { id: 'n1', text: 'Mine', savedAt: 'x' });
    const first = await open(name);
    first.engine.setBackgroundRefresh(false);
    first.engine.start();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.gets).toHaveLength(0);
    // Never read on this device: a page opening reads it.
    await first.engine.refreshSource(first.source, { ifStale: true });
    expect(server.gets).toHaveLength(1);
    expect(await first.notes.count()).toBe(1);

    // The app opened again (a new tab over the same database): it starts, a page opens, the stream would be
    // back, a notice would come: none of them reads.
    const second = await open(name);
    second.engine.setBackgroundRefresh(false);
    second.engine.start();
    await second.engine.refreshSource(second.source, { ifStale: true });
    await second.engine.reconnected();
    await second.engine.refreshSources('notes');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.gets).toHaveLength(1);

    // What she queues is still sent.
    await second.addNote({ id: 'n2', text: 'Sent all the same' });
    await waitFor(() => server.store.has('n2'));
    expect(server.gets).toHaveLength(1);

    // "Refresh": she asks, and it reads.
    await second.engine.refreshSource(second.source);
    expect(server.gets).toHaveLength(2);

    // Live again: every source catches up at once.
    server.store.set('n3', { id: 'n3', text: 'Written elsewhere', savedAt: 'y' });
    second.engine.setBackgroundRefresh(true);
    await waitFor(async () => (await second.notes.get('n3')) !== undefined);
    expect(server.gets).toHaveLength(3);
  });
});

describe('public lists no page has shown', () => {
  it('are read as the engine starts only while the device does not hold them: a page reads one as it opens; a notice still reads it', async () => {
    const name = newDbName();
    const pageWithCatalogue = async () => {
      const page = await open(name);
      let reads = 0;
      const catalogue = page.engine.defineSource({
        name: 'catalogue',
        tables: [],
        needsUser: false,
        listensTo: ['modules'],
        pull: () => Promise.resolve((reads += 1) && {}),
      });
      return { page, catalogue, reads: () => reads };
    };
    // A new device: the catalogue is read once as the engine starts, so that its pages open offline.
    const first = await pageWithCatalogue();
    first.page.engine.start();
    await waitFor(() => server.gets.length === 1 && first.reads() === 1);

    // The app opened again (a new tab): the user's own list is read at once; the catalogue, held and shown on no
    // page, is not.
    const second = await pageWithCatalogue();
    second.page.engine.start();
    await waitFor(() => server.gets.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(second.reads()).toBe(0);
    // Its page reads it as it opens.
    await second.page.engine.refreshSource(second.catalogue, { ifStale: true });
    expect(second.reads()).toBe(1);
    // A notice reads it all the same (another tab may show it), and so does a resync.
    await second.page.engine.refreshSources('modules');
    expect(second.reads()).toBe(2);
    await second.page.engine.reconnected();
    await waitFor(() => second.reads() === 3);
  });
});

describe('lists read on demand (one category’s free times of several)', () => {
  it('are not read as the engine starts, nor on a notice, until a page shows one; then notices keep it fresh', async () => {
    const name = newDbName();
    const pageWithTimes = async () => {
      const page = await open(name);
      let reads = 0;
      const times = page.engine.defineSource({
        name: 'times',
        tables: [],
        needsUser: true,
        onDemand: true,
        listensTo: ['availability'],
        pull: () => Promise.resolve((reads += 1) && {}),
      });
      return { page, times, reads: () => reads };
    };
    const first = await pageWithTimes();
    first.page.engine.start();
    // The user's own list is read; the free times are not, and a notice about them reads nothing either.
    await waitFor(() => server.gets.length === 1);
    await first.page.engine.refreshSources('availability');
    await first.page.engine.reconnected();
    await waitFor(() => server.gets.length === 2);
    expect(first.reads()).toBe(0);
    // A page shows them: read; a notice reads them again.
    await first.page.engine.refreshSource(first.times, { ifStale: true });
    expect(first.reads()).toBe(1);
    await first.page.engine.refreshSources('availability');
    expect(first.reads()).toBe(2);

    // The app opened again: held, but shown on no page yet, they wait for their page as it starts; a notice
    // keeps them fresh all the same (another tab may show them).
    const second = await pageWithTimes();
    second.page.engine.start();
    await waitFor(() => server.gets.length === 3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(second.reads()).toBe(0);
    await second.page.engine.refreshSources('availability');
    expect(second.reads()).toBe(1);
  });
});
