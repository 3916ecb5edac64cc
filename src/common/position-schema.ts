// The route side of positions, apart from positions.ts, which the client engine loads with every page: zod
// loads when a form needs it, not with them.
import { maxPositionShards, parsePosition } from './positions.ts';
import { z } from './zod.ts';

/**
 * The largest version a `since` may name: SQL keeps versions in 32-bit integer columns, and PostgreSQL refuses
 * a larger parameter with an error (a 500), not a 400. A Firestore shard is far from it (0027).
 */
export const maxSinceVersion = 2 ** 31 - 1;

/** What a bad `?since=` is told, in the words of the routes' other refusals. */
export const sinceMessage = `since must be a version: a whole number, 0 or more, or up to ${maxPositionShards} of them joined by "-".`;

/** `?since=` in a route's query: a position's text, refused with a clear message when it is none. */
export const positionSchema = z.string().transform((text, ctx) => {
  const position = parsePosition(text);
  if (position && position.every((version) => version <= maxSinceVersion)) return position;
  ctx.addIssue({ code: 'custom', message: sinceMessage });
  return z.NEVER;
});
