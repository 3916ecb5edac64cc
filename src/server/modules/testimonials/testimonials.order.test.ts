import { describe, expect, test } from 'vitest';
import type { Testimonial } from '../../../common/testimonials.ts';
import { moveInOrder } from './testimonials.order.ts';

const row = (id: string, position: number): Testimonial => ({
  id,
  name: `Student ${id}`,
  course: 'COMP102',
  quote: 'Helpful.',
  hidden: false,
  position,
  updatedAt: 'then',
});
const ids = (rows: readonly Testimonial[]) => rows.map((r) => r.id).join('');

describe('moving a testimonial in the order', () => {
  const rows = [row('a', 0), row('b', 1), row('c', 2), row('d', 3)];

  test('up one place swaps it with the one before; only those two change', () => {
    const moved = moveInOrder(rows, 'c', 1)!;
    expect(ids(moved.ordered)).toBe('acbd');
    expect(moved.ordered.map((r) => r.position)).toEqual([0, 1, 2, 3]);
    expect(moved.changed.map((r) => [r.id, r.position])).toEqual([
      ['c', 1],
      ['b', 2],
    ]);
  });

  test('to the top, to the end, and past the end (the end)', () => {
    expect(ids(moveInOrder(rows, 'd', 0)!.ordered)).toBe('dabc');
    expect(ids(moveInOrder(rows, 'a', 3)!.ordered)).toBe('bcda');
    expect(ids(moveInOrder(rows, 'a', 9_999)!.ordered)).toBe('bcda');
  });

  test('to where it is changes nothing', () => {
    expect(moveInOrder(rows, 'b', 1)!.changed).toEqual([]);
  });

  test('rows given out of order, or sharing a position, are ordered by position then id and numbered afresh', () => {
    const tied = [row('d', 5), row('b', 2), row('a', 2), row('c', 9)];
    const moved = moveInOrder(tied, 'c', 0)!;
    expect(ids(moved.ordered)).toBe('cabd');
    expect(moved.ordered.map((r) => r.position)).toEqual([0, 1, 2, 3]);
  });

  test('an id not among them is undefined', () => {
    expect(moveInOrder(rows, 'x', 0)).toBeUndefined();
  });
});
