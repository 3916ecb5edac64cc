/** Which days a confirm's clash check reads (issue 36); the rule itself is `clashWith` (common/availability.ts). */

const dayMs = 24 * 60 * 60 * 1000;

/**
 * The dates whose sessions may clash with a session on `date`: that day and the days either side. A session
 * lasts at most a day (bookingLimits.hoursMax, with the buffer at most availabilityLimits.bufferMaxMinutes on
 * each side), so one on any other day cannot reach it.
 */
export function datesAround(date: string): string[] {
  const noon = Date.parse(`${date}T12:00:00Z`);
  return [-1, 0, 1].map((days) => new Date(noon + days * dayMs).toISOString().slice(0, 10));
}
