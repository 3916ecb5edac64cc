import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * The SQLite file's checkpoints, on a thread of their own (node-sqlite-dialect.ts starts it): every `everyMs`, a
 * passive checkpoint copies what the write-ahead log holds into the database file and syncs it to disk. The
 * server's connection has its own checkpoints turned off, so that work, 10–20 ms with its fsync, never holds the
 * event loop. A passive checkpoint waits for no one and blocks no writer. On any message it closes its
 * connection and says so through `closed`, which the server's thread waits on.
 */
const { file, everyMs, closed } = workerData as { file: string; everyMs: number; closed: Int32Array };
const db = new DatabaseSync(file);
const timer = setInterval(() => {
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or locked for a moment: the next round copies it.
  }
}, everyMs);
parentPort!.once('message', () => {
  clearInterval(timer);
  db.close();
  Atomics.store(closed, 0, 1);
  Atomics.notify(closed, 0);
  parentPort!.close();
});
