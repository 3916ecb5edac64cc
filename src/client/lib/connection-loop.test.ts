import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { backoffMs, createLoop, type Next } from './connection-loop.ts';
import { createConnectivity } from './connectivity.ts';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** A run the test finishes by hand, with what comes after it. */
function manualRuns() {
  const started: { finish(next?: Next, value?: number): void; fail(error: Error): void; signal: AbortSignal }[] = [];
  const run = (signal: AbortSignal) =>
    new Promise<{ value: number; next: Next }>((resolve, reject) => {
      started.push({
        finish: (next = { after: 'idle' }, value = started.length) => resolve({ value, next }),
        fail: reject,
        signal,
      });
    });
  return { started, run };
}

const flushPromises = () => vi.advanceTimersByTimeAsync(0);

describe('one run at a time', () => {
  test('kicks during a run share one more run after it', async () => {
    const { started, run } = manualRuns();
    const loop = createLoop({ run });
    const first = loop.kick();
    const [a, b, c] = [loop.kick(), loop.kick(), loop.kick()];
    expect(a).toBe(b);
    expect(b).toBe(c);
    await flushPromises();
    expect(started).toHaveLength(1);
    started[0]!.finish({ after: 'idle' }, 10);
    expect(await first).toBe(10);
    await flushPromises();
    expect(started).toHaveLength(2);
    started[1]!.finish({ after: 'idle' }, 20);
    expect(await a).toBe(20);
    await flushPromises();
    expect(started).toHaveLength(2);
  });

  test('a kick after the runs ended starts a run at once', async () => {
    const { started, run } = manualRuns();
    const loop = createLoop({ run });
    void loop.kick();
    started[0]!.finish();
    await flushPromises();
    void loop.kick();
    expect(started).toHaveLength(2);
  });

  test('a run that throws rejects its kick, is retried after a backoff, and the loop goes on', async () => {
    const { started, run } = manualRuns();
    const loop = createLoop({ run, random: () => 1 });
    const kicked = loop.kick();
    started[0]!.fail(new Error('boom'));
    await expect(kicked).rejects.toThrow('boom');
    expect(loop.failures()).toBe(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(started).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toHaveLength(2);
  });
});

describe('what comes after a run', () => {
  test('backoff doubles from 1 s to 60 s, spread by jitter over its upper half, and a good run resets it', async () => {
    expect([1, 2, 3, 7, 8, 20].map((n) => backoffMs(n, { random: () => 1 }))).toEqual([
      1000, 2000, 4000, 60_000, 60_000, 60_000,
    ]);
    expect(backoffMs(3, { random: () => 0 })).toBe(2000);

    const { started, run } = manualRuns();
    const loop = createLoop({ run, random: () => 1 });
    void loop.kick();
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      started.at(-1)!.finish({ after: 'backoff' });
      await flushPromises();
      const before = started.length;
      let waited = 0;
      while (started.length === before) {
        await vi.advanceTimersByTimeAsync(100);
        waited += 100;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
    started.at(-1)!.finish({ after: 'idle' });
    await flushPromises();
    expect(loop.failures()).toBe(0);
    void loop.kick();
    started.at(-1)!.finish({ after: 'backoff' });
    await flushPromises();
    await vi.advanceTimersByTimeAsync(1000);
    expect(started).toHaveLength(7);
  });

  test('`at` runs again at that time; a kick meanwhile runs now and the earlier timer goes', async () => {
    const { started, run } = manualRuns();
    const loop = createLoop({ run });
    void loop.kick();
    started[0]!.finish({ after: 'at', at: Date.now() + 5000 });
    await vi.advanceTimersByTimeAsync(4999);
    expect(started).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toHaveLength(2);
    started[1]!.finish({ after: 'at', at: Date.now() + 5000 });
    await flushPromises();
    void loop.kick();
    expect(started).toHaveLength(3);
    started[2]!.finish({ after: 'idle' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(started).toHaveLength(3);
  });

  test('`network` waits, without a timer of its own, until the connectivity says a request may go', async () => {
    let browserOnline = false;
    const connectivity = createConnectivity({ browserOnline: () => browserOnline });
    let requests = 0;
    // As the outbox and the sources do: a request only when admitted; no answer while offline.
    const loop = createLoop({
      connectivity,
      run: async () => {
        if (!connectivity.admit()) return { value: 'held', next: { after: 'network' } };
        requests += 1;
        if (!browserOnline) {
          connectivity.failed();
          return { value: 'failed', next: { after: 'network' } };
        }
        connectivity.succeeded();
        return { value: 'sent', next: { after: 'idle' } };
      },
    });
    for (let i = 0; i < 20; i++) expect(await loop.kick()).toBe('held');
    // Probes 30 s after going offline, then 30, 60, 120 and 240 s apart: 5 in ten minutes, whatever was kicked.
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(requests).toBe(5);
    browserOnline = true;
    connectivity.browserOnline();
    await flushPromises();
    expect(requests).toBe(6);
    expect(await loop.kick()).toBe('sent');
  });

  test('the watchdog kicks an idle loop, so work never waits for good on a lost timer', async () => {
    const { started, run } = manualRuns();
    const loop = createLoop({ run, watchdogMs: 60_000 });
    void loop.kick();
    started[0]!.finish({ after: 'idle' });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(started).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toHaveLength(2);
  });

  test('a run that hangs is aborted after its time and counts as failed', async () => {
    const { started, run } = manualRuns();
    const loop = createLoop({ run, runTimeoutMs: 30_000, random: () => 1 });
    const kicked = loop.kick();
    const caught = kicked.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(started[0]!.signal.aborted).toBe(true);
    expect(await caught).toMatchObject({ name: 'RunTimeout' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(started).toHaveLength(2);
  });

  test('closed: nothing runs again, the run under way is aborted, and kicks are refused', async () => {
    const { started, run } = manualRuns();
    const loop = createLoop({ run, watchdogMs: 1000 });
    void loop.kick();
    loop.close();
    expect(started[0]!.signal.aborted).toBe(true);
    started[0]!.finish({ after: 'backoff' });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(started).toHaveLength(1);
    await expect(loop.kick()).rejects.toThrow(/closed/);
  });
});
