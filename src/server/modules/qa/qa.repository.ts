import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Db } from '../../db/create-db.ts';
import { readVersion as readCollectionVersion, takeVersions as takeCollectionVersions } from '../../db/versions.ts';

/** Reserves `count` versions of the board and locks it for this transaction (db/versions.ts says why). */
export const takeVersions = (db: Db, count: number) => takeCollectionVersions(db, 'questions', count);

/** The board's committed version: every change at or below it has committed. */
export const readVersion = (db: Db) => readCollectionVersion(db, 'questions');

// ---------------------------------------------------------------------------------------------------------
// Rows as the usecases check them

export function findQuestion(db: Db, id: string) {
  return db
    .selectFrom('questions')
    .select(['id', 'user_id', 'title', 'text', 'accepted_answer_id', 'deleted_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findAnswer(db: Db, id: string) {
  return db
    .selectFrom('answers')
    .select(['id', 'question_id', 'user_id', 'text'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The user's questions and answers posted after `since` (an ISO time). */
export async function countPostsSince(db: Db, userId: string, since: string): Promise<number> {
  const count = (table: 'questions' | 'answers') =>
    db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
  const [questions, answers] = await Promise.all([count('questions'), count('answers')]);
  return Number(questions.n) + Number(answers.n);
}

// ---------------------------------------------------------------------------------------------------------
// Writes

export async function insertQuestion(
  db: Db,
  row: {
    id: string;
    user_id: string;
    title: string;
    text: string;
    search: string;
    created_at: string;
    version: number;
  },
) {
  await db.insertInto('questions').values(row).execute();
}

export async function insertAnswer(
  db: Db,
  row: { id: string; question_id: string; user_id: string; text: string; created_at: string },
) {
  await db.insertInto('answers').values(row).execute();
}

export async function setVersion(db: Db, questionId: string, version: number) {
  await db.updateTable('questions').set({ version }).where('id', '=', questionId).execute();
}

/** Sets (1, -1) or withdraws (0) the user's vote. */
export async function setVote(db: Db, questionId: string, userId: string, value: 1 | -1 | 0) {
  if (value === 0) {
    await db.deleteFrom('question_votes').where('question_id', '=', questionId).where('user_id', '=', userId).execute();
    return;
  }
  await db
    .insertInto('question_votes')
    .values({ question_id: questionId, user_id: userId, value })
    .onConflict((oc) => oc.columns(['question_id', 'user_id']).doUpdateSet({ value }))
    .execute();
}

/**
 * Counts the stored votes again, so the counters always equal them, plus the counts a question brought from the
 * old site (whose voters are unknown, migration 0008).
 */
const recount = (eb: ExpressionBuilder<Database, 'questions'>) => ({
  upvotes: sql<number>`${eb.ref('questions.imported_upvotes')} + (select count(*) from question_votes v where v.question_id = ${eb.ref('questions.id')} and v.value = 1)`,
  downvotes: sql<number>`${eb.ref('questions.imported_downvotes')} + (select count(*) from question_votes v where v.question_id = ${eb.ref('questions.id')} and v.value = -1)`,
});

export async function recountVotes(db: Db, questionIds: readonly string[]) {
  if (questionIds.length === 0) return;
  await db.updateTable('questions').set(recount).where('id', 'in', questionIds).execute();
}

export async function setAcceptedAnswer(db: Db, questionId: string, answerId: string | null) {
  await db.updateTable('questions').set({ accepted_answer_id: answerId }).where('id', '=', questionId).execute();
}

export async function markQuestionDeleted(db: Db, questionId: string, at: string) {
  await db.updateTable('questions').set({ deleted_at: at }).where('id', '=', questionId).execute();
}

/** Deletes the answer, and un-accepts it if it was the accepted one. */
export async function deleteAnswer(db: Db, questionId: string, answerId: string) {
  await db.deleteFrom('answers').where('id', '=', answerId).execute();
  await db
    .updateTable('questions')
    .set({ accepted_answer_id: null })
    .where('id', '=', questionId)
    .where('accepted_answer_id', '=', answerId)
    .execute();
}

// ---------------------------------------------------------------------------------------------------------
// Reads for the API: questions with their authors, then their answers and the caller's votes

function selectQuestions(db: Db) {
  return db
    .selectFrom('questions')
    .leftJoin('users', 'users.id', 'questions.user_id')
    .select([
      'questions.id',
      'questions.user_id',
      'questions.title',
      'questions.text',
      'questions.created_at',
      'questions.upvotes',
      'questions.downvotes',
      'questions.accepted_answer_id',
      'questions.version',
      'questions.deleted_at',
      'users.name as author_name',
      'users.role as author_role',
    ]);
}
export type QuestionRow = Awaited<ReturnType<ReturnType<typeof selectQuestions>['execute']>>[number];

/** `%`, `_` and the escape character itself match only themselves. */
const likeContaining = (needle: string) => `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A page of the board, newest first, after the (created_at, id) of the last row of the previous page.
 * `search` is already lower-cased (the stored `search` column is too).
 */
export function listQuestions(
  db: Db,
  options: { search?: string; after?: { createdAt: string; id: string }; limit: number },
) {
  let query = selectQuestions(db).where('questions.deleted_at', 'is', null);
  if (options.search) {
    query = query.where(sql<boolean>`questions.search like ${likeContaining(options.search)} escape '\\'`);
  }
  const after = options.after;
  if (after) {
    query = query.where((eb) =>
      eb(eb.refTuple('questions.created_at', 'questions.id'), '<', eb.tuple(after.createdAt, after.id)),
    );
  }
  return query.orderBy('questions.created_at', 'desc').orderBy('questions.id', 'desc').limit(options.limit).execute();
}

/** Questions changed after `version` (deleted ones too), in the order they changed. */
export function listChangedQuestions(db: Db, version: number, limit: number) {
  return selectQuestions(db)
    .where('questions.version', '>', version)
    .orderBy('questions.version')
    .limit(limit)
    .execute();
}

export function findQuestionWithAuthor(db: Db, id: string) {
  return selectQuestions(db).where('questions.id', '=', id).executeTakeFirst();
}

function selectAnswers(db: Db) {
  return db
    .selectFrom('answers')
    .leftJoin('users', 'users.id', 'answers.user_id')
    .select([
      'answers.id',
      'answers.question_id',
      'answers.user_id',
      'answers.text',
      'answers.created_at',
      'users.name as author_name',
      'users.role as author_role',
    ]);
}

/** The answers to these questions, oldest first. */
export function listAnswers(db: Db, questionIds: readonly string[]) {
  return selectAnswers(db)
    .where('answers.question_id', 'in', questionIds)
    .orderBy('answers.created_at')
    .orderBy('answers.id')
    .execute();
}

export function findAnswerWithAuthor(db: Db, id: string) {
  return selectAnswers(db).where('answers.id', '=', id).executeTakeFirst();
}
export type AnswerRow = Awaited<ReturnType<typeof listAnswers>>[number];

export function listVotesOf(db: Db, userId: string, questionIds: readonly string[]) {
  return db
    .selectFrom('question_votes')
    .select(['question_id', 'value'])
    .where('user_id', '=', userId)
    .where('question_id', 'in', questionIds)
    .execute();
}

// ---------------------------------------------------------------------------------------------------------
// One user's data: the export and account deletion

export function listQuestionsBy(db: Db, userId: string) {
  return db
    .selectFrom('questions')
    .select(['id', 'title', 'text', 'created_at', 'upvotes', 'downvotes', 'accepted_answer_id', 'deleted_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function listAnswersBy(db: Db, userId: string) {
  return db
    .selectFrom('answers')
    .select(['id', 'question_id', 'text', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function listVotesBy(db: Db, userId: string) {
  return db
    .selectFrom('question_votes')
    .select(['question_id', 'value'])
    .where('user_id', '=', userId)
    .orderBy('question_id')
    .execute();
}

/** Deletes the user's votes and returns the questions they were on. */
export async function deleteVotesBy(db: Db, userId: string): Promise<string[]> {
  const rows = await db.deleteFrom('question_votes').where('user_id', '=', userId).returning('question_id').execute();
  return rows.map((r) => r.question_id);
}

/** Questions the user asked or answered. */
export async function listQuestionIdsPostedOn(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('questions')
    .select('id')
    .where('user_id', '=', userId)
    .union(db.selectFrom('answers').select('question_id as id').where('user_id', '=', userId))
    .execute();
  return rows.map((r) => r.id);
}
