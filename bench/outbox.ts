// Before Dexie is imported: it takes IndexedDB from the global scope when it loads.
import 'fake-indexeddb/auto';
import os from 'node:os';
import { newDbName, openPage, startNoteServer, waitFor } from '../src/client/test/engine-test-kit.ts';
import { recordResults } from './results.ts';

/**
 * The outbox's flush, a report (always exits 0): 200 notes queued offline, then the engine starts and sends
 * them, in order, one request at a time, each acknowledged in IndexedDB (fake-indexeddb here). The reference
 * sends the same 200 requests (same bodies, same server) one after another with plain fetch, so the ratio is
 * what the engine's bookkeeping costs. Target (issue 7): the flush takes at most 3 s on this machine.
 */

const count = 200;
const rounds = 5;
const server = await startNoteServer();

async function plainFetches(): Promise<number> {
  server.store.clear();
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${server.url()}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: `n${i}`, text: `Note ${i}` }),
    });
    await response.json();
  }
  return performance.now() - started;
}

async function engineFlush(): Promise<number> {
  server.store.clear();
  const page = await openPage(newDbName(), server);
  for (let i = 0; i < count; i++) await page.addNote({ id: `n${i}`, text: `Note ${i}` });
  const started = performance.now();
  page.engine.start({ userId: 'u1' });
  await waitFor(async () => (await page.db.outbox.count()) === 0, 30_000);
  const ms = performance.now() - started;
  if (server.store.size !== count) throw new Error(`${server.store.size} of ${count} notes arrived`);
  page.engine.stop();
  page.db.close();
  return ms;
}

const loadAtStart = os.loadavg()[0]!.toFixed(1);
const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;
const times = { plain: [] as number[], engine: [] as number[] };
await plainFetches();
await engineFlush();
for (let round = 0; round < rounds; round++) {
  times.plain.push(await plainFetches());
  times.engine.push(await engineFlush());
}
await server.stop();

const [plain, engine] = [median(times.plain), median(times.engine)];
console.log(
  `\nOutbox flush of ${count} queued mutations, median of ${rounds} interleaved rounds, load average ${os.loadavg()[0]!.toFixed(1)}\n`,
);
const line = (label: string, ms: number) =>
  console.log(`${label.padEnd(52)}${Math.round(ms).toString().padStart(6)} ms`);
line(`${count} plain sequential fetches (same requests)`, plain);
line('engine flush (queued in IndexedDB, acknowledged)', engine);
console.log(
  `\nengine ÷ plain: ${(engine / plain).toFixed(2)}; flush ${engine <= 3000 ? '≤' : '>'} 3 s: ${engine <= 3000 ? 'PASS' : 'FAIL'}`,
);
await recordResults(
  import.meta.filename,
  [
    {
      measured: `the engine's flush of ${count} queued mutations (queued in IndexedDB, each acknowledged)`,
      figure: { value: engine, unit: 'ms' },
      reference: {
        what: `${count} plain sequential fetches of the same requests`,
        figure: { value: plain, unit: 'ms' },
      },
      ratio: engine / plain,
      target: 'flush ≤ 3 s, issue 7',
      met: engine <= 3000,
    },
  ],
  { conditions: `Median of ${rounds} interleaved rounds; load average ${loadAtStart} at the start.` },
);
