// Before Dexie is imported: it takes IndexedDB from the global scope when it loads.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newDbName, openPage, startNoteServer, waitFor, type NoteServer, type Page } from '../test/engine-test-kit.ts';

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
  await server.stop();
});

async function open(name = newDbName(), userId = 'u1') {
  const page = await openPage(name, server, userId);
  pages.push(page);
  return page;
}

const stateOf = (page: Page) => page.db.syncState.get('notes');

/** Pulls until the list's ETag is kept: the first answer moves the cursor from the start, the next one does not. */
async function settle(page: Page) {
  expect(await page.engine.refreshSource(page.source)).toBe('ok');
  expect(await page.engine.refreshSource(page.source)).toBe('ok');
  const state = await stateOf(page);
  expect(state?.etag).toMatch(/^W\/".+"$/);
  return state!;
}

describe('a list asked for again (repeat visits on prepaid data)', () => {
  it('unchanged on the server: the ETag goes back, the answer is a 304, and rows and cursor stay as they were', async () => {
    server.store.set('n1', { id: 'n1', text: 'On the server', savedAt: 'x' });
    const page = await open();
    const before = await settle(page);
    // The first answer moved the cursor, so its ETag named a request that is not made again: none was sent back.
    expect(server.gets).toEqual([
      { since: '', ifNoneMatch: null, status: 200 },
      { since: '1', ifNoneMatch: null, status: 200 },
    ]);
    const rows = await page.notes.toArray();

    expect(await page.engine.refreshSource(page.source)).toBe('ok');
    expect(server.gets.at(-1)).toEqual({ since: '1', ifNoneMatch: before.etag, status: 304 });
    expect(await page.notes.toArray()).toEqual(rows);
    const after = await stateOf(page);
    expect(after).toMatchObject({ cursor: '1', etag: before.etag, userId: 'u1' });
    // Freshly synced: the server said so.
    expect(after!.syncedAt > before.syncedAt).toBe(true);
  });

  it('changed on the server: the old ETag goes back, the answer is the new list, and its ETag is kept instead', async () => {
    server.store.set('n1', { id: 'n1', text: 'On the server', savedAt: 'x' });
    const page = await open();
    const before = await settle(page);

    server.store.set('n1', { id: 'n1', text: 'Edited on the server', savedAt: 'y' });
    expect(await page.engine.refreshSource(page.source)).toBe('ok');
    expect(server.gets.at(-1)).toEqual({ since: '1', ifNoneMatch: before.etag, status: 200 });
    expect(await page.notes.toArray()).toEqual([{ id: 'n1', text: 'Edited on the server', savedAt: 'y' }]);
    const after = await stateOf(page);
    expect(after?.etag).toMatch(/^W\/".+"$/);
    expect(after?.etag).not.toBe(before.etag);

    await page.engine.refreshSource(page.source);
    expect(server.gets.at(-1)).toEqual({ since: '1', ifNoneMatch: after!.etag, status: 304 });
  });

  it("a log-out forgets every ETag, public sources' too: logging in again loads the whole list", async () => {
    server.store.set('n1', { id: 'n1', text: 'On the server', savedAt: 'x' });
    const page = await open();
    await settle(page);
    await page.db.syncState.put({ key: 'public-source', userId: null, cursor: '7', etag: 'W/"public"', syncedAt: 'x' });

    await page.engine.clearUserData();
    expect(await page.db.syncState.toArray()).toEqual([
      { key: 'public-source', userId: null, cursor: '7', syncedAt: 'x' },
    ]);

    await page.signIn();
    expect(await page.engine.refreshSource(page.source)).toBe('ok');
    expect(server.gets.at(-1)).toEqual({ since: '', ifNoneMatch: null, status: 200 });
    expect(await page.notes.toArray()).toEqual([server.store.get('n1')]);
  });

  it("someone else signing in on the device never sends the last user's ETag", async () => {
    server.store.set('n1', { id: 'n1', text: 'On the server', savedAt: 'x' });
    const name = newDbName();
    await settle(await open(name, 'u1'));

    const other = await open(name, 'u2');
    expect(await other.engine.refreshSource(other.source)).toBe('ok');
    expect(server.gets.at(-1)).toEqual({ since: '', ifNoneMatch: null, status: 200 });
    expect(await stateOf(other)).toMatchObject({ userId: 'u2', cursor: '1' });
  });

  it("an unsent edit thrown away brings back the server's copy, though the list itself has not changed", async () => {
    server.store.set('n1', { id: 'n1', text: 'On the server', savedAt: 'x' });
    const page = await open();
    await settle(page);
    // The edit cannot be undone by itself (it has no revert): only the server's copy can settle what the row was.
    await page.renameNote({ id: 'n1', text: 'My edit' });
    const [edit] = await page.engine.outboxItems();

    await page.engine.discardItem(edit!.seq);
    await waitFor(async () => (await page.notes.get('n1'))?.text === 'On the server');
    expect(server.gets.at(-1)).toEqual({ since: '1', ifNoneMatch: null, status: 200 });
  });
});
