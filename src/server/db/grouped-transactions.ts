import { sql } from 'kysely';
import type { Db } from './create-db.ts';

/** How many transactions one commit takes at most: the first of them waits for all the others' statements. */
const maxGroup = 32;

interface Job {
  work: (tx: Db) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * Transactions on SQLite's one connection, committed in groups (issue 22): a commit writes every page the
 * transaction changed to the log, one system call per page or two, about 200 µs of the event loop for a
 * booking request. Some of those pages (the counter's, the ends of the indexes in time order) are the same from
 * one request to the next, so a group costs less than its transactions one by one: about 136 µs a booking in
 * groups of 4–6 (decision 0031).
 *
 * The transactions asked for in one turn of the event loop run one after another in one SQLite transaction,
 * each inside its own savepoint: one that fails is rolled back alone and gets its own error. Each then gets its
 * answer only once the whole group has committed; if the commit fails, none was stored and all get the
 * error. Nothing else can read the group's changes before that commit: the group holds the connection (other
 * statements of this process wait for it, as for any transaction), and another process sees only what
 * SQLite committed. So a reader never sees a change that could still be lost, nor a version handed out twice
 * after a `kill -9`: a group cut short is rolled back whole, and nobody heard of it.
 *
 * As with any transaction here, `work` must use only `tx`: the outer database waits for the connection the
 * group holds.
 */
export function groupedTransactions(db: Db): <T>(work: (tx: Db) => Promise<T>) => Promise<T> {
  let waiting: Job[] = [];
  let scheduled = false;

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    // After this turn's I/O callbacks: the requests read in the same turn join the same group.
    setImmediate(() => {
      scheduled = false;
      const group = waiting.slice(0, maxGroup);
      waiting = waiting.slice(maxGroup);
      if (waiting.length) schedule();
      void runGroup(group);
    });
  };

  return (work) =>
    new Promise((resolve, reject) => {
      waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      schedule();
    });

  async function runGroup(group: Job[]) {
    const outcomes: { job: Job; ok: boolean; value: unknown }[] = [];
    try {
      await db.connection().execute(async (tx) => {
        await sql`begin`.execute(tx);
        try {
          for (const job of group) {
            await sql`savepoint grouped`.execute(tx);
            try {
              const value = await job.work(tx);
              await sql`release grouped`.execute(tx);
              outcomes.push({ job, ok: true, value });
            } catch (error) {
              outcomes.push({ job, ok: false, value: error });
              // If SQLite ended the whole transaction (a full disk, say), there is no savepoint: the group fails.
              await sql`rollback to grouped`.execute(tx);
              await sql`release grouped`.execute(tx);
            }
          }
          await sql`commit`.execute(tx);
        } catch (error) {
          await sql`rollback`.execute(tx).catch(() => undefined);
          throw error;
        }
      });
    } catch (error) {
      // Nothing was stored: each job that had failed on its own keeps its error, the others get the group's.
      for (const job of group) {
        const own = outcomes.find((o) => o.job === job && !o.ok);
        job.reject(own ? own.value : error);
      }
      return;
    }
    for (const { job, ok, value } of outcomes) {
      if (ok) job.resolve(value);
      else job.reject(value);
    }
  }
}
