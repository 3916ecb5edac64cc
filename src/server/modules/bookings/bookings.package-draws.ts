import type { PackageDraw } from '../../../common/package-draw.ts';
import { countedMinutes, coverableMinutes, drawFrom, minutesLeft, packageFor } from '../../../common/packages.ts';
import type { Uses } from '../../deps.ts';
import type { BookingRecord } from './bookings.storage.ts';
import type { PackageRecord } from './packages.storage.ts';

/**
 * A session's hours drawn from a monthly package (issue 37 §3, docs/decisions/0054), in the bookings' change
 * transaction of whatever changed the session. The draw follows the session's status: a session confirmed (or
 * completed) holds the hours it drew; a late cancellation holds the package's share of them; a request again, or a
 * cancellation in good time, gives them back. A session with no draw that becomes confirmed draws from the
 * student's paid package that covers it. Two steps, as every change is written: `packagesFor` with the change's
 * reads (before `takeStamps`), then `settleDraws` with its writes. On SQL the bookings' lock orders every such
 * transaction; on Firestore the packages read conflict with any other transaction's write of them, so of two
 * sessions taking the last hour one runs again and finds it gone.
 */

/** The packages the changes of `rows` may draw on or give back to: their students'. Read before `takeStamps`. */
export async function packagesFor(
  tx: Uses<'packages'>,
  rows: readonly Pick<BookingRecord, 'student' | 'group' | 'package'>[],
): Promise<PackageRecord[]> {
  const found = new Map<string, PackageRecord>();
  const students = new Set<string>();
  const byId = new Set<string>();
  for (const row of rows) {
    // A group's seat is priced by its group, never from a package.
    if (row.group && !row.package) continue;
    if (row.student.id) students.add(row.student.id);
    else if (row.package) byId.add(row.package.id);
  }
  for (const student of students) for (const pkg of await tx.repos.packages.ofStudent(student)) found.set(pkg.id, pkg);
  for (const id of byId) {
    const pkg = found.has(id) ? undefined : await tx.repos.packages.find(id);
    if (pkg) found.set(id, pkg);
  }
  return [...found.values()];
}

/** What a change does to a session's draw: the draw it has after (null: none), if that is not what it had. */
export type DrawChange = { package: PackageDraw | null } | undefined;

/**
 * The draws of `after` (each booking as its change leaves it, with the draw it had), in order, against
 * `packages` (read by `packagesFor`, changed here as the draws go): what each booking's draw becomes, and the
 * packages whose hours moved. Pure.
 */
export function redraw(
  after: readonly Pick<
    BookingRecord,
    | 'id'
    | 'status'
    | 'lateCancellation'
    | 'student'
    | 'moduleCategory'
    | 'moduleName'
    | 'date'
    | 'hours'
    | 'group'
    | 'package'
  >[],
  packages: readonly PackageRecord[],
): { changes: Map<string, DrawChange>; moved: PackageRecord[] } {
  const working = new Map(packages.map((pkg) => [pkg.id, { ...pkg }]));
  const moved = new Set<string>();
  const changes = new Map<string, DrawChange>();
  for (const booking of after) {
    const before = booking.package ?? null;
    if (before) {
      const pkg = working.get(before.id);
      // The package is gone (it cannot be, but a draw is never lost for it): the draw stays as it was.
      if (!pkg) continue;
      const counted = countedMinutes(booking, before.coveredMinutes, pkg.lateCancel);
      if (counted === before.countedMinutes) continue;
      pkg.usedMinutes += counted - before.countedMinutes;
      moved.add(pkg.id);
      const lateCancelled = booking.status === 'Cancelled' && booking.lateCancellation;
      changes.set(booking.id, {
        package: counted > 0 || lateCancelled ? { ...before, countedMinutes: counted } : null,
      });
      continue;
    }
    if (booking.group || (booking.status !== 'Confirmed' && booking.status !== 'Completed')) continue;
    const pkg = packageFor([...working.values()], booking);
    if (!pkg) continue;
    const left = minutesLeft(pkg);
    const minutes = coverableMinutes(booking.hours, left);
    pkg.usedMinutes += minutes;
    moved.add(pkg.id);
    changes.set(booking.id, { package: drawFrom(pkg, minutes, left) });
  }
  return { changes, moved: [...moved].map((id) => working.get(id)!) };
}

/** Writes the packages' hours as `redraw` left them: after the change's reads, with its writes. */
export async function settleDraws(tx: Uses<'packages'>, moved: readonly PackageRecord[]): Promise<void> {
  for (const pkg of moved) await tx.repos.packages.update(pkg.id, { usedMinutes: pkg.usedMinutes });
}
