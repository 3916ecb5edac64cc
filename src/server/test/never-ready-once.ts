/**
 * A stand-in for main.ts in chaos-server.test.ts. Its first start in a data folder takes the port and never answers,
 * as a start on a machine too busy to finish it in time; every later start there is main.ts itself. It prints its
 * process id, so that the test can see the stuck start was killed.
 */
import { existsSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

// eslint-disable-next-line no-restricted-properties -- the harness's environment for main.ts, read by a test's stand-in
const { DATA_DIR, PORT, HOST } = process.env;
const marker = path.join(DATA_DIR!, 'started-once');
if (existsSync(marker)) {
  await import('../main.ts');
} else {
  writeFileSync(marker, String(process.pid));
  console.log(`never ready: pid ${process.pid}`);
  // Accepts connections and answers none: the health check times out, the port stays taken.
  net.createServer(() => {}).listen(Number(PORT), HOST);
}
