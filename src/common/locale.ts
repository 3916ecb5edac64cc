/**
 * Numbers and order as an en-ZA reader expects them, without Intl: `toLocaleString`, `localeCompare` and
 * `Intl.Collator` load the browser's locale data on their first use on a page (20–90 ms on a fast machine,
 * several times that on a cheap phone; common/sast.ts formats dates without it too). The tests check each
 * against Intl's `en-ZA`.
 */

/** "10 000": a whole number in groups of three with a no-break space between them. */
export const formatCount = (count: number) => String(count).replace(/\B(?=(\d{3})+$)/g, '\u00a0');

/** Code-unit order: ISO dates and times sort as text in time order, so they need no collation at all. */
export const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Names in alphabetical order, ignoring case ("Excel basics" between "Data science" and "Java"), as a reader
 * expects of English titles. Letters with accents sort after `z`, which a collator would not do: the catalogue's
 * names are English.
 */
export const byName = (a: { name: string }, b: { name: string }) =>
  byCodeUnits(a.name.toLowerCase(), b.name.toLowerCase()) || byCodeUnits(a.name, b.name);
