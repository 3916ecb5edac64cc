/**
 * The app's IndexedDB (Dexie): the engine's own tables, and the tables features declare.
 *
 *   export const notesTable = defineLocalTable<Note>({ name: 'notes', schema: 'id, createdAt', version: 1, scope: 'public' });
 *
 * - `schema` is Dexie's: the primary key (a string id) first, then the indexes.
 * - `version` is the table's own schema version: 1 at first, one more each time its schema changes. No table
 *   needs to know another's: the database's version is their sum (with the engine's own tables'), so it grows
 *   whenever any of them does, and Dexie upgrades an older database to the whole schema from what it finds
 *   installed (adding tables and indexes, keeping the rows). A table never goes away silently: one no longer
 *   used is declared with `schema: null` (Dexie then deletes it) and keeps its version.
 * - `scope`: 'public' rows say nothing about who used the device and survive a log-out; 'user' rows are
 *   the signed-in user's and go with `clearUserData()`.
 * - Tables are declared when their feature's `*.sync.ts` is imported; `completeSchema` then gives Dexie the
 *   whole schema at once (app/offline-setup.ts imports every `*.sync.ts`, then calls it), before anything reads
 *   IndexedDB.
 *
 * `createLocalDb(name)` makes another database with the same engine tables (tests open a fresh one, or a
 * second "page" over the same one); the app uses `localDb`.
 */
import Dexie, { type EntityTable, type Table, type Transaction, type TXWithTables } from 'dexie';
import type { Me } from '../../common/session.ts';
import { appDatabase } from '../lib/device-mark.ts';

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
   * Every row the item changes here (its target and `touches`, as `rowKey`s), indexed: an acknowledgement finds
   * the queued items over the rows it wrote without reading the whole outbox. Missing on rows an older build
   * queued until the outbox's next pass fills it in.
   */
  rows?: string[];
  /**
   * The row an earlier item must have sent first (an answer's question). Rows an older build queued hold the
   * bare id; the mutation's `after` says again which table it is in.
   */
  after?: RowRef | string;
  state: OutboxState;
  error?: OutboxError;
  attempts: number;
  nextAttemptAt: number;
  /** When its tries began to fail (epoch ms), since it was queued or the backoff was last reset: how long it has been stuck. */
  failingSince?: number;
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
  /**
   * The answer's `Synced-To`, a position's text: a pull reflects the change once its own covers this (0027).
   * A number: stored before positions had shards, it reads as a one-shard position. Null: it had none.
   */
  version: string | number | null;
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

/** The tables a database will have, with their versions and scopes: given to Dexie as it opens. */
interface Declared {
  tables: Map<string, LocalTableSpec>;
  opened: boolean;
}

const declared = new WeakMap<Dexie, Declared>();

/**
 * The engine's own tables. Their versions count as a feature table's do; together with the features' they made
 * the database's version 12 when it stopped being a list of numbers (it had reached 5); the outbox's `rows` index
 * made it 13.
 */
const engineTables: LocalTableSpec[] = [
  { name: 'session', schema: 'key', version: 1, scope: 'user' },
  { name: 'syncState', schema: 'key', version: 1, scope: 'public' },
  { name: 'outbox', schema: '++seq, userId, *rows', version: 2, scope: 'public' },
  { name: 'settling', schema: '++seq', version: 1, scope: 'user' },
];

export function createLocalDb(name: string): LocalDb {
  const db = new Dexie(name) as LocalDb;
  declared.set(db, { tables: new Map(engineTables.map((spec) => [spec.name, spec])), opened: false });
  // Every way of opening goes through `open` (Dexie's own, when a first call finds it closed, too): a database
  // opened before `completeSchema` still gets the tables declared so far.
  const open = db.open.bind(db);
  db.open = () => {
    completeSchema(db);
    return open();
  };
  return db;
}

/**
 * Every table is declared: Dexie gets the schema, in one version (their sum), and the tables can be used. The
 * app calls it once every feature's `*.sync.ts` is imported (app/offline-setup.ts); a table declared after it
 * is refused.
 */
export function completeSchema(db: LocalDb): void {
  const state = declared.get(db)!;
  if (state.opened) return;
  state.opened = true;
  const tables = [...state.tables.values()];
  const version = tables.reduce((sum, spec) => sum + spec.version, 0);
  db.version(version).stores(Object.fromEntries(tables.map((spec) => [spec.name, spec.schema])));
}

export const localDb = createLocalDb(appDatabase);

export interface LocalTableSpec {
  name: string;
  /** Dexie's schema; null for a table no longer used (deleted on upgrade). */
  schema: string | null;
  /** The table's own schema version: 1, then one more for each change (see the top of this file). */
  version: number;
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
  const state = declared.get(db)!;
  if (state.opened)
    throw new Error(
      `Local table "${spec.name}" was declared after the schema was complete: import its *.sync.ts file from app/offline-setup.ts.`,
    );
  if (state.tables.has(spec.name)) throw new Error(`Local table "${spec.name}" is declared twice.`);
  if (!Number.isInteger(spec.version) || spec.version < 1)
    throw new Error(`Local table "${spec.name}": its version is a whole number, 1 or more.`);
  state.tables.set(spec.name, spec);
  // Dexie makes new Table objects as a database opens, and the old ones then fail: the handle looks the table
  // up at each use, so it stays valid.
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
  [...declared.get(db)!.tables.values()]
    .filter((spec) => spec.scope === 'user' && spec.schema !== null)
    .map((spec) => spec.name);
