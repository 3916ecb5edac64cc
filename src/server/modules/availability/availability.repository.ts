import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/create-db.ts';
import type { AvailabilityRepository, TutorAvailabilityRecord } from './availability.storage.ts';
import type { TutorAvailabilityTable } from './availability.table.ts';

type AvailabilityRow = Selectable<TutorAvailabilityTable>;

const toRecord = (row: AvailabilityRow): TutorAvailabilityRecord => ({
  tutorId: row.tutor_id,
  availability: {
    weekly: JSON.parse(row.weekly) as TutorAvailabilityRecord['availability']['weekly'],
    daysOff: JSON.parse(row.days_off) as string[],
    bufferMinutes: row.buffer_minutes,
  },
  updatedAt: row.updated_at,
});

/** The tutors' availability on SQLite and PostgreSQL (`tutor_availability`, one row per tutor). */
export function createAvailabilityRepository(db: Db): AvailabilityRepository {
  return {
    async find(tutorId) {
      const row = await db
        .selectFrom('tutor_availability')
        .selectAll()
        .where('tutor_id', '=', tutorId)
        .executeTakeFirst();
      return row && toRecord(row);
    },

    async findMany(tutorIds) {
      const ids = [...new Set(tutorIds)];
      if (ids.length === 0) return [];
      const rows = await db.selectFrom('tutor_availability').selectAll().where('tutor_id', 'in', ids).execute();
      const byId = new Map(rows.map((row) => [row.tutor_id, toRecord(row)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    async save({ tutorId, availability, updatedAt }) {
      const row: Insertable<TutorAvailabilityTable> = {
        tutor_id: tutorId,
        weekly: JSON.stringify(availability.weekly),
        days_off: JSON.stringify(availability.daysOff),
        buffer_minutes: availability.bufferMinutes,
        updated_at: updatedAt,
      };
      await db
        .insertInto('tutor_availability')
        .values(row)
        .onConflict((oc) =>
          oc.column('tutor_id').doUpdateSet({
            weekly: row.weekly,
            days_off: row.days_off,
            buffer_minutes: row.buffer_minutes,
            updated_at: row.updated_at,
          }),
        )
        .execute();
    },

    async delete(tutorId) {
      await db.deleteFrom('tutor_availability').where('tutor_id', '=', tutorId).execute();
    },
  };
}
