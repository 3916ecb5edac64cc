import type { ServerResponse } from 'node:http';
import { busyMessage, busyRetryAfterSeconds } from './errors.ts';

/**
 * Whether the server is too busy to take a request it has just read (issue 33, decision 0042). Node serves the
 * requests that arrived together in one turn of its event loop, one after another; at saturation a turn holds
 * hundreds of them, and the last one read has waited for all the others. So a request read after the current turn
 * has run for `afterMs` is refused at once (503, `Retry-After`), for a few microseconds, instead of waiting its turn;
 * the next turn starts shorter, and every request taken is answered within about two turns' bound.
 *
 * A turn starts with the first request read after the last check phase (`setImmediate`), which is also when it is
 * marked: an idle server keeps no timer. Libraries that sample the loop's delay on a timer (fastify's
 * under-pressure, overload-protection) learn of a long turn only once it has ended, from the timer it delayed.
 */
export function createBusyCheck(afterMs: number): () => boolean {
  let inTurn = false;
  let startedAt = 0;
  const endTurn = () => {
    inTurn = false;
  };
  return () => {
    const now = performance.now();
    if (!inTurn) {
      inTurn = true;
      startedAt = now;
      setImmediate(endTurn);
      return false;
    }
    return now - startedAt > afterMs;
  };
}

const busyJson = JSON.stringify({ error: { code: 'server.busy', message: busyMessage } });
const busyPage =
  '<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">' +
  `<title>TutorBook is busy</title><p>${busyMessage}</p></html>`;

/** The refusal, written on the Node response with the headers every answer carries (flat: name, value, …). */
export function refuseBusy(path: string, res: ServerResponse, headers: readonly string[]): void {
  const api = path.startsWith('/api/');
  const body = api ? busyJson : busyPage;
  res.writeHead(
    503,
    headers.concat(
      'content-type',
      api ? 'application/json' : 'text/html; charset=utf-8',
      'content-length',
      String(Buffer.byteLength(body)),
      'retry-after',
      String(busyRetryAfterSeconds),
      'cache-control',
      'no-store',
    ),
  );
  res.end(body);
}
