import { bookingCategories, type Booking } from './bookings.ts';
import { formatRand } from './money.ts';
import { hoursOf, type PackageDraw } from './package-draw.ts';
import { noPayments, paymentKinds, paymentTotalsSchema } from './payment-kinds.ts';
import { paymentStanding, type PaymentStanding } from './payments.ts';
import { categories } from './roles.ts';
import { z } from './zod.ts';

export { hoursOf, isLastFromPackage, type PackageDraw } from './package-draw.ts';

/**
 * Monthly packages (issue 37 §3, docs/decisions/0054): the home page's "a once-off monthly payment is cheaper".
 * The admin offers packages (hours of a category, or of one module, in a month, at a price); a student buys one
 * for a month and pays it under its own reference; once it is paid, each session of theirs confirmed in its
 * category and month draws its hours from it, inside the confirmation's transaction. Pure here, so the server and
 * the devices say the same.
 */

export const packageLimits = {
  hoursMin: 1,
  hoursMax: 60,
  /** R20,000: a typo's extra zeros are refused. */
  priceCentsMax: 20_000_00,
  nameMax: 80,
  /** Packages a student may have waiting for their money at once. */
  waitingMax: 3,
} as const;

/** What a late cancellation's hours count against the package: all of them, half, or none. */
export const lateCancelCounts = ['all', 'half', 'none'] as const;
export type LateCancelCount = (typeof lateCancelCounts)[number];
const countedShare: Record<LateCancelCount, number> = { all: 1, half: 0.5, none: 0 };

export const lateCancelCountLabels: Record<LateCancelCount, string> = {
  all: 'Count all its hours',
  half: 'Count half its hours',
  none: 'Give its hours back',
};

export const packageMessages = {
  nameInvalid: `Give the package a name of up to ${packageLimits.nameMax} characters, such as “10 hours of Mathematics”.`,
  hoursInvalid: `Hours must be a whole number from ${packageLimits.hoursMin} to ${packageLimits.hoursMax}.`,
  priceInvalid: `The price must be an amount above R0 and up to ${formatRand(packageLimits.priceCentsMax)}.`,
  moduleNotOfCategory: 'Choose a module of the package’s category, or none for the whole category.',
  offerNotFound: 'This package is no longer offered.',
  notFound: 'This package does not exist.',
  monthInvalid: 'Choose this month or next month.',
  offerSaved: 'Package saved.',
  bought: 'Package reserved. Pay it by EFT under its reference; your sessions draw from it once it is paid.',
  buyConfirm: (name: string, priceCents: number, month: string) =>
    `Buy “${name}” for ${formatMonth(month)} at ${formatRand(priceCents)}? You pay it by EFT under its own reference.`,
  offline: 'Buying a package needs a connection.',
  tooManyWaiting: `You have ${packageLimits.waitingMax} packages waiting for payment. Pay one, or ask us to cancel it, before buying another.`,
  loadFailed: 'Could not load the packages.',
  none: 'No monthly packages are offered yet.',
  noneBought: 'You have no packages yet. A monthly package is cheaper than single sessions: see Courses.',
  fromPackage: (left: number, total: number) => `from your package (${hoursOf(left)} of ${hoursOf(total)} hours left)`,
} as const;

/** A package the admin offers. */
export const packageOfferSchema = z.object({
  id: z.string(),
  name: z.string(),
  category: z.enum(categories),
  /** One module of the category, or null for every module of it. */
  moduleName: z.string().nullable(),
  hours: z.number().int(),
  priceCents: z.number().int(),
  /** Unused hours carry over to the next month; else they lapse at the month's end. */
  carryOver: z.boolean(),
  lateCancel: z.enum(lateCancelCounts),
  /** Still offered: a package no longer offered stays with whoever bought it. */
  active: z.boolean(),
  updatedAt: z.string(),
});
export type PackageOffer = z.infer<typeof packageOfferSchema>;

