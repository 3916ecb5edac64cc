import { SSEStreamingApi } from 'hono/streaming';
import { describe, expect, test, vi } from 'vitest';
import { createMemoryBus } from './memory-bus.ts';
import { createStreamHub } from './stream-hub.ts';

/**
 * The hub with a stream that nobody reads yet: the same SSEStreamingApi over a TransformStream that
 * `streamSSE` makes, so the hub's first write waits until the test reads, and what is published meanwhile
 * piles up in the stream's queue as it would behind a slow client.
 */
function openUnreadStream() {
  const bus = createMemoryBus();
  const hub = createStreamHub({ bus });
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const stream = new SSEStreamingApi(writable, readable);
  const served = hub.serve(stream, { me: undefined, lastEventId: undefined });
  const reader = stream.responseReadable.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    bus,
    /** The `change` events' data written until the hub has nothing left to write. */
    async changes(count: number) {
      while (text.split('event: change').length - 1 < count) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      return [...text.matchAll(/event: change\n(?:id: .*\n)?data: (.*)\n/g)].map((m) => JSON.parse(m[1]!));
    },
    /** The ids of the `change` events read so far (after `changes`), in order. */
    changeIds: () => [...text.matchAll(/event: change\n(?:id: (.*)\n)?data: /g)].map((m) => m[1]),
    async close() {
      await hub.closeAll();
      await served;
    },
  };
}

describe('a slow client', () => {
  test('notices for one table merged while it was busy keep the highest version, or none if one had none', async () => {
    const client = openUnreadStream();
    try {
      client.bus.publish({ table: 'questions', ids: ['q1'], audience: 'everyone', version: 5 });
      client.bus.publish({ table: 'bookings', ids: ['b1'], audience: 'everyone', version: 9 });
      client.bus.publish({ table: 'questions', ids: ['q2'], audience: 'everyone', version: 7 });
      client.bus.publish({ table: 'questions', ids: ['q1'], audience: 'everyone', version: 6 });
      client.bus.publish({ table: 'bookings', ids: ['b2'], audience: 'everyone' });
      client.bus.publish({ table: 'modules', ids: ['m1'], audience: 'everyone' });
      expect(await client.changes(3)).toEqual([
        { table: 'questions', ids: ['q1', 'q2'], version: 7 },
        { table: 'bookings', ids: ['b1', 'b2'] },
        { table: 'modules', ids: ['m1'] },
      ]);
    } finally {
      await client.close();
    }
  });

  test('a notice alone keeps its own version, even when an earlier one had the same ids', async () => {
    const client = openUnreadStream();
    try {
      client.bus.publish({ table: 'questions', ids: ['q1'], audience: 'everyone', version: 3 });
      client.bus.publish({ table: 'bookings', ids: ['b1'], audience: 'everyone', version: 4 });
      client.bus.publish({ table: 'questions', ids: ['q1'], audience: 'everyone', version: 8 });
      // The questions' entry began before the bookings', so its message may claim only the first notice's id;
      // its data still says everything merged in: version 8.
      expect(await client.changes(2)).toEqual([
        { table: 'questions', ids: ['q1'], version: 8 },
        { table: 'bookings', ids: ['b1'], version: 4 },
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('ids', () => {
  test('a merged change names only an event its reader heard, never a private one that came between', async () => {
    const client = openUnreadStream();
    const idOf = new Map<string, string>();
    client.bus.subscribe((m) => {
      if (m.type === 'notice') idOf.set(m.event.ids[0]!, m.event.id);
    });
    try {
      client.bus.publish({ table: 'questions', ids: ['q1'], audience: 'everyone' });
      client.bus.publish({ table: 'bookings', ids: ['b-private'], audience: { userIds: ['someone-else'] } });
      client.bus.publish({ table: 'modules', ids: ['m1'], audience: 'everyone' });
      client.bus.publish({ table: 'questions', ids: ['q2'], audience: 'everyone' });
      expect(await client.changes(2)).toEqual([
        { table: 'questions', ids: ['q1', 'q2'] },
        { table: 'modules', ids: ['m1'] },
      ]);
      // The questions' message may claim only what came before the modules' notice: q1's, the last the
      // visitor heard, not the booking's, which would tell them a notice they did not hear exists.
      expect(client.changeIds()).toEqual([idOf.get('q1'), idOf.get('m1')]);
    } finally {
      await client.close();
    }
  });
});

describe('timers', () => {
  test('streams opened together send their heartbeats apart, each within its period', async () => {
    vi.useFakeTimers();
    const hub = createStreamHub({ bus: createMemoryBus(), heartbeatMs: 1000 });
    const firstHeartbeatAt: number[] = [];
    const served: Promise<void>[] = [];
    try {
      const start = Date.now();
      for (let i = 0; i < 40; i++) {
        const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
        const stream = new SSEStreamingApi(writable, readable);
        served.push(hub.serve(stream, { me: undefined, lastEventId: undefined }));
        void (async () => {
          const reader = stream.responseReadable.getReader();
          const decoder = new TextDecoder();
          let text = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            text += decoder.decode(value, { stream: true });
            if (text.includes(': heartbeat')) return void firstHeartbeatAt.push(Date.now() - start);
          }
        })();
      }
      for (let at = 0; at < 1000; at += 10) await vi.advanceTimersByTimeAsync(10);
      expect(firstHeartbeatAt).toHaveLength(40);
      expect(Math.min(...firstHeartbeatAt)).toBeGreaterThanOrEqual(750);
      expect(Math.max(...firstHeartbeatAt)).toBeLessThanOrEqual(1000);
      // Forty draws from 250 ms land in more than a few 10-ms steps; together they would land in one.
      expect(new Set(firstHeartbeatAt).size).toBeGreaterThan(5);
    } finally {
      await hub.closeAll();
      await Promise.all(served);
      vi.useRealTimers();
    }
  });
});
