import { minutesLeft, packageFor, packageMessages } from '../../../common/packages.ts';
import type { BookingCategory } from '../../../common/bookings.ts';
import { sastDate } from '../../../common/sast.ts';
import { packagesApi } from './packages-api.ts';
import { useOnlineRead } from './use-online-read.ts';

/**
 * On the booking page, under the price (issue 37 §3): "from your package (6 of 10 hours left)" when the student
 * has a paid package that a session of this module on this date (or, before a date is chosen, today) would draw
 * from once a tutor confirms it. Nothing otherwise, and nothing offline (the balance is the server's).
 */
export function PackageQuote({
  userId,
  module,
  date,
}: {
  userId: string;
  module: { name: string; category: BookingCategory };
  date: string;
}) {
  const mine = useOnlineRead(`mine:${userId}`, (signal) => packagesApi.list(signal));
  const pkg = packageFor(mine.data ?? [], {
    student: { id: userId, name: '', email: '' },
    moduleCategory: module.category,
    moduleName: module.name,
    date: date || sastDate(new Date()),
  });
  if (!pkg) return null;
  return (
    <p className="mt-1 text-sm font-semibold text-green-900 dark:text-green-200">
      {packageMessages.fromPackage(minutesLeft(pkg), pkg.minutes)}
    </p>
  );
}
