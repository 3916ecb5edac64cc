import type { Selectable } from 'kysely';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/constraint-errors.ts';
import type { Db } from '../../db/create-db.ts';
import { createAlreadyEnrolledError, createEnrolModuleNotFoundError } from './profile.errors.ts';
import type { ProfileRepository, StoredEnrolment } from './profile.storage.ts';
import type { EnrolmentsTable } from './profile.table.ts';

function toEnrolment(row: Selectable<EnrolmentsTable>): StoredEnrolment {
  return {
    id: row.id,
    userId: row.user_id,
    moduleId: row.module_id,
    moduleName: row.module_name,
    createdAt: row.created_at,
  };
}

/** The profile on SQLite and PostgreSQL (`enrolments`). */
function toRow(enrolment: StoredEnrolment) {
  return {
    id: enrolment.id,
    user_id: enrolment.userId,
    module_id: enrolment.moduleId,
    module_name: enrolment.moduleName,
    created_at: enrolment.createdAt,
  };
}

export function createProfileRepository(db: Db): ProfileRepository {
  return {
    async enrolmentsOf(userId) {
      const rows = await db
        .selectFrom('enrolments')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toEnrolment);
    },

    async insertEnrolment(enrolment) {
      try {
        await db.insertInto('enrolments').values(toRow(enrolment)).execute();
      } catch (error) {
        // The unique (user, module) pair catches a double click; the foreign key a module deleted meanwhile.
        if (isUniqueViolation(error)) throw createAlreadyEnrolledError();
        if (isForeignKeyViolation(error)) throw createEnrolModuleNotFoundError();
        throw error;
      }
    },

    async insertImportedEnrolment(enrolment) {
      await db.insertInto('enrolments').values(toRow(enrolment)).execute();
    },

    async findEnrolment(id) {
      const row = await db.selectFrom('enrolments').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toEnrolment(row);
    },

    async deleteEnrolment(id, userId) {
      await db.deleteFrom('enrolments').where('id', '=', id).where('user_id', '=', userId).execute();
    },

    async deleteEnrolmentsOf(userId) {
      await db.deleteFrom('enrolments').where('user_id', '=', userId).execute();
    },
  };
}
