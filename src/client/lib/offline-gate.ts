import { isOffline } from './api.ts';

/**
 * How often one source of background requests (a synced list, the outbox, the event stream) may try the
 * network while the browser says it is offline: every try fails, and costs battery, prepaid data and a console
 * error. Online, or once the browser reports a connection, nothing is held back.
 */
export const offlineTryMs = 30_000;

const lastTry = new Map<string, number>();

/**
 * Whether `source` may send a request now: always while the browser reports a connection; offline, at most one
 * request every `offlineTryMs` for each source (its first try included: a page that opens offline waits for
 * the connection, or for the slow try).
 */
export function mayTry(source: string, now = Date.now()): boolean {
  if (!isOffline()) {
    lastTry.delete(source);
    return true;
  }
  const last = lastTry.get(source);
  if (last !== undefined && now - last < offlineTryMs) return false;
  lastTry.set(source, now);
  return last !== undefined;
}

/** When `source` may try again offline (for a timer), once `mayTry` has said no. */
export const nextTry = (source: string): number => (lastTry.get(source) ?? Date.now()) + offlineTryMs;
