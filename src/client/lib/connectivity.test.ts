import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createConnectivity, firstWindowMs, maxWindowMs } from './connectivity.ts';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** A localStorage stand-in: what one start of the app leaves for the next. */
const memoryStore = () => {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => items.set(key, value),
  };
};

/** How many of `tries` requests asking at `everyMs` over `forMs` were let through. */
async function admittedOver(connectivity: ReturnType<typeof createConnectivity>, forMs: number, everyMs = 1000) {
  let admitted = 0;
  for (let t = 0; t < forMs; t += everyMs) {
    if (connectivity.admit()) {
      admitted += 1;
      connectivity.failed();
    }
    await vi.advanceTimersByTimeAsync(everyMs);
  }
  return admitted;
}

describe('the browser says offline', () => {
  test('nothing goes at once; then one request per window, 30 s at first and doubling to 4 min while each fails', async () => {
    const connectivity = createConnectivity({ browserOnline: () => false });
    expect(connectivity.state()).toBe('offline');
    const times: number[] = [];
    const start = Date.now();
    for (let t = 0; t < 20 * 60_000; t += 1000) {
      if (connectivity.admit()) {
        times.push(Date.now() - start);
        connectivity.failed();
      }
      await vi.advanceTimersByTimeAsync(1000);
    }
    const gaps = times.slice(1).map((time, i) => time - times[i]!);
    expect(times[0]).toBe(30_000);
    expect(gaps.slice(0, 4)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(Math.max(...gaps)).toBe(maxWindowMs);
  });

  test('starts of the app share the window: three starts in 40 s send one probe, not one per source and start', async () => {
    const store = memoryStore();
    let probes = 0;
    for (const wait of [0, 20_000, 20_000]) {
      await vi.advanceTimersByTimeAsync(wait);
      const connectivity = createConnectivity({ browserOnline: () => false, store });
      // Each start asks for every source and the queue at once.
      for (let source = 0; source < 6; source++)
        if (connectivity.admit()) {
          probes += 1;
          connectivity.failed();
        }
    }
    expect(probes).toBe(1);
  });

  test('the browser saying it is back lets one request go at once and wakes whoever waits', () => {
    let online = false;
    const connectivity = createConnectivity({ browserOnline: () => online });
    expect(connectivity.admit()).toBe(false);
    const woken = vi.fn();
    connectivity.subscribe(woken);
    online = true;
    connectivity.browserOnline();
    expect(woken).toHaveBeenCalledTimes(1);
    expect(connectivity.admit()).toBe(true);
    expect(connectivity.admit()).toBe(false);
    connectivity.succeeded();
    expect(connectivity.state()).toBe('online');
    expect([connectivity.admit(), connectivity.admit()]).toEqual([true, true]);
  });

  test('the browser saying it is back lets each tab probe at once, though they share the window', () => {
    const store = memoryStore();
    let online = false;
    const tabs = [0, 1].map(() => createConnectivity({ browserOnline: () => online, store }));
    online = true;
    // Each tab hears the browser; the first to probe starts a window the other reads, but it still goes once.
    for (const tab of tabs) tab.browserOnline();
    expect(tabs.map((tab) => tab.admit())).toEqual([true, true]);
    expect(tabs.map((tab) => tab.admit())).toEqual([false, false]);
  });

  test("the browser's word that it is back counts without its event: a page that listened too late probes at once", () => {
    let online = false;
    const connectivity = createConnectivity({ browserOnline: () => online });
    expect(connectivity.admit()).toBe(false);
    // The 'online' event came while the page was still loading the code that listens for it.
    online = true;
    expect(connectivity.admit()).toBe(true);
    expect(connectivity.admit()).toBe(false);
    connectivity.succeeded();
    expect(connectivity.admit()).toBe(true);
  });

  test('those waiting are woken when the next probe may go, and not before', async () => {
    const connectivity = createConnectivity({ browserOnline: () => false });
    expect(connectivity.admit()).toBe(false);
    const woken = vi.fn();
    connectivity.subscribe(woken);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(woken).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(woken).toHaveBeenCalledTimes(1);
  });
});

test("the browser's word that it is offline counts even without its event, and its state is told once", () => {
  let online = true;
  const connectivity = createConnectivity({ browserOnline: () => online });
  const states: string[] = [];
  connectivity.watch((state) => states.push(state));
  online = false;
  expect(connectivity.admit()).toBe(false);
  expect(connectivity.state()).toBe('offline');
  online = true;
  connectivity.browserOnline();
  connectivity.admit();
  connectivity.succeeded();
  // Back, but not yet answered: unreachable until the probe is.
  expect(states).toEqual(['offline', 'unreachable', 'online']);
});

describe('the browser says online but nothing answers', () => {
  test('one failure is a blip; after two in a row it backs off as offline does, until a request is answered', async () => {
    const connectivity = createConnectivity({ browserOnline: () => true });
    expect(connectivity.admit()).toBe(true);
    connectivity.failed();
    expect([connectivity.state(), connectivity.admit()]).toEqual(['online', true]);
    connectivity.failed();
    expect(connectivity.state()).toBe('unreachable');
    expect(await admittedOver(connectivity, firstWindowMs - 1000)).toBe(0);
    expect(await admittedOver(connectivity, 2000)).toBe(1);
    expect(connectivity.admit()).toBe(false);

    connectivity.tryNow();
    expect(connectivity.admit()).toBe(true);
    connectivity.succeeded();
    expect(connectivity.state()).toBe('online');
  });

  test('an answer between failures (any status: the server is there) keeps it online', () => {
    const connectivity = createConnectivity({ browserOnline: () => true });
    for (let i = 0; i < 10; i++) {
      connectivity.failed();
      connectivity.succeeded();
    }
    expect(connectivity.state()).toBe('online');
  });
});
