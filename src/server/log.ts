import { pino } from 'pino';

/**
 * Where the process logs: JSON lines to stdout (or a file), written off the request path. Lines gather in
 * memory and go out in one write once 4 KB have gathered, or every second, instead of a write (a trip
 * through libuv's thread pool) per request line, which cost the busiest routes a quarter of their throughput
 * (bench/run.ts, docs/decisions/0005-request-log-destination.md). A graceful stop flushes them (main.ts), and
 * so does any exit through `process.exit`; a process killed outright (SIGKILL, a crash of Node itself) loses
 * the last second or 4 KB of lines at most.
 */
export function createLogDestination(dest: number | string = 1) {
  return pino.destination({ dest, sync: false, minLength: 4096, periodicFlush: 1000 });
}
