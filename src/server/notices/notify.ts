import { timeOrderedId } from '../time-ordered-id.ts';
import type { Uses } from '../deps.ts';
import type { NewFanout, NewNotice } from './notices.storage.ts';

/** The table clients (and every process's dispatcher) hear a notice's change by. */
export const noticesTable = 'notices';
/** The table the delivery workers hear of a delivery to send again by (no client listens to it). */
export const deliveriesTable = 'notice_deliveries';

/**
 * Writes notices with the change that causes them (inside `withTransaction`: they go if it commits), and tells
 * their users' devices and every process's dispatcher once it has (the change notice is held until the commit).
 * A notice to the user who caused the change is not written: nobody needs telling what they did.
 */
export async function writeNotices(
  tx: Uses<'notices', 'clock' | 'events'>,
  notices: readonly NewNotice[],
  causedBy?: string,
): Promise<void> {
  const told = notices.filter((n) => n.userId !== causedBy);
  if (told.length === 0) return;
  const at = tx.clock.now();
  const rows = told.map((notice) => ({ notice, id: timeOrderedId(), at }));
  await tx.repos.notices.add(rows);
  tx.events.publish({
    table: noticesTable,
    ids: rows.map((r) => r.id),
    audience: { userIds: [...new Set(told.map((n) => n.userId))] },
  });
}

/**
 * Writes a notice for every follower of `fanout.topic` (but who caused it), with the change: one row, however
 * many follow, so that the change takes no longer for 500 followers than for one. The dispatcher writes each
 * follower's own notice after the commit.
 */
export async function writeFollowersNotice(tx: Uses<'notices', 'clock' | 'events'>, fanout: NewFanout): Promise<void> {
  const id = timeOrderedId();
  await tx.repos.notices.addFanout(fanout, id, tx.clock.now());
  // Nobody's devices: only the dispatchers hear it.
  tx.events.publish({ table: noticesTable, ids: [id], audience: {} });
}
