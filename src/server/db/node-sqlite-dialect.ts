import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';

/** Node's built-in SQLite behind Kysely's better-sqlite3 interface (docs/decisions/0009-node-sqlite-adapter.md). */
export function createNodeSqliteDialect(file: string): { dialect: SqliteDialect; raw: DatabaseSync } {
  const raw = new DatabaseSync(file);
  raw.exec(
    'PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL;',
  );
  // Kysely asks for a statement per query; preparing the same SQL again each time was about 6 % of a signed-in
  // read. The app's queries are a few hundred shapes, so each is prepared once and kept (a bound set, emptied
  // when full, in case something builds SQL with values inlined).
  const statements = new Map<string, SqliteStatement>();
  const database: SqliteDatabase = {
    close: () => {
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