/** `POST /api/packages/offers` (the admin): a new offer, or a change to one (the id is the admin device's). */
export const packageOfferInputSchema = z.strictObject({
  id: z.uuid(),
  name: z
    .string(packageMessages.nameInvalid)
    .trim()
    .min(1, packageMessages.nameInvalid)
    .max(packageLimits.nameMax, packageMessages.nameInvalid),
  category: z.enum(categories),
  moduleName: z.string().trim().max(200).nullable().default(null),
  hours: z
    .number(packageMessages.hoursInvalid)
    .int(packageMessages.hoursInvalid)
    .min(packageLimits.hoursMin, packageMessages.hoursInvalid)
    .max(packageLimits.hoursMax, packageMessages.hoursInvalid),
  priceCents: z
    .number(packageMessages.priceInvalid)
    .int(packageMessages.priceInvalid)
    .min(1, packageMessages.priceInvalid)
    .max(packageLimits.priceCentsMax, packageMessages.priceInvalid),
  carryOver: z.boolean().default(false),
  lateCancel: z.enum(lateCancelCounts).default('all'),
  active: z.boolean().default(true),
});
export type PackageOfferInput = z.output<typeof packageOfferInputSchema>;

/** A package a student bought, as the API sends it to them and to the admin. */
export const packageSchema = z.object({
  id: z.string(),
  offerId: z.string(),
  name: z.string(),
  category: z.enum(bookingCategories),
  moduleName: z.string().nullable(),
  /** What it holds, in minutes, and what sessions have taken. */
  minutes: z.number().int(),
  usedMinutes: z.number().int(),
  priceCents: z.number().int(),
  carryOver: z.boolean(),
  lateCancel: z.enum(lateCancelCounts),
  student: z.object({ id: z.string().nullable(), name: z.string(), email: z.string() }),
  /** `YYYY-MM`: the month it is for; sessions dated up to `validUntil` (`YYYY-MM-DD`) draw from it. */
  month: z.string(),
  validUntil: z.string(),
  paymentReference: z.string(),
  payments: paymentTotalsSchema,
  /**
   * Each payment, refund and waiver recorded for it, oldest first: a payment's receipt is one press away on the
   * student's card (`packageReceiptPath`). Read from the payments' own records (docs/decisions/0055).
   */
  recordedPayments: z.array(
    z.object({ id: z.string(), kind: z.enum(paymentKinds), amountCents: z.number().int(), paidOn: z.string() }),
  ),
  createdAt: z.string(),
});
export type Package = z.infer<typeof packageSchema>;
/** A package as stored: the money's records are the payments' own (payments.storage.ts), read beside it. */
export type PackageRecord = Omit<Package, 'recordedPayments'>;
export type RecordedPackagePayment = Package['recordedPayments'][number];

export const packageOfferListSchema = z.object({ offers: z.array(packageOfferSchema) });
export const packageListSchema = z.object({ packages: z.array(packageSchema) });

/** `POST /api/packages` (a student): buys `offerId` for `month`, once per id (the device's). */
export const buyPackageInputSchema = z.strictObject({
  id: z.uuid(),
  offerId: z.string().min(1).max(100),
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, packageMessages.monthInvalid),
});
export type BuyPackageInput = z.output<typeof buyPackageInputSchema>;

/** The package's reference: a booking's kind of code, marked `-P` so that nobody mixes the two up. */
export const packageReference = (code: string) => `TB-${code}-P`;

