/**
 * A weekly series' sessions (issue 36), in a file of its own with no imports: the client's bookings.sync.ts, which
 * loads with the app, names a queued series' sessions with it before the server has answered.
 */

/**
 * The id of the series' session `index` weeks after the first, whose id the request carries: the first's with
 * its last part counted on, so the server and a device that queued the request offline name each session alike.
 */
export function seriesSessionId(firstId: string, index: number): string {
  if (index === 0) return firstId;
  const head = firstId.slice(0, 24);
  const tail = (parseInt(firstId.slice(24), 16) + index) % 2 ** 48;
  return `${head}${tail.toString(16).padStart(12, '0')}`;
}

/** The date `weeks` weeks after `date` (`YYYY-MM-DD`). */
export const weeksAfter = (date: string, weeks: number) =>
  new Date(Date.parse(`${date}T12:00:00Z`) + weeks * 7 * 86_400_000).toISOString().slice(0, 10);
