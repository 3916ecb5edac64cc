import { Timestamp, type DocumentChange } from 'firebase-admin/firestore';
import { describe, expect, test } from 'vitest';
import { inOrder } from './firestore-bus.ts';

/**
 * The order a snapshot's notices are delivered in (firestore-bus.ts `inOrder`), on the snapshots Firestore
 * hands over: every document of a batch shares its commit's time, and two processes' batches may share a
 * millisecond. Each publisher's notices must come out in the order it published them.
 */
const at = Timestamp.fromMillis(1_796_300_000_000);
const change = (from: string, seq: number) =>
  ({
    type: 'added',
    doc: {
      id: `${from}${seq}`,
      data: () => ({ table: from, ids: [String(seq)], audience: 'everyone', from, seq, at, expireAt: at }),
    },
  }) as unknown as DocumentChange<never>;

describe('a snapshot’s notices in the order they were published', () => {
  test('two publishers’ batches in one millisecond, in the random order of their document ids', () => {
    // 13 of one process and 12 of another, all at one time, shuffled as their random ids sort them.
    const a = Array.from({ length: 13 }, (_, i) => change('aaaa', i + 1));
    const b = Array.from({ length: 12 }, (_, i) => change('bbbb', i + 1));
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let round = 0; round < 50; round++) {
      const shuffled = [...a, ...b].sort(() => random() - 0.5);
      const order = inOrder(shuffled).map(({ doc }) => `${doc.from}:${doc.seq}`);
      expect(order.filter((o) => o.startsWith('aaaa'))).toEqual(a.map((_, i) => `aaaa:${i + 1}`));
      expect(order.filter((o) => o.startsWith('bbbb'))).toEqual(b.map((_, i) => `bbbb:${i + 1}`));
    }
  });

  test('by time first, whoever published', () => {
    const later = { ...change('aaaa', 1) } as unknown as { doc: { data: () => object } };
    const data = later.doc.data();
    const early = change('bbbb', 9);
    const late = {
      type: 'added',
      doc: { id: 'late', data: () => ({ ...data, at: Timestamp.fromMillis(at.toMillis() + 1) }) },
    };
    expect(inOrder([late as never, early]).map(({ id }) => id)).toEqual(['bbbb9', 'late']);
  });
});