/** "December 2026". */
export function formatMonth(month: string): string {
  const [year, mm] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, mm - 1, 1)).toLocaleDateString('en-ZA', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** The month after `month` (`YYYY-MM`). */
export function nextMonth(month: string): string {
  const [year, mm] = month.split('-').map(Number) as [number, number];
  return mm === 12 ? `${year + 1}-01` : `${year}-${String(mm + 1).padStart(2, '0')}`;
}

/** The last day of `month`, `YYYY-MM-DD`. */
export function lastDayOf(month: string): string {
  const [year, mm] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(year, mm, 0)).getUTCDate()).padStart(2, '0')}`;
}

/** Until when a package for `month` pays for sessions: its month's end, or the next month's when hours carry over. */
export const validUntilOf = (month: string, carryOver: boolean) => lastDayOf(carryOver ? nextMonth(month) : month);

/** The months a student may buy a package for on `today` (`YYYY-MM-DD`, SAST): this one and the next. */
export const buyableMonths = (today: string) => [today.slice(0, 7), nextMonth(today.slice(0, 7))];

/** Where a package's money stands: its price against what was recorded. */
export const packageStanding = (pkg: Pick<Package, 'priceCents' | 'payments'>): PaymentStanding =>
  paymentStanding(pkg.priceCents, pkg.payments ?? noPayments);

/** Whether a package is paid (or its price let go), so that sessions may draw from it. */
export const isPackagePaid = (pkg: Pick<Package, 'priceCents' | 'payments'>) => {
  const standing = packageStanding(pkg);
  return standing.owingCents === 0 && (standing.state === 'paid' || standing.state === 'waived');
};

export const minutesLeft = (pkg: Pick<Package, 'minutes' | 'usedMinutes'>) =>
  Math.max(0, pkg.minutes - pkg.usedMinutes);

/** Whether `pkg` pays for sessions like `booking`: the student's, its category (and module), dated in its months. */
export function packageCovers(
  pkg: Pick<Package, 'student' | 'category' | 'moduleName' | 'month' | 'validUntil'>,
  booking: Pick<Booking, 'student' | 'moduleCategory' | 'moduleName' | 'date'>,
): boolean {
  return (
    pkg.student.id !== null &&
    pkg.student.id === booking.student.id &&
    pkg.category === booking.moduleCategory &&
    (pkg.moduleName === null || pkg.moduleName === booking.moduleName) &&
    booking.date >= `${pkg.month}-01` &&
    booking.date <= pkg.validUntil
  );
}

/**
 * The package a session draws from, of `packages`: paid, covering it, with at least an hour left; the one that
 * ends first (its hours would lapse first), a module's before a category's, then the oldest. Undefined if none.
 */
export function packageFor<P extends PackageRecord>(
  packages: readonly P[],
  booking: Pick<Booking, 'student' | 'moduleCategory' | 'moduleName' | 'date'>,
): P | undefined {
  return packages
    .filter((pkg) => packageCovers(pkg, booking) && isPackagePaid(pkg) && minutesLeft(pkg) >= 60)
    .sort(
      (a, b) =>
        a.validUntil.localeCompare(b.validUntil) ||
        Number(a.moduleName === null) - Number(b.moduleName === null) ||
        a.createdAt.localeCompare(b.createdAt) ||
        a.id.localeCompare(b.id),
    )[0];
}

/** The minutes of a session of `hours` a package with `left` minutes pays for: whole hours, as many as it has. */
export const coverableMinutes = (hours: number, left: number) => Math.min(hours, Math.floor(left / 60)) * 60;

/**
 * Whether a booking in this state holds its package's hours: a confirmed or completed session all it drew, a late
 * cancellation the package's share of them, anything else none.
 */
export function countedMinutes(
  booking: Pick<Booking, 'status' | 'lateCancellation'>,
  coveredMinutes: number,
  lateCancel: LateCancelCount,
): number {
  if (booking.status === 'Confirmed' || booking.status === 'Completed') return coveredMinutes;
  if (booking.status === 'Cancelled' && booking.lateCancellation)
    return Math.round(coveredMinutes * countedShare[lateCancel]);
  return 0;
}

/** A new draw of `minutes` from `pkg`, which has `left` minutes before it. */
export const drawFrom = (pkg: Pick<Package, 'id' | 'name'>, minutes: number, left: number): PackageDraw => ({
  id: pkg.id,
  name: pkg.name,
  coveredMinutes: minutes,
  countedMinutes: minutes,
  leftMinutes: left - minutes,
});
