// Before Dexie is imported: it takes IndexedDB from the global scope when it loads.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Me } from '../../common/session.ts';
import { pendingSignOutKey, storedUserKey } from '../lib/device-mark.ts';
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
    page.engine.identity.close();
    page.db.close();
  }
  await server.stop().catch(() => undefined);
});

const person = (id: string, name = 'Test'): Me => ({
  id,
  name,
  email: `${id}@example.test`,
  emailVerified: true,
  role: 'student',
  categories: [],
});

/** A page over database `name` that has not been told who is signed in: the identity decides. */
async function open(name = newDbName(), options: PageOptions = {}) {
  const page = await openPage(name, server, 'u1', { session: false, ...options });
  pages.push(page);
  return page;
}

describe('one owner of whose data the device holds', () => {
  it('restores from the page the server rendered, else from the record; an ended session or a pending log-out names nobody', async () => {
    const name = newDbName();
    const served = await open(name);
    await served.engine.identity.restore(person('u1'));
    expect(served.engine.identity.current()).toEqual({ state: 'signed-in', me: person('u1'), confirmed: false });
    expect(served.engine.user()).toBe('u1');
    // Nothing was written: the page alone is not the server's word.
    expect(await served.db.session.count()).toBe(0);

    await served.db.session.put({ key: 'me', me: person('u1'), savedAt: 'x' });
    const offline = await open(name);
    await offline.engine.identity.restore();
    expect(offline.engine.identity.current()).toMatchObject({ state: 'signed-in', me: { id: 'u1' }, confirmed: false });

    await served.db.session.update('me', { endedAt: 'y' });
    const ended = await open(name);
    await ended.engine.identity.restore();
    expect(ended.engine.identity.current()).toEqual({ state: 'unknown' });
    expect(ended.engine.user()).toBeNull();

    const marks = createMarks();
    marks.setItem(pendingSignOutKey, '1');
    const loggedOut = await open(name, { marks });
    await loggedOut.engine.identity.restore();
    expect(loggedOut.engine.identity.current()).toEqual({ state: 'visitor' });
  });

  it("someone else named: the last user's data and queue go, then the record and the engine are the new user's (a new generation)", async () => {
    const page = await open();
    const { identity } = page.engine;
    await identity.named(person('u1'));
    page.engine.start();
    await page.addNote({ id: 'n1', text: "u1's, unsent" });
    await server.stop();
    const generation = page.engine.generation();

    await identity.named(person('u2', 'Next'));
    expect(identity.current()).toEqual({ state: 'signed-in', me: person('u2', 'Next'), confirmed: true });
    expect(page.engine.user()).toBe('u2');
    expect(page.engine.generation()).toBeGreaterThan(generation);
    expect(await page.notes.count()).toBe(0);
    expect(await page.db.outbox.count()).toBe(0);
    expect((await page.db.session.get('me'))?.me.id).toBe('u2');
  });

  it('the same user named again keeps their data, lifts a 401 pause and sends what waited', async () => {
    const page = await open();
    const { identity } = page.engine;
    await identity.named(person('u1'));
    page.engine.start();
    server.knobs.unauthorised = true;
    await page.addNote({ id: 'n1', text: 'Queued' });
    await waitFor(() => page.engine.getStatus().paused);
    const generation = page.engine.generation();

    server.knobs.unauthorised = false;
    await identity.named(person('u1'));
    await waitFor(() => server.store.has('n1'));
    expect(page.engine.generation()).toBe(generation);
    expect(page.engine.getStatus().paused).toBe(false);
  });

  it('nobody: a session this page used has ended (the page and the queue stay); otherwise the data goes', async () => {
    const marks = createMarks();
    const page = await open(newDbName(), { marks });
    const { identity } = page.engine;
    await identity.named(person('u1'));
    page.engine.start();
    await server.stop();
    await page.addNote({ id: 'n1', text: 'Typed before it ended' });

    await identity.nobody();
    expect(identity.current()).toEqual({ state: 'ended', me: person('u1') });
    expect(page.engine.user()).toBe('u1');
    expect(await page.db.outbox.count()).toBe(1);
    expect((await page.db.session.get('me'))?.endedAt).toBeDefined();

    // Another page, opened on the record alone: the server's word decides, and nobody is signed in.
    const next = await open(page.db.name, { marks });
    await next.engine.identity.restore();
    await next.engine.identity.nobody();
    expect(next.engine.identity.current()).toEqual({ state: 'visitor' });
    expect(await next.db.session.count()).toBe(0);
    expect(await next.db.outbox.count()).toBe(0);
    expect(marks.map.has(storedUserKey(page.db.name))).toBe(false);
  });

  it('log-out clears the data at once, keeps the server to be told, and the other tabs follow without clearing again', async () => {
    const name = newDbName();
    const marks = createMarks();
    const [here, there] = [await open(name, { marks }), await open(name, { marks })];
    await here.engine.identity.named(person('u1'));
    await there.engine.identity.restore();
    expect(there.engine.identity.current()).toMatchObject({ state: 'signed-in', me: { id: 'u1' } });
    const heard: boolean[] = [];
    there.engine.identity.subscribe((followed) => heard.push(followed));

    await here.engine.identity.signOut();
    expect(here.engine.identity.current()).toEqual({ state: 'visitor' });
    expect(marks.map.get(pendingSignOutKey)).toBe('1');
    expect(await here.db.session.count()).toBe(0);
    await waitFor(() => there.engine.identity.current().state === 'visitor');
    expect(there.engine.user()).toBeNull();
    // The other tab's page hears it came from elsewhere (its guarded pages go home).
    expect(heard).toEqual([true]);

    here.engine.identity.signOutSent();
    expect(marks.map.has(pendingSignOutKey)).toBe(false);
  });

  it('the page subscribes and hears each change once', async () => {
    const page = await open();
    const heard: string[] = [];
    page.engine.identity.subscribe(() => heard.push(page.engine.identity.current().state));
    await page.engine.identity.named(person('u1'));
    await page.engine.identity.named(person('u1'));
    await page.engine.identity.ended();
    await page.engine.identity.signOut({ serverDone: true });
    expect(heard).toEqual(['signed-in', 'ended', 'visitor']);
  });
});
