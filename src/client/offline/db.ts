/**
 * The app's IndexedDB (Dexie): the engine's own tables, and the tables features declare.
 *
 *   export const notesTable = defineLocalTable<Note>({ name: 'notes', schema: 'id, createdAt', since: 9, scope: 'public' });
 *
 * - `schema` is Dexie's: the primary key (a string id) first, then the indexes.
 * - `since` is the database version that first has the table. Versions only grow: a new table takes a new
 *   number above every other, and a table keeps its number forever, so a browser that opened an older build
 *   upgrades from the history it knows (Dexie merges the tables declared for one version).
 * - `scope`: 'public' rows say nothing about who used the device and survive a log-out; 'user' rows are
 *   the signed-in user's and go with `clearUserData()`.
 * - Tables are declared when their feature's `*.sync.ts` is imported, and that must happen before the
 *   database opens (the first read opens it): `app/` imports every `*.sync.ts` eagerly.
 *
 * `createLocalDb(name)` makes another database with the same engine tables (tests open a fresh one, or a
 * second "page" over the same one); the app uses `localDb`.
 */
import Dexie, { type EntityTable, type Table, type Transaction, type TXWithTables } from 'dexie';
import type { Me } from '../../common/session.ts';
import { appDatabase } from './device-mark.ts';

export interface SessionRecord {
  key: 'me';
  me: Me;
  savedAt: string;
  /**
   * Set when the server said the session has ended: the record no longer signs anyone in (not after a reload,
   * not offline), but tells whether the next login is the same person, whose local data then stays.
   */
  endedAt?: string;
}

/**
 * Where a source's last refresh got to. No record: never loaded on this device, so an empty table is
 * unknown rather than empty. `userId` is set for a source that needs a user: it is that user's.
 */
export interface SyncStateRecord {
  key: string;
  userId: string | null;
  cursor: string | null;
  /**
   * The ETag of the last answer, kept when the next refresh asks for the same thing again (the cursor did not
   * move): sent back, it lets the server answer "not modified" instead of the whole list. Every ETag goes with
   * the user's data (`clearUserData`): a public source's answer may have filled the user's tables too.
   */
  etag?: string;
  syncedAt: string;
}

export type OutboxState = 'waiting' | 'attention';

export interface OutboxError {
  status: number;
  code: string;
  message: string;
}

/** A row of a local table: which table, and its primary key. */
export interface RowRef {
  table: string;
  id: string;
}

/** One queued mutation (see outbox.ts). */
export interface OutboxRow {
  seq?: number;
  name: string;
  /** The payload's shape version: a newer app must still send what an older one queued. */
  version: number;
  payload: unknown;
  userId: string;
  /**
   * The change's own id, sent as `Change-Id`: the server answers a refusal of it the same way every time
   * (docs/api.md). A new one when the user edits a refused item; none on rows an older build queued.
   */
  changeId?: string;
  /** The row the UI marks "Waiting to send". */
  target: RowRef;
  /**
   * The row an earlier item must have sent first (an answer's question). Rows an older build queued hold the
   * bare id; the mutation's `after` says again which table it is in.
   */
  after?: RowRef | string;
  state: OutboxState;
  error?: OutboxError;
  attempts: number;
  nextAttemptAt: number;
  createdAt: string;
}

/**
 * A change the server has acknowledged whose rows a pull may not show yet: a pull that left before the
 * server committed it would undo it (OFFLINE-ENGINE.md rule 9). Until every source that could write those
 * rows has merged a pull that reflects it, a merge leaves them as the acknowledgement wrote them (sync.ts).
 */
export interface SettlingRecord {
  seq?: number;
  userId: string;
  /** The server's collection the change went to (its versions), e.g. `questions`. */
  collection?: string;
  /** The answer's `Synced-To`: a pull reflects the change once its own is at least this. Null: it had none. */
  version: number | null;
  /** The rows the acknowledgement wrote here. */
  touches: RowRef[];
  /** The sources that have not yet merged a pull reflecting it. */
  sources: string[];
  ackedAt: string;
}

export type TableScope = 'public' | 'user';

export type LocalDb = Dexie & {
  session: EntityTable<SessionRecord, 'key'>;
  syncState: EntityTable<SyncStateRecord, 'key'>;
  outbox: EntityTable<OutboxRow, 'seq'>;
  settling: EntityTable<SettlingRecord, 'seq'>;
};

const scopes = new WeakMap<Dexie, Map<string, TableScope>>();

export function createLocalDb(name: string): LocalDb {
  const db = new Dexie(name) as LocalDb;
  db.version(1).stores({ session: 'key' });
  db.version(2).stores({ syncState: 'key' });
  // The engine's queue. Sync states from before the engine had no cursor or owner: forgotten once, so every
  // source loads afresh (rows already stored stay and show meanwhile).
  db.version(3)
    .stores({ outbox: '++seq, userId, target.id' })
    .upgrade((tx) => tx.table('syncState').clear());
  // Versions 4 and 5 are the board's and the bookings' (their *.sync.ts files).
  db.version(6).stores({ settling: '++seq' });
  scopes.set(
    db,
    new Map([
      ['session', 'user'],
      ['settling', 'user'],
    ]),
  );
  return db;
}

export const localDb = createLocalDb(appDatabase);

export interface LocalTableSpec {
  name: string;
  schema: string;
  since: number;
  scope: TableScope;
}

/**
 * One of the engine's read-write transactions over every table (`EngineContext.write`), handed to the code that
 * runs in it: the engine's tables are its properties (`tx.outbox`), a feature's are `table.in(tx)`.
 */
export type LocalTransaction = TXWithTables<LocalDb>;

/** A feature's table: used as Dexie's `Table` on its own, and as `in(tx)` inside the engine's transactions. */
export type LocalTable<Row> = Table<Row, string> & {
  /**
   * The table inside `tx`: every call on it is part of `tx`, whatever was awaited before. Dexie otherwise finds
   * the transaction by following the code across its awaits, which can lose track of it (sync.ts `write`).
   */
  in(tx: Transaction): Table<Row, string>;
};

export function defineLocalTable<Row>(spec: LocalTableSpec, db: LocalDb = localDb): LocalTable<Row> {
  try {
    // Dexie refuses a version once the database is open or opening.
    db.version(spec.since).stores({ [spec.name]: spec.schema });
  } catch (error) {
    throw new Error(
      `Local table "${spec.name}" was declared after the database opened: import its *.sync.ts file from app/ before anything reads IndexedDB.`,
      { cause: error },
    );
  }
  scopes.get(db)!.set(spec.name, spec.scope);
  // Dexie makes new Table objects each time a later version is declared, and the old ones then fail: the
  // handle looks the table up at each use, so it stays valid whatever is declared after it.
  const inTransaction = (tx: Transaction) => tx.table<Row, string>(spec.name);
  return new Proxy({} as LocalTable<Row>, {
    get(_, property) {
      if (property === 'in') return inTransaction;
      // Inside the engine's transactions the handle would work only while Dexie keeps track (`in` above).
      if (Dexie.currentTransaction?.mode === 'readwrite')
        throw new Error(`Table "${spec.name}" was used inside a transaction without it: use its handle's in(tx).`);
      const table = db.table<Row, string>(spec.name);
      const value: unknown = Reflect.get(table, property, table);
      return typeof value === 'function' ? value.bind(table) : value;
    },
  });
}

/** The tables whose rows belong to the signed-in user. */
export const userTableNames = (db: LocalDb): string[] =>
  [...scopes.get(db)!].filter(([, scope]) => scope === 'user').map(([name]) => name);
