import { createError } from '../../http/errors.ts';

/**
 * The feed's address names no feed: an unknown secret, a renewed one, or no secret at all. One answer for all
 * of them, which tells a guesser nothing.
 */
export const createFeedNotFoundError = () =>
  createError({ code: 'calendar.not_found', message: 'There is no such calendar.', status: 404 });
