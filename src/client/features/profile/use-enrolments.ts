import type { Enrolment } from '../../../common/profile.ts';
import { useLocalData, type LocalData } from '../../offline/hooks.ts';
import { enrolmentsSource, enrolmentsTable } from './profile.sync.ts';

/** The signed-in user's enrolments from IndexedDB, oldest first, refreshed when the page opens. */
export function useEnrolments(): LocalData<Enrolment[]> {
  return useLocalData(
    async () => (await enrolmentsTable.toArray()).sort((a, b) => a.enrolledAt.localeCompare(b.enrolledAt)),
    [],
    [enrolmentsSource],
  );
}
