import { sql } from 'kysely';
import type { Db } from './create-db.ts';

/** How many transactions one commit takes at most: the first of them waits for all the others' statements. */
const maxGroup = 32;

interface Job {
  work: (tx: Db) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface Outcome {
  job: Job;
  ok: boolean;
  value: unknown;
}

type Together = { committed: true; outcomes: Outcome[] } | { committed: false; error: unknown };

/**
 * Transactions on SQLite's one connection, committed in groups (issue 22): a commit writes every page the
 * transaction changed to the log, one system call per page or two, about 200 µs of the event loop for a
 * booking request. Some of those pages (the counter's, the ends of the indexes in time order) are the same from
 * one request to the next, so a group costs less than its transactions one by one: about 136 µs a booking in
 * groups of 4–6 (decision 0031).
 *
 * The transactions asked for in one turn of the event loop run one after another in one SQLite transaction,
 * which takes SQLite's write lock as it begins (`begin immediate`): what it reads, no other process can change
 * before it commits, and a collection's lock (`Versions.lock`) is already held.
 * If one fails, that transaction is rolled back, and the group runs again with each in a savepoint of its own:
 * the one that fails is rolled back alone and gets its own error (a transaction may run more than once, as on
 * Firestore: `withTransaction` keeps only the last run's notices). Each gets its answer only once the whole
 * group has committed; if the commit fails, none was stored and all get the error. Nothing else can read the
 * group's changes before that commit: the group holds the connection (other statements of this process wait
 * for it, as for any transaction), and another process sees only what SQLite committed. So a reader never sees
 * a change that could still be lost, nor a version handed out twice after a `kill -9`: a group cut short is
 * rolled back whole, and nobody heard of it.
 *
 * As with any transaction here, `work` must use only `tx`: the outer database waits for the connection the
 * group holds.
 */
export function groupedTransactions(db: Db): <T>(work: (tx: Db) => Promise<T>) => Promise<T> {
  let waiting: Job[] = [];
  let scheduled = false;
  let running = false;

  // After this turn's I/O callbacks: the requests read in the same turn join the same group.
  const schedule = () => {
    if (scheduled || running) return;
    scheduled = true;
    setImmediate(runWaiting);
  };

  /**
   * The groups waiting, one after another, each begun as soon as the last has settled. Not one group a turn of
   * the event loop: at saturation a turn serves hundreds of reads (about 1.3 s of them, 500 users on two cores),
   * and writes that waited a turn per group of 32 waited 5–10 s behind them (issue 33).
   */
  async function runWaiting() {
    scheduled = false;
    running = true;
    try {
      while (waiting.length > 0) {
        const group = waiting.slice(0, maxGroup);
        waiting = waiting.slice(maxGroup);
        await runGroup(group);
      }
    } finally {
      running = false;
    }
  }

  return (work) =>
    new Promise((resolve, reject) => {
      waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      schedule();
    });

  async function runGroup(group: Job[]) {
    let together: Together;
    try {
      together = await runTogether(group);
    } catch (error) {
      // The commit failed: nothing was stored, and every transaction of the group gets the error.
      for (const job of group) job.reject(error);
      return;
    }
    if (together.committed) return settle(together.outcomes);
    // One failed and the group was rolled back. Alone, it keeps its error; with others, the group runs again,
    // each transaction in a savepoint of its own.
    if (group.length === 1) return group[0]!.reject(together.error);
    await runApart(group);
  }

  /**
   * The group in one transaction without savepoints, as most groups succeed whole: a savepoint's release made
   * SQLite's full-text index write out what it held, once a question instead of once a group (decision 0035).
   * When one of them fails, everything is rolled back.
   */
  async function runTogether(group: Job[]): Promise<Together> {
    return db.connection().execute(async (tx) => {
      await sql`begin immediate`.execute(tx);
      const outcomes: Outcome[] = [];
      try {
        for (const job of group) outcomes.push({ job, ok: true, value: await job.work(tx) });
      } catch (error) {
        await sql`rollback`.execute(tx).catch(() => undefined);
        return { committed: false, error };
      }
      try {
        await sql`commit`.execute(tx);
      } catch (error) {
        await sql`rollback`.execute(tx).catch(() => undefined);
        throw error;
      }
      return { committed: true, outcomes };
    });
  }

  async function runApart(group: Job[]) {
    const outcomes: Outcome[] = [];
    try {
      await db.connection().execute(async (tx) => {
        await sql`begin immediate`.execute(tx);
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
    settle(outcomes);
  }
}

function settle(outcomes: Outcome[]) {
  for (const { job, ok, value } of outcomes) {
    if (ok) job.resolve(value);
    else job.reject(value);
  }
}
