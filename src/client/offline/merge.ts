/**
 * The merge of a server's answer into the local tables, inside the caller's transaction (sync.ts): which rows go
 * in (not over a newer version, not over rows an acknowledged change holds), which go out, and which acknowledged
 * changes an answer settles (OFFLINE-ENGINE.md rules 2 and 9, docs/decisions/0020 and 0027).
 */
import { covers, parsePosition, type Position } from '../../common/positions.ts';
import type { LocalTransaction, RowRef, SettlingRecord } from './db.ts';
import { rowKey } from './outbox-rules.ts';
import type { PullResult } from './sync.ts';

/** What the merge of one source's answer does with the change records that are settling. */
export interface Settling {
  /** Rows it must leave as their acknowledgement wrote them. */
  held: Set<string>;
  /** Records whose change it reflects. */
  settled: SettlingRecord[];
}

/**
 * The records of one source's merge: those it reflects (acknowledged before its pull left, in `before`, or covered
 * by its `syncedTo`) settle; the rows of the others are held.
 */
export function settlingOf(
  records: SettlingRecord[],
  source: { collection?: string | undefined },
  syncedTo: Position | null | undefined,
  before: Set<number>,
): Settling {
  const reflects = (record: SettlingRecord) =>
    before.has(record.seq!) || (source.collection !== undefined && reflectedBy(syncedTo, source.collection, record));
  return {
    held: new Set(records.filter((record) => !reflects(record)).flatMap((record) => record.touches.map(rowKey))),
    settled: records.filter(reflects),
  };
}

/** The source has merged what the records' changes did: it no longer waits for them; done, a record goes. */
export async function settle(tx: LocalTransaction, sourceName: string, records: SettlingRecord[]): Promise<void> {
  for (const record of records) {
    const sources = record.sources.filter((name) => name !== sourceName);
    if (sources.length === 0) await tx.settling.delete(record.seq!);
    else await tx.settling.update(record.seq!, { sources });
  }
}

/**
 * Server rows in, removed ids out, children the answer lacks out, snapshot tables trimmed (the caller then applies
 * pending work on top). `held`: rows of acknowledged changes the answer may not reflect yet, left as they are;
 * `pending`: rows queued items target, which a snapshot never deletes.
 */
export async function mergeAnswer(
  tx: LocalTransaction,
  answer: Pick<PullResult, 'put' | 'remove' | 'children'>,
  { snapshotTables, held, pending }: { snapshotTables: string[]; held: Set<string>; pending: Set<string> },
): Promise<void> {
  const idOf = (table: string, row: unknown) =>
    (row as Record<string, string>)[tx.table(table).schema.primKey.keyPath as string]!;
  const isHeld = (table: string) => (id: string) => held.has(rowKey({ table, id } satisfies RowRef));
  const children = Object.entries(answer.children ?? {});
  /** Ids the answer lists, written or not: never deleted as missing from it. */
  const listed = (table: string) => new Set((answer.put?.[table] ?? []).map((row) => idOf(table, row)));

  // Rows older than the ones held are left out, and so are the children the answer gave with them.
  const put = new Map<string, unknown[]>();
  const older = new Map<string, Set<string>>();
  for (const [table, rows] of Object.entries(answer.put ?? {})) {
    const { fresh, stale } = await admitted(tx, table, rows, isHeld(table));
    put.set(table, fresh);
    if (stale.length > 0) older.set(table, new Set(stale.map((row) => idOf(table, row))));
  }
  for (const [table, { parent, key }] of children) {
    const skipped = older.get(parent);
    const keyOf = (row: unknown) => (row as Record<string, string>)[key]!;
    if (skipped)
      put.set(
        table,
        (put.get(table) ?? []).filter((row) => !skipped.has(keyOf(row))),
      );
  }

  for (const [table, rows] of put) await tx.table(table).bulkPut(rows);
  for (const [table, ids] of Object.entries(answer.remove ?? {}))
    await tx.table(table).bulkDelete(ids.filter((id) => !isHeld(table)(id)));
  // Decided here, inside the transaction: a child another merge or an acknowledgement stored meanwhile is
  // seen, and kept if the answer cannot know of it.
  for (const [table, { parent, key }] of children) {
    const parents = [...(put.get(parent) ?? []).map((row) => idOf(parent, row)), ...(answer.remove?.[parent] ?? [])];
    if (parents.length === 0) continue;
    const inAnswer = listed(table);
    const local = (await tx.table(table).where(key).anyOf(parents).primaryKeys()) as string[];
    await tx.table(table).bulkDelete(local.filter((id) => !inAnswer.has(id) && !isHeld(table)(id)));
  }
  for (const table of snapshotTables) {
    const inAnswer = listed(table);
    const local = (await tx.table(table).toCollection().primaryKeys()) as string[];
    const keep = (id: string) => inAnswer.has(id) || pending.has(rowKey({ table, id })) || isHeld(table)(id);
    await tx.table(table).bulkDelete(local.filter((id) => !keep(id)));
  }
}

/**
 * The rows of an answer the merge may write. Left out: a row the device holds at a newer `version` (rows that
 * carry one: answers fetched at different times land out of order, a page's own fetch, a staff change's answer,
 * then a background pull that left earlier, and the older must not undo the newer), returned as `stale`; and
 * a row an acknowledged change wrote (`held`) unless the answer's copy is at a newer version than it.
 */
async function admitted(
  tx: LocalTransaction,
  table: string,
  rows: unknown[],
  held: (id: string) => boolean,
): Promise<{ fresh: unknown[]; stale: unknown[] }> {
  const versionOf = (row: unknown) => (row as { version?: unknown } | undefined)?.version;
  const keyPath = tx.table(table).schema.primKey.keyPath as string;
  const ids = rows.map((row) => (row as Record<string, string>)[keyPath]!);
  if (!rows.some((row) => typeof versionOf(row) === 'number') && !ids.some(held)) return { fresh: rows, stale: [] };
  const stored = await tx.table(table).bulkGet(ids);
  const fresh: unknown[] = [];
  const stale: unknown[] = [];
  rows.forEach((row, i) => {
    const [mine, got] = [versionOf(stored[i]), versionOf(row)];
    const newer = typeof mine === 'number' && typeof got === 'number' && got > mine;
    if (typeof mine === 'number' && typeof got === 'number' && mine > got) stale.push(row);
    else if (!held(ids[i]!) || newer) fresh.push(row);
  });
  return { fresh, stale };
}

/**
 * Whether an answer from `collection` at `syncedTo` reflects an acknowledged change: the change went to that
 * collection and the answer's position covers the change's (every shard at least as far, 0027). A record stored
 * before positions had shards holds a number, which reads as a one-shard position.
 */
export function reflectedBy(
  syncedTo: Position | null | undefined,
  collection: string,
  record: SettlingRecord,
): boolean {
  if (!syncedTo || record.collection !== collection) return false;
  const wanted = parsePosition(record.version);
  return wanted !== null && covers(syncedTo, wanted);
}
