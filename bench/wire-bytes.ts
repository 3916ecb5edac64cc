import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Bytes one kind of request moved: `received` from the browser, `sent` to it, headers included. */
export interface WireCount {
  requests: number;
  received: number;
  sent: number;
}

export type WireCounts = Map<string, WireCount>;

/**
 * Counts what a server's sockets carry, both ways (the method of bench/app-server.ts's `bytesSent`, with the
 * bytes read as well), and gives each request its share: what a socket moved from the end of one answer to the
 * end of the next belongs to the request of that answer (browsers do not pipeline, so the next request's bytes
 * come after the last answer). A stream's bytes are counted as they go, before it ends. `classify` names a
 * request's kind (undefined leaves it out: the benchmark's own requests); `detail` groups them finer.
 */
export function countWireBytes(
  server: Server,
  classify: (req: IncomingMessage) => string | undefined,
  detail: (req: IncomingMessage, status: number) => string | undefined = () => undefined,
) {
  interface Current {
    kind: string | undefined;
    req: IncomingMessage;
    res: ServerResponse;
  }
  const byKind: WireCounts = new Map();
  const byDetail: WireCounts = new Map();
  /** Per socket: where its last answer ended, and the request it is answering now. */
  interface SocketState {
    read: number;
    written: number;
    current?: Current;
    last?: string;
  }
  const open = new Map<Socket, SocketState>();
  let closedBytes = 0;

  const add = (map: WireCounts, key: string, received: number, sent: number, requests: number) => {
    const count = map.get(key) ?? { requests: 0, received: 0, sent: 0 };
    map.set(key, {
      requests: count.requests + requests,
      received: count.received + received,
      sent: count.sent + sent,
    });
  };

  /** The socket's bytes since its last boundary; the boundary moves when `settle`. */
  const share = (socket: Socket, settle: boolean) => {
    const state = open.get(socket)!;
    const received = socket.bytesRead - state.read;
    const sent = socket.bytesWritten - state.written;
    if (settle) [state.read, state.written] = [socket.bytesRead, socket.bytesWritten];
    return { received, sent };
  };

  /** The request a socket is answering is done (its answer ended, or the socket closed first): its bytes are its own. */
  const finish = (socket: Socket, state: SocketState) => {
    const { current } = state;
    const kind = current?.kind ?? state.last;
    const { received, sent } = share(socket, true);
    state.current = undefined;
    state.last = kind;
    if (kind === undefined) return;
    add(byKind, kind, received, sent, current ? 1 : 0);
    const name = current && detail(current.req, current.res.statusCode);
    if (name !== undefined) add(byDetail, name, received, sent, 1);
  };

  server.on('connection', (socket: Socket) => {
    open.set(socket, { read: 0, written: 0 });
    socket.once('close', () => {
      const state = open.get(socket);
      if (!state) return;
      // A stream (or a request cut short) ends with its socket; bytes after the last answer go to the kind
      // the socket last served.
      finish(socket, state);
      closedBytes += socket.bytesRead + socket.bytesWritten;
      open.delete(socket);
    });
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const state = open.get(socket);
    if (!state) return;
    const current: Current = { kind: classify(req), req, res };
    state.current = current;
    res.once('close', () => {
      if (state.current === current) finish(socket, state);
    });
  });

  /** The counts so far, streams still open included. */
  function snapshot(): { byKind: WireCounts; byDetail: WireCounts } {
    const kinds: WireCounts = new Map([...byKind].map(([k, v]) => [k, { ...v }]));
    const details: WireCounts = new Map([...byDetail].map(([k, v]) => [k, { ...v }]));
    for (const [socket, state] of open) {
      const { current } = state;
      if (current?.kind === undefined) continue;
      const { received, sent } = share(socket, false);
      add(kinds, current.kind, received, sent, 1);
      const name = detail(current.req, current.res.statusCode);
      if (name !== undefined) add(details, `${name} (open)`, received, sent, 1);
    }
    return { byKind: kinds, byDetail: details };
  }

  return {
    snapshot,
    /** Every byte so far, both ways, the left-out requests too: for waiting until the network is quiet. */
    total: () => [...open.keys()].reduce((sum, socket) => sum + socket.bytesRead + socket.bytesWritten, closedBytes),
  };
}

/** `after` minus `before`, per key. */
export function difference(after: WireCounts, before: WireCounts): WireCounts {
  const result: WireCounts = new Map();
  for (const [key, count] of after) {
    const was = before.get(key) ?? { requests: 0, received: 0, sent: 0 };
    const diff = {
      requests: count.requests - was.requests,
      received: count.received - was.received,
      sent: count.sent - was.sent,
    };
    if (diff.requests || diff.received || diff.sent) result.set(key, diff);
  }
  return result;
}
