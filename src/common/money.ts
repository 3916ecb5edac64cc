/**
 * Prices as people read and type them. Apart from the schemas (catalogue.ts re-exports these) so that pages
 * that only show prices, and the app's first load, do not need zod.
 */

/** Turns what the admin typed ("90", "R 90.50") into cents; `undefined` when it is not a price. */
export function randToCents(text: string): number | undefined {
  const match = /^\s*R?\s*(\d{1,9})(?:[.,](\d{1,2}))?\s*$/i.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

/** "R90" or "R90.50": how prices read on every page. */
export function formatRand(cents: number): string {
  const rand = cents / 100;
  return `R${Number.isInteger(rand) ? rand.toString() : rand.toFixed(2)}`;
}
