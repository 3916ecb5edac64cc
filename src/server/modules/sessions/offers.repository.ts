import type { Selectable } from 'kysely';
import type { SessionOffer } from '../../../common/session-notes.ts';
import type { Db } from '../../db/create-db.ts';
import type { SessionOffersRepository } from './offers.storage.ts';
import type { SessionOffersTable } from './offers.table.ts';

const toOffer = (row: Selectable<SessionOffersTable>): SessionOffer => ({
  questionId: row.question_id,
  tutor: { id: row.tutor_id, name: row.tutor_name },
  createdAt: row.created_at,
});

/** The offers on SQL: `session_offers`, keyed by question and tutor (migration 0030). */
export function createSessionOffersRepository(db: Db): SessionOffersRepository {
  const ordered = (where: 'question_id' | 'tutor_id', id: string) =>
    db
      .selectFrom('session_offers')
      .selectAll()
      .where(where, '=', id)
      .orderBy('created_at')
      .orderBy('tutor_id')
      .orderBy('question_id')
      .execute();
  return {
    async insertOnce(offer) {
      const result = await db
        .insertInto('session_offers')
        .values({
          question_id: offer.questionId,
          tutor_id: offer.tutor.id,
          tutor_name: offer.tutor.name,
          created_at: offer.createdAt,
        })
        .onConflict((oc) => oc.columns(['question_id', 'tutor_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    listFor: async (questionId) => (await ordered('question_id', questionId)).map(toOffer),
    listBy: async (tutorId) => (await ordered('tutor_id', tutorId)).map(toOffer),
    async renameTutor(tutorId, name) {
      await db.updateTable('session_offers').set({ tutor_name: name }).where('tutor_id', '=', tutorId).execute();
    },
    async deleteBy(tutorId) {
      await db.deleteFrom('session_offers').where('tutor_id', '=', tutorId).execute();
    },
  };
}
