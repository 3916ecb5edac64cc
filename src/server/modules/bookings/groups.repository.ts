import type { Selectable } from 'kysely';
import type { Db } from '../../db/create-db.ts';
import type { GroupSeat, GroupSessionRecord, GroupSessionsRepository } from './groups.storage.ts';
import type { GroupSessionsTable } from './groups.table.ts';

type GroupRow = Selectable<GroupSessionsTable>;

const toRecord = (row: GroupRow): GroupSessionRecord => ({
  id: row.id,
  moduleName: row.module_name,
  moduleCategory: row.module_category,
  date: row.date,
  start: row.start,
  hours: row.hours,
  seats: row.seats,
  priceCents: row.price_cents,
  tutor: { id: row.tutor_id, name: row.tutor_name },
  taken: JSON.parse(row.taken) as GroupSeat[],
  createdAt: row.created_at,
});

/** Group sessions on SQLite and PostgreSQL (`group_sessions`); the seats' bookings are in `bookings`. */
export function createGroupSessionsRepository(db: Db): GroupSessionsRepository {
  return {
    async find(id) {
      const row = await db.selectFrom('group_sessions').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toRecord(row);
    },

    async insert(group) {
      await db
        .insertInto('group_sessions')
        .values({
          id: group.id,
          module_name: group.moduleName,
          module_category: group.moduleCategory,
          date: group.date,
          start: group.start,
          hours: group.hours,
          seats: group.seats,
          price_cents: group.priceCents,
          tutor_id: group.tutor.id,
          tutor_name: group.tutor.name,
          taken: JSON.stringify(group.taken),
          created_at: group.createdAt,
        })
        .execute();
    },

    async setTaken(id, taken) {
      await db
        .updateTable('group_sessions')
        .set({ taken: JSON.stringify(taken) })
        .where('id', '=', id)
        .execute();
    },

    async listFrom(from) {
      const rows = await db
        .selectFrom('group_sessions')
        .selectAll()
        .where('date', '>=', from)
        .orderBy('date')
        .orderBy('start')
        .orderBy('id')
        .execute();
      return rows.map(toRecord);
    },

    async ofTutor(tutorId) {
      const rows = await db.selectFrom('group_sessions').selectAll().where('tutor_id', '=', tutorId).execute();
      return rows.map(toRecord);
    },

    async setTutor(id, tutor) {
      await db
        .updateTable('group_sessions')
        .set({ tutor_id: tutor.id, tutor_name: tutor.name })
        .where('id', '=', id)
        .execute();
    },
  };
}
