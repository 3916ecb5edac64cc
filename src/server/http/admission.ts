import type { IncomingMessage, ServerResponse } from 'node:http';
import { busyMessage, busyRetryAfterSeconds } from './errors.ts';

/**
 * At saturation, requests wait their turn in a queue of bounded wait, served one a turn of the event loop
 * (issue 33, decision 0042).
 *
 * Node serves every request it has read in one turn of its event loop before the loop turns again, and libuv lets
 * in one new connection a turn (since libuv 1.45: "unix: don't accept() connections in a loop"). Saturated, a turn
 * held hundreds of requests, about a second of work: new connections waited in the kernel's queue, one let in a
 * second, and the requests on them went unanswered for 30 s. So a request read after `sliceMs` of the current
 * turn's work, or while others wait, joins a queue instead, and the queue is served one request a turn, in the
 * order they came: the loop turns for each request, letting in a connection and reading the sockets each time,
 * and the work done in a second stays the same. A request whose wait would pass `maxWaitMs` (those before it times
 * what a turn took lately) is refused at once, 503 with `Retry-After`, before it costs anything; one that waited
 * past it all the same (a slow patch) is refused when its turn comes.
 */
export interface Admission {
  /** Serves the request now, later, or refuses it. */
  admit(req: IncomingMessage, res: ServerResponse, serve: () => void): void;
  /** Requests waiting. */
  readonly waiting: number;
}

export interface AdmissionOptions {
  /** The time a turn of the event loop gives the requests it has read before the rest join the queue. */
  sliceMs: number;
  /** The longest a request may wait in the queue. */
  maxWaitMs: number;
  /** The headers every answer carries (node-server.ts, flat: name, value, …). */
  headers: readonly string[];
  /** Told of each refusal (main.ts logs their count). */
  refused?: () => void;
}

interface Waiting {
  req: IncomingMessage;
  res: ServerResponse;
  serve: () => void;
  at: number;
}

export function createAdmission({ sliceMs, maxWaitMs, headers, refused = () => {} }: AdmissionOptions): Admission {
  const queue: Waiting[] = [];
  let head = 0;
  /** When this turn's serving began, and whether a turn is under way (it ends in the turn's check phase). */
  let turnStartedAt = 0;
  let inTurn = false;
  /** When the queue's last request was served, and a moving average of the time between two (ms). */
  let lastServedAt: number | undefined;
  let turnMs = 1;

  const endTurn = () => {
    inTurn = false;
  };
  const refuse = (req: IncomingMessage, res: ServerResponse) => {
    refused();
    refuseBusy(req.url ?? '/', res, headers);
  };

  /**
   * One waiting request, then the loop turns (its microtasks, the request's work on SQLite, run before the next
   * turn's I/O): a setImmediate callback scheduled here runs in the next turn's check phase.
   */
  const serveNext = () => {
    const now = performance.now();
    // A stall (a pause of the whole process, a long collection of garbage) is no request's cost: capped, one
    // does not make the queue refuse everyone for a while after.
    if (lastServedAt !== undefined) turnMs = turnMs * 0.9 + Math.min(now - lastServedAt, 100) * 0.1;
    lastServedAt = now;
    const next = queue[head]!;
    queue[head++] = undefined as never;
    // A client that gave up while it waited is not served.
    if (!next.req.socket.destroyed) {
      if (now - next.at > maxWaitMs) refuse(next.req, next.res);
      else next.serve();
    }
    if (head < queue.length) setImmediate(serveNext);
    else {
      queue.length = 0;
      head = 0;
      lastServedAt = undefined;
    }
  };

  return {
    admit(req, res, serve) {
      const now = performance.now();
      if (!inTurn) {
        inTurn = true;
        turnStartedAt = now;
        setImmediate(endTurn);
      }
      const waiting = queue.length - head;
      // Nobody waiting and time left in this turn: served now, as on a server that is not busy.
      if (waiting === 0 && now - turnStartedAt < sliceMs) return serve();
      if (waiting * turnMs > maxWaitMs) return refuse(req, res);
      queue.push({ req, res, serve, at: now });
      if (waiting === 0) setImmediate(serveNext);
    },
    get waiting() {
      return queue.length - head;
    },
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
