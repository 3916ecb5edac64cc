import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { StatementSync } from 'node:sqlite';
import { Kysely, PostgresDialect, type Dialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { createBusyError } from '../http/errors.ts';
import type { Database } from './database.ts';
import { migrations } from './migrations/index.ts';
import { createNodeSqliteDialect } from './node-sqlite-dialect.ts';

export type Db = Kysely<Database>;
export type DbKind = 'sqlite' | 'postgres';

/**
 * `dataVersion`, on SQLite: its `PRAGMA data_version`, which moves when another connection (another process)
 * commits, never for this connection's own commits; read at most once a millisecond.
 */
export function createDb(databaseUrl: string): { db: Db; kind: DbKind; dataVersion?: () => number } {
  const { dialect, kind, dataVersion } = createDialect(databaseUrl);
  return { db: new Kysely<Database>({ dialect }), kind, dataVersion };
}

/** The SQLite file a `file:` DATABASE_URL names; undefined for the other engines. */
export const sqliteFileOf = (databaseUrl: string): string | undefined =>
  databaseUrl.startsWith('file:') ? databaseUrl.slice('file:'.length) : undefined;

function createDialect(databaseUrl: string): { dialect: Dialect; kind: DbKind; dataVersion?: () => number } {
  const file = sqliteFileOf(databaseUrl);
  if (file !== undefined) {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const { dialect, raw } = createNodeSqliteDialect(file);
    return { dialect, kind: 'sqlite', dataVersion: readEveryMillisecond(raw.prepare('PRAGMA data_version')) };
  }
  // env.ts accepts firestore:// for the engine being built (issue 21); until it serves requests, say so
  // rather than hand the URL to pg, whose error would not.
  if (databaseUrl.startsWith('firestore://'))
    throw new Error('DATABASE_URL: the Firestore engine cannot serve the app yet; use file: or postgres://');
  return { dialect: new PostgresDialect({ pool: boundedPool(databaseUrl) }), kind: 'postgres' };
}

/** The pool's connections; `poolWaitMs`, how long a query may wait for one before it is refused. */
export const postgresPool = { connections: 10, poolWaitMs: 3000 } as const;

/**
 * PostgreSQL's pool, where a query waits for a connection at most `poolWaitMs` (decision 0042): at saturation it
 * is refused with 503 and `Retry-After`, instead of waiting in the pool's queue for as long as the queue is long.
 */
function boundedPool(connectionString: string) {
  const pool = new pg.Pool({
    connectionString,
    max: postgresPool.connections,
    connectionTimeoutMillis: postgresPool.poolWaitMs,
  });
  return {
    options: pool.options,
    connect: () =>
      pool.connect().catch((error: unknown) => {
        // pg-pool's words for a wait past connectionTimeoutMillis (node_modules/pg-pool/index.js).
        if (error instanceof Error && error.message === 'timeout exceeded when trying to connect')
          throw createBusyError();
        throw error;
      }),
    end: () => pool.end(),
  };
}

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}

/**
 * `PRAGMA data_version` read again only when a millisecond has passed since the last read: read for every
 * signed-in request (auth/session-cache.ts), it cost about 10 µs of each under load. A commit of another process
 * (the CLI) counts for every request that begins a millisecond after it, long before that process has exited.
 */
function readEveryMillisecond(pragma: StatementSync): () => number {
  let readAt = Number.NEGATIVE_INFINITY;
  let version = 0;
  return () => {
    const now = performance.now();
    if (now - readAt >= 1) {
      readAt = now;
      version = (pragma.get() as { data_version: number }).data_version;
    }
    return version;
  };
}
