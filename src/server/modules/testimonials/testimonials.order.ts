import { byPosition, type Testimonial } from '../../../common/testimonials.ts';

/**
 * The rule of a move, apart from any engine (both repositories apply it): `rows` in their order, `id` taken
 * out and put back at place `to` (from 0; past the end is the end), then everyone numbered 0, 1, 2… Returns
 * the rows in the new order with their new positions, and those whose position changed; undefined when `id`
 * is not among them. Numbering afresh also mends positions two adds at once gave the same number.
 */
export function moveInOrder(
  rows: readonly Testimonial[],
  id: string,
  to: number,
): { ordered: Testimonial[]; changed: Testimonial[] } | undefined {
  const order = [...rows].sort(byPosition);
  const from = order.findIndex((row) => row.id === id);
  if (from < 0) return undefined;
  const [moving] = order.splice(from, 1);
  order.splice(Math.min(Math.max(0, to), order.length), 0, moving!);
  const ordered = order.map((row, position) => (row.position === position ? row : { ...row, position }));
  return { ordered, changed: ordered.filter((row, i) => row !== order[i]) };
}
