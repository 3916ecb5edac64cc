/**
 * The outbox as pages and merges read it (outbox.ts writes it): where the change to a row is, the list of unsent
 * items, whether items are stuck, and, inside a merge's or an acknowledgement's transaction, the queued changes
 * applied again on top of the server's rows (OFFLINE-ENGINE.md rule 2).
 */
import type { LocalDb, LocalTransaction, OutboxRow, RowRef } from './db.ts';
import type { ChangeState, MutationSpec, OutboxItem } from './outbox.ts';
import { dependantsOf, rowKey, stallOf, unknownVersion, type Stall } from './outbox-rules.ts';

/** What the reads need to know of the mutations this build defines (outbox.ts). */
export interface KnownMutations {
  /** The row's mutation, if this build knows its name and version. */
  known(row: OutboxRow): MutationSpec<unknown, unknown> | undefined;
  /** The row the item must follow. */
  afterOf(row: OutboxRow): RowRef | undefined;
}

export function createOutboxReads(db: LocalDb, { known, afterOf }: KnownMutations) {
  const rowsOf = (userId: string, tx: LocalTransaction | LocalDb = db) =>
    tx.outbox.where('userId').equals(userId).toArray();

  /**
   * Where the change to `target` is (its latest item, when several target it): waiting, on its way, refused, or
   * none left, in which case it is `done` if the row is here (the server's copy, or the row was never queued) and
   * `none` if not (discarded, undone, or it never was).
   */
  async function changeState(userId: string | null, target: RowRef, sendingSeq?: number): Promise<ChangeState> {
    const rows = userId ? (await rowsOf(userId)).filter((row) => rowKey(row.target) === rowKey(target)) : [];
    const row = rows.at(-1);
    if (!row) {
      const here = db.tables.some((table) => table.name === target.table)
        ? await db.table(target.table).get(target.id)
        : undefined;
      return { state: here === undefined ? 'none' : 'done' };
    }
    const mutation = known(row);
    if (row.state === 'attention' || !mutation)
      return { state: 'attention', seq: row.seq!, error: row.error ?? unknownVersion };
    return { state: row.seq === sendingSeq ? 'sending' : 'waiting', seq: row.seq!, attempts: row.attempts };
  }

  async function countUnsent(userId: string | null): Promise<number> {
    return userId ? db.outbox.where('userId').equals(userId).count() : 0;
  }

  /** Inside a merge: the rows pending items target, which a merge must not delete. */
  async function pendingTargets(userId: string | null, tx: LocalTransaction): Promise<Set<string>> {
    return new Set(userId ? (await rowsOf(userId, tx)).map((row) => rowKey(row.target)) : []);
  }

  /** Inside a merge: every pending item's optimistic change again, in order, on top of the server's rows. */
  async function reapplyPending(userId: string | null, tx: LocalTransaction): Promise<void> {
    if (!userId) return;
    for (const row of await rowsOf(userId, tx)) {
      const mutation = known(row);
      if (mutation) await mutation.apply(row.payload, tx);
    }
  }

  /**
   * Inside an acknowledgement: the queued items whose rows it wrote, applied again in order. Found through the
   * `rows` index, so a flush of n items reads each once rather than the whole outbox n times.
   */
  async function reapplyOver(userId: string, written: RowRef[], tx: LocalTransaction): Promise<void> {
    const found = await tx.outbox.where('rows').anyOf(written.map(rowKey)).distinct().toArray();
    for (const row of found.sort((a, b) => a.seq! - b.seq!)) {
      const mutation = known(row);
      if (mutation && row.userId === userId) await mutation.apply(row.payload, tx);
    }
  }

  /** The user's items for the "needs attention" list; items this build cannot send count as needing it. */
  async function items(userId: string | null, target?: RowRef): Promise<OutboxItem[]> {
    if (!userId) return [];
    const all = await rowsOf(userId);
    const rows = target ? all.filter((row) => rowKey(row.target) === rowKey(target)) : all;
    return rows.map((row) => {
      const mutation = known(row);
      const unknown = !mutation;
      const after = afterOf(row);
      return {
        seq: row.seq!,
        name: row.name,
        payload: row.payload,
        target: row.target,
        description: mutation?.describe?.(row.payload),
        waitsForEarlier:
          after !== undefined && all.some((other) => other.seq! < row.seq! && rowKey(other.target) === rowKey(after)),
        dependants: dependantsOf(row, all, afterOf).length,
        state: unknown ? 'attention' : row.state,
        error: unknown ? unknownVersion : row.error,
        attempts: row.attempts,
        createdAt: row.createdAt,
        ...(row.failingSince === undefined ? {} : { failingSince: row.failingSince }),
      };
    });
  }

  /** Items that have kept failing for over a minute: what the navbar calls stuck. */
  async function stall(userId: string | null, now = Date.now()): Promise<Stall | undefined> {
    return userId ? stallOf(await rowsOf(userId), now) : undefined;
  }

  return { rowsOf, changeState, countUnsent, pendingTargets, reapplyPending, reapplyOver, items, stall };
}
