import type { MiddlewareHandler } from 'hono';
import { formatPosition, type Position } from '../../common/positions.ts';

/**
 * `Synced-To: <position>` on the successful answers of a versioned collection's routes (the board, the bookings;
 * docs/api.md): the answer reflects every change to the collection that the position covers, so a client can
 * tell whether a change notice's version is already in what it holds. `readPosition` reads the collection's
 * committed position: on SQL one counter (db/versions.ts), written as the whole number it always was; on
 * Firestore one per shard, joined by `-` (`formatPosition`, docs/decisions/0027).
 *
 * A read takes it before the route reads anything. Once the counter's committed value is n, every change with a
 * version ≤ n has committed (versions become visible in order), and a statement sees everything committed
 * before it began: on PostgreSQL at read committed too, where each statement takes a new snapshot. So every
 * read that follows sees all of those changes (later ones too, perhaps, which n does not claim). Read after
 * the data, n could count a change that committed between the two reads and is missing from the answer.
 *
 * A write takes it after its usecase returned: its change, or for a repeat the stored original, has committed
 * by then, so the position covers its version.
 *
 * Applied to a whole route group, around the route, so a 304 (etag.ts `answerJson`) carries it too. A read's is
 * set before the route runs, so that its answer is made with it (setting a header on a finished answer costs a
 * copy of its headers), and taken off an answer that refuses. The route finds the read's position with
 * `c.get('readAt')`: a list it keeps may be given again while the position is the same (bookings.kept-pages.ts).
 */
export interface SyncedToEnv {
  Variables: { readAt: Position | undefined };
}

export function syncedTo(readPosition: () => Promise<Position>): MiddlewareHandler<SyncedToEnv> {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') {
      const readAt = await readPosition();
      c.set('readAt', readAt);
      c.header('synced-to', formatPosition(readAt));
      await next();
      if (!c.res.ok && c.res.status !== 304) c.res.headers.delete('synced-to');
      return;
    }
    await next();
    if (c.res.ok) c.res.headers.set('synced-to', formatPosition(await readPosition()));
  };
}
