import net, { type AddressInfo, type Socket } from 'node:net';

/**
 * A slow network link in front of a server: a TCP proxy on 127.0.0.1 through which every byte, both ways, waits
 * its turn on one link of `kbitPerSecond` each way and then half of `rttMs`. One link for every connection, as a
 * phone has one radio: the page's requests and the service worker's share it. (Chromium's own throttling,
 * `Network.emulateNetworkConditions`, is set per DevTools target: a page's does not slow its service worker,
 * whose precache is what is measured here.)
 */
export async function startSlowLink(
  target: string,
  { kbitPerSecond, rttMs }: { kbitPerSecond: number; rttMs: number },
) {
  const { hostname, port } = new URL(target);
  const down = createLink(kbitPerSecond * 1000, rttMs / 2);
  const up = createLink(kbitPerSecond * 1000, rttMs / 2);
  const sockets = new Set<Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    pipe(client, upstream, up);
    pipe(upstream, client, down);
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type Link = (bytes: number) => number;

/** A link that sends one byte after another at `bitsPerSecond`: returns when a piece of `bytes` has arrived. */
function createLink(bitsPerSecond: number, oneWayMs: number): Link {
  let freeAt = 0;
  return (bytes) => {
    const start = Math.max(performance.now(), freeAt);
    freeAt = start + (bytes * 8 * 1000) / bitsPerSecond;
    return freeAt + oneWayMs;
  };
}

/** A piece is at most this long, so that a page arrives bit by bit, as over a real link, not in 64 KB blocks. */
const pieceBytes = 1460;

/** Sends what `from` reads to `to` over the link, in order; the end of `from` after its last byte. */
function pipe(from: Socket, to: Socket, link: Link) {
  const queue: { at: number; data: Buffer | null }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const drain = () => {
    timer = undefined;
    const now = performance.now();
    while (queue.length > 0 && queue[0]!.at <= now + 1) {
      const { data } = queue.shift()!;
      if (to.destroyed) return;
      if (data === null) to.end();
      else to.write(data);
    }
    if (queue.length > 0) timer = setTimeout(drain, queue[0]!.at - now);
  };
  const push = (at: number, data: Buffer | null) => {
    queue.push({ at, data });
    if (!timer) timer = setTimeout(drain, Math.max(0, queue[0]!.at - performance.now()));
  };
  from.on('data', (chunk: Buffer) => {
    for (let i = 0; i < chunk.length; i += pieceBytes) {
      const piece = chunk.subarray(i, i + pieceBytes);
      push(link(piece.length), piece);
    }
  });
  from.on('end', () => push(link(0), null));
  to.once('close', () => clearTimeout(timer));
}
