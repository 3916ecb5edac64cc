import type { Enrolment } from '../../../common/profile.ts';
import { useLocalData, type LocalData } from '../../offline/hooks.ts';
import { enrolmentsSource, enrolmentsTable } from './profile.sync.ts';
import { byCodeUnits } from '../../../common/locale.ts';

/** The signed-in user's enrolments from IndexedDB, oldest first, refreshed when the page opens. */
export function useEnrolments(): LocalData<Enrolment[]> {
  return useLocalData(
    async () => (await enrolmentsTable.toArray()).sort((a, b) => byCodeUnits(a.enrolledAt, b.enrolledAt)),
    [],
    [enrolmentsSource],
  );
}
