import { z } from './zod.ts';

/**
 * What a session took from a monthly package (issue 37 §3, docs/decisions/0054), as the booking carries it: apart
 * from common/packages.ts so that bookings.ts can name it without the packages' schemas.
 */
export const packageDrawSchema = z.object({
  /** The package's id and name ("10 hours of Mathematics"). */
  id: z.string(),
  name: z.string(),
  /** Minutes of the session the package pays for: all of it, or the whole hours it still had. */
  coveredMinutes: z.number().int(),
  /** Minutes the package gives for it now: the covered ones, or a late cancellation's share of them. */
  countedMinutes: z.number().int(),
  /** Minutes the package had left once this session drew from it: under an hour, it was the last one paid. */
  leftMinutes: z.number().int(),
});
export type PackageDraw = z.infer<typeof packageDrawSchema>;

/** "6", "5.5": hours as the package's balance says them. */
export const hoursOf = (minutes: number) => {
  const hours = Math.round((minutes / 60) * 10) / 10;
  return Number.isInteger(hours) ? String(hours) : hours.toFixed(1);
};

/** Whether the session was the last one the package paid for (the tutor is told). */
export const isLastFromPackage = (draw: PackageDraw) => draw.coveredMinutes > 0 && draw.leftMinutes < 60;
