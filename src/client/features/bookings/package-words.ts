import { formatRand } from '../../../common/money.ts';
import {
  formatMonth,
  hoursOf,
  isPackagePaid,
  lateCancelCountLabels,
  minutesLeft,
  packageStanding,
  type Package,
  type PackageOffer,
} from '../../../common/packages.ts';
import { formatSastDate } from '../../../common/sast.ts';

/** "R80/hour": what an hour of the package comes to. */
export const perHour = (offer: Pick<PackageOffer, 'priceCents' | 'hours'>) =>
  `${formatRand(Math.round(offer.priceCents / offer.hours))}/hour`;

/** What the package is for: "Any Mathematics module", or one module's name. */
export const scopeOf = (offer: { category: string; moduleName: string | null }) =>
  offer.moduleName ?? `Any ${offer.category} module`;

/** The package's rules, in a line. */
export const rulesOf = (offer: Pick<PackageOffer, 'carryOver' | 'lateCancel'>) =>
  `${offer.carryOver ? 'Unused hours carry over to the next month.' : 'Unused hours lapse at the end of the month.'} A late cancellation: ${lateCancelCountLabels[offer.lateCancel].toLowerCase()}.`;

export type PackageState = 'awaiting-payment' | 'active' | 'used-up' | 'ended';

/** Where a bought package stands on `today` (`YYYY-MM-DD`, SAST). */
export function packageState(pkg: Package, today: string): PackageState {
  if (!isPackagePaid(pkg)) return today > pkg.validUntil ? 'ended' : 'awaiting-payment';
  if (today > pkg.validUntil) return 'ended';
  return minutesLeft(pkg) < 60 ? 'used-up' : 'active';
}

/** The package's state in words, with its balance or what to pay. */
export function packageSummary(pkg: Package, today: string): string {
  const state = packageState(pkg, today);
  const balance = `${hoursOf(minutesLeft(pkg))} of ${hoursOf(pkg.minutes)} hours left`;
  switch (state) {
    case 'awaiting-payment':
      return `Awaiting payment: ${formatRand(packageStanding(pkg).owingCents)} by EFT with the reference ${pkg.paymentReference}. Sessions draw from it once it is paid.`;
    case 'active':
      return `Paid. ${balance}, until ${formatSastDate(pkg.validUntil)}.`;
    case 'used-up':
      return `Paid. Every hour is used (${balance}).`;
    case 'ended':
      return `Ended on ${formatSastDate(pkg.validUntil)}${isPackagePaid(pkg) ? ` with ${balance}` : ' unpaid'}.`;
  }
}

export const packageTitle = (pkg: Pick<Package, 'name' | 'month'>) => `${pkg.name}, ${formatMonth(pkg.month)}`;
