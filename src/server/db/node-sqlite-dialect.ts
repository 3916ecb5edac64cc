import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';

/** Node's built-in SQLite behind Kysely's better-sqlite3 interface (docs/decisions/0009-node-sqlite-adapter.md). */
export function createNodeSqliteDialect(file: string): { dialect: SqliteDialect; raw: DatabaseSync } {
  const raw = new DatabaseSync(file);
  // temp_store = MEMORY: statement journals (a savepoint's, a statement's that may have to be undone alone) stay
  // in memory. In a temporary file, with a savepoint per request, they were 45 of a booking's 75 write calls.
  raw.exec(
    'PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY;',
  );
  const checkpoints = startCheckpoints(raw, file);
  // Kysely asks for a statement per query; preparing the same SQL again each time was about 6 % of a signed-in
  // read. The app's queries are a few hundred shapes, so each is prepared once and kept (a bound set, emptied
  // when full, in case something builds SQL with values inlined).
  const statements = new Map<string, SqliteStatement>();
  const database: SqliteDatabase = {
    close: () => {
      checkpoints.stop();
      statements.clear();
      raw.close();
    },
    prepare: (sql) => {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= maxKeptStatements) statements.clear();
        statements.set(sql, (statement = adaptStatement(raw.prepare(sql))));
      }
      return statement;
    },
  };
  return { dialect: new SqliteDialect({ database }), raw };
}

const maxKeptStatements = 1000;

/**
 * Checkpoints off the event loop: with SQLite's own, one commit in about 35 ran the checkpoint and its fsync,
 * 8–18 ms holding every request (about 2/3 of the time `POST /api/bookings` spent committing, issue 22). A thread
 * of its own (sqlite-checkpoints.worker.ts) runs them instead, every 200 ms; if it ever stops, this connection
 * takes them back. `stop` closes its connection first, so that this one, the last, checkpoints and removes the
 * log as it closes.
 */
function startCheckpoints(raw: DatabaseSync, file: string) {
  if (file === ':memory:' || file === '') return { stop: () => {} };
  const closed = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(new URL('./sqlite-checkpoints.worker.ts', import.meta.url), {
    workerData: { file, everyMs: 200, closed },
  });
  let running = true;
  const takeBack = () => {
    if (!running) return;
    running = false;
    if (raw.isOpen) raw.exec('PRAGMA wal_autocheckpoint = 1000');
  };
  worker.on('error', takeBack).on('exit', takeBack).unref();
  raw.exec('PRAGMA wal_autocheckpoint = 0');
  return {
    stop() {
      if (!running) return;
      running = false;
      worker.postMessage('close');
      // A checkpoint under way ends first; a thread still starting takes a few tens of milliseconds.
      Atomics.wait(closed, 0, 0, 5000);
    },
  };
}

type Params = ReadonlyArray<unknown>;

function adaptStatement(stmt: StatementSync): SqliteStatement {
  // A leading `{}` is the (empty) named-parameter object: without it node:sqlite would read an
  // object first positional parameter as named parameters.
  const bind = (params: Params) => [{}, ...params.map(toSqlite)] as Parameters<StatementSync['all']>;
  return {
    reader: stmt.columns().length > 0,
    all: (params: Params) => stmt.all(...bind(params)),
    run: (params: Params) => {
      const r = stmt.run(...bind(params));
      return { changes: r.changes, lastInsertRowid: r.lastInsertRowid };
    },
    iterate: (params: Params) => stmt.iterate(...bind(params)) as IterableIterator<unknown>,
  };
}

/** node:sqlite binds only null, numbers, bigints, strings and buffers. */
function toSqlite(value: unknown) {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value;
}
