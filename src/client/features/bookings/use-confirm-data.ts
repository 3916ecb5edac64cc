import { categories as allCategories, type Category } from '../../../common/roles.ts';
import { useLocalData } from '../../offline/hooks.ts';
import { bookingsSource, bookingsTable } from './bookings.sync.ts';
import { categoryTimesSources, categoryTimesTable, type CategoryTimesRow } from './free-times.sync.ts';
import { tutorSessions, type ListedSession, type TutorSession } from './staff-confirm-checks.ts';

/** What the staff cards check a time against before confirming it, all read from the device. */
export interface ConfirmData {
  /** The sessions of every tutor, from the bookings the device holds. */
  sessions: TutorSession[];
  /** The category's tutors, with their hours and buffer; none until its times have reached the device. */
  tutorsOf: (category: string) => CategoryTimesRow['tutors'];
  /** Whether the categories' times have been read from the device (or found missing there and on the server). */
  tutorsRead: boolean;
  /** The confirmed sessions of the category's tutors over the next weeks, as its times list them. */
  listedOf: (category: string) => ListedSession[];
}

const isCategory = (category: string): category is Category => (allCategories as readonly string[]).includes(category);

/**
 * The confirmed sessions and the tutors of the categories the staff member confirms in: a tutor's own, or every
 * category for the admin. Each category's times are read here (on demand), kept for offline use.
 */
export function useConfirmData(role: 'tutor' | 'admin', categories: readonly string[]): ConfirmData {
  const shown = role === 'admin' ? [...allCategories] : categories.filter(isCategory);
  const key = shown.join('\n');
  const rows = useLocalData(
    async () => (key ? await categoryTimesTable.bulkGet(key.split('\n')) : []),
    [key],
    shown.map((category) => categoryTimesSources[category]),
  );
  const sessions = useLocalData(async () => tutorSessions(await bookingsTable.toArray()), [], [bookingsSource]);
  const byCategory = new Map((rows.data ?? []).flatMap((row) => (row ? [[row.category as string, row] as const] : [])));
  return {
    sessions: sessions.data ?? [],
    tutorsOf: (category) => byCategory.get(category)?.tutors ?? [],
    tutorsRead: rows.status !== 'loading',
    listedOf: (category) => byCategory.get(category)?.busy ?? [],
  };
}
