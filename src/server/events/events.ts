import { randomBytes } from 'node:crypto';
import type { Category, Role } from '../../common/roles.ts';

/**
 * Who may hear a change notice. `everyone` is for public data (the catalogue, the Q&A board); otherwise a
 * signed-in user hears it when any of the listed users, roles or tutor categories matches them.
 */
export type Audience =
  'everyone' | { userIds?: readonly string[]; roles?: readonly Role[]; tutorCategories?: readonly Category[] };

/**
 * A small change notice (OFFLINE-ENGINE.md): which table changed and which rows, never the rows themselves.
 * Clients refresh the local tables that listen to `table`. Ids only, so a PostgreSQL NOTIFY payload stays far
 * under its 8,000-byte limit.
 */
export interface ChangeNotice {
  /** The name clients know the data by, e.g. `questions` or `modules`. */
  table: string;
  ids: readonly string[];
  audience: Audience;
  /**
   * The collection version the change committed at (db/versions.ts), for the collections that have one: a
   * client whose copy already reflects it need not fetch.
   */
  version?: number;
}

/**
 * Not a table: a notice on it says that the named users' access changed (signed out, a session ended, a role or
 * tutor categories changed, the account deleted). It travels on the bus like any notice, so it reaches every
 * process, and each process's stream hub checks those users' open streams again instead of passing it on.
 */
export const accessTable = '_access';

/** The notice that makes every process check again the open streams of `userIds` (`accessTable`). */
export function accessChanged(userIds: readonly string[]): ChangeNotice {
  return { table: accessTable, ids: userIds, audience: {} };
}

/**
 * Publishes that `userIds`' access changed and resolves once every process acted on it
 * (`EventPublisher.settled`): for what ends a session or changes access outside a transaction (better-auth's
 * hooks); `withTransaction` waits for its own.
 */
export async function publishAccessChange(events: EventPublisher, ...userIds: string[]): Promise<void> {
  events.publish(accessChanged(userIds));
  await events.settled?.();
}

/** A notice as a stream carries it: `id` is what a reconnecting client sends back as `Last-Event-ID`. */
export interface LiveEvent extends ChangeNotice {
  id: string;
}

/**
 * A new event id: the bus's own prefix (an id of another process, or from before a restart, is not ours) and
 * random letters. Not a counter: every stream sees ids, and a counter would tell a visitor how many notices
 * they did not hear (bookings) came between two they did.
 */
export const newEventId = (prefix: string): string => `${prefix}-${randomBytes(9).toString('base64url')}`;

/**
 * What the bus tells a subscriber: a notice, or `resync` when notices may have been missed (the PostgreSQL
 * listener reconnected), so every client must refetch what it holds.
 */
export type BusMessage = { type: 'notice'; event: LiveEvent } | { type: 'resync' };

/** What usecases see: publish only. Inside `withTransaction` notices are held until the commit. */
export interface EventPublisher {
  publish(notice: ChangeNotice): void;
  /**
   * Resolves once every process that listens acted on the access notices published so far (PostgreSQL: each
   * confirmed it, postgres-bus.ts; at most 2 s). What ends a session or changes a user's access waits for it
   * before it answers, so that the next request, whichever process it reaches, knows (docs/decisions/0040).
   * Absent: a publish reaches every listener before it returns.
   */
  settled?(): Promise<void>;
}

/**
 * The process's event bus: in memory for one process, PostgreSQL LISTEN/NOTIFY when several processes share
 * one database. A publish reaches every subscriber in every process, this one included.
 */
export interface EventBus extends EventPublisher {
  subscribe(listener: (message: BusMessage) => void): () => void;
  /**
   * Whether every process's notices reach this one now: false while the PostgreSQL bus's LISTEN connection is
   * down (its subscribers hear `resync` once it is back). Absent: always.
   */
  hearsAll?(): boolean;
  close(): Promise<void>;
}
