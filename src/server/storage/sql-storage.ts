import { sql } from 'kysely';
import { postgresPool, type Db, type DbKind } from '../db/create-db.ts';
import { groupedTransactions } from '../db/grouped-transactions.ts';
import { transactionGate } from '../db/transaction-gate.ts';
import { keptVersions, versionsOn, type Versions } from '../db/versions.ts';
import { makeRepositories, repositoryMakers, type RepositoryMakers } from './repositories.ts';
import type { Repositories, Storage } from './storage.ts';

/**
 * Every repository on one Kysely connection: the database itself, or a transaction of it. `versions`: how the
 * versioned collections read and take their versions on it (db/versions.ts).
 */
export function createSqlRepositories(db: Db, kind: DbKind, versions: Versions = versionsOn(db)): Repositories {
  // Seen through a mapped type, `makers[name]` is the maker of `Repositories[name]` (the list's own type is a
  // union of every maker, which TypeScript cannot tie to `name`).
  const makers: { [K in keyof Repositories]: RepositoryMakers<Repositories[K]> } = repositoryMakers;
  return makeRepositories((name) => makers[name].sql({ db, kind, versions }));
}

/**
 * Transactions of one process that hold PostgreSQL connections at once: a collection's writes run one after
 * another anyway (db/versions.ts), so more would only wait inside the database, each holding a connection of the
 * pool that reads need.
 */
const postgresTransactionsAtOnce = 4;

/**
 * SQLite or PostgreSQL behind the repositories. `transaction` hands `work` repositories on the transaction
 * (never the outer connection inside one: on SQLite, with one connection, that waits forever). `dataVersion`:
 * SQLite's (create-db.ts), which another process's commit moves; with it, the committed versions are kept in
 * memory between changes (`keptVersions`). PostgreSQL's processes commit side by side, so it reads them afresh.
 */
export function createSqlStorage(db: Db, kind: DbKind, dataVersion?: () => number): Storage {
  // SQLite has one connection, whose transactions commit in groups; PostgreSQL's pool runs them side by side, a
  // few at a time, so that they never hold every connection while reads wait (db/transaction-gate.ts).
  const gate = transactionGate(postgresTransactionsAtOnce, postgresPool.poolWaitMs);
  const inTransaction =
    kind === 'sqlite'
      ? groupedTransactions(db)
      : <T>(work: (trx: Db) => Promise<T>) => gate(() => db.transaction().execute(work));
  const versions =
    kind === 'sqlite' && dataVersion
      ? keptVersions(db, dataVersion)
      : { outside: versionsOn(db), within: (trx: Db) => versionsOn(trx) };
  return {
    kind,
    // SQLite: a commit of another process (the CLI, whose notices go to a bus of its own). PostgreSQL: every
    // process's notices reach every other through LISTEN/NOTIFY, so nothing else can change.
    writesElsewhere: kind === 'sqlite' ? dataVersion : () => 0,
    repos: createSqlRepositories(db, kind, versions.outside),
    transaction: (work) => inTransaction((trx) => work(createSqlRepositories(trx, kind, versions.within(trx)))),
    ping: () =>
      sql`select 1`.execute(db).then(
        () => true,
        () => false,
      ),
    close: () => db.destroy(),
  };
}
