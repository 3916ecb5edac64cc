import { pino, type DestinationStream } from 'pino';

/** How many characters of lines gather before they are written, and how long a line may wait at most. */
const batchLength = 4096;
const batchMs = 1000;

/**
 * Where the process logs: JSON lines to stdout (or a file), written off the request path. Lines gather in
 * memory and go out in one write once 4 KB have gathered, or every second, instead of a write (a trip
 * through libuv's thread pool) per request line, which cost the busiest routes a quarter of their throughput
 * (bench/run.ts, docs/decisions/0005-request-log-destination.md). A graceful stop flushes them (main.ts), and
 * so does any exit through `process.exit`; a process killed outright (SIGKILL, a crash of Node itself) loses
 * the last second or 4 KB of lines at most.
 *
 * The lines gather here, in an array joined once per batch; pino's destination (sonic-boom) writes the
 * batches. It could gather them itself, but it measures all it holds again for every line it is given.
 */
export function createLogDestination(
  dest: number | string = 1,
): DestinationStream & { flush(cb?: (err?: Error) => void): void; flushSync(): void } {
  const out = pino.destination({ dest, sync: false });
  let lines: string[] = [];
  let length = 0;
  const handOver = () => {
    if (lines.length === 0) return;
    out.write(lines.join(''));
    lines = [];
    length = 0;
  };
  setInterval(handOver, batchMs).unref();
  // pino flushes `out` on exit before this runs: the lines still here are written now.
  process.on('exit', () => {
    if (lines.length === 0) return;
    handOver();
    out.flushSync();
  });
  return {
    write(line: string) {
      lines.push(line);
      length += line.length;
      if (length >= batchLength) handOver();
    },
    flush(cb) {
      handOver();
      out.flush(cb);
    },
    flushSync() {
      handOver();
      out.flushSync();
    },
  };
}
