import { sql, type ExpressionBuilder } from 'kysely';
import type { Role } from '../../../common/roles.ts';
import type { Database } from '../../db/database.ts';
import type { Db, DbKind } from '../../db/create-db.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import { versionsOn, type Versions } from '../../db/versions.ts';
import type { BoardAnswer, BoardPosition, BoardQuestion, PostAuthor, QaRepository, StoredHtml } from './qa.storage.ts';
import { boundLimit } from '../../db/bound-limit.ts';

/**
 * Counts the stored votes again, so the counters always equal them, plus the counts a question brought from the
 * old site (whose voters are unknown, migration 0008).
 */
const recount = (eb: ExpressionBuilder<Database, 'questions'>) => ({
  upvotes: sql<number>`${eb.ref('questions.imported_upvotes')} + (select count(*) from question_votes v where v.question_id = ${eb.ref('questions.id')} and v.value = 1)`,
  downvotes: sql<number>`${eb.ref('questions.imported_downvotes')} + (select count(*) from question_votes v where v.question_id = ${eb.ref('questions.id')} and v.value = -1)`,
});

async function recountVotes(db: Db, questionIds: readonly string[]) {
  if (questionIds.length === 0) return;
  await db.updateTable('questions').set(recount).where('id', 'in', questionIds).execute();
}

// ---------------------------------------------------------------------------------------------------------
// Questions and answers as the board shows them. The authors' names and roles come from a read-only join on
// `users` (docs/decisions/0026 allows it): asking the accounts' repository instead would add a query to every
// page of the board, its hottest read.

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
      'questions.module_slug',
      'questions.anonymous',
      'questions.html',
      'questions.html_version',
      'users.name as author_name',
      'users.role as author_role',
    ]);
}
type QuestionRow = Awaited<ReturnType<ReturnType<typeof selectQuestions>['execute']>>[number];

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
      'answers.endorsed_at',
      'answers.html',
      'answers.html_version',
      'users.name as author_name',
      'users.role as author_role',
    ]);
}
type AnswerRow = Awaited<ReturnType<ReturnType<typeof selectAnswers>['execute']>>[number];

const toStoredHtml = (html: string | null, version: number | null): StoredHtml | null =>
  html === null || version === null ? null : { html, version };

/** The columns of a post's kept HTML. */
const storedHtmlColumns = (stored: StoredHtml | null | undefined) => ({
  html: stored?.html ?? null,
  html_version: stored?.version ?? null,
});

function toAuthor(userId: string | null, name: string | null, role: Role | null): PostAuthor | null {
  return userId === null || name === null || role === null ? null : { id: userId, name, role };
}

const toBoardQuestion = (row: QuestionRow): BoardQuestion => ({
  id: row.id,
  title: row.title,
  text: row.text,
  author: toAuthor(row.user_id, row.author_name, row.author_role),
  createdAt: row.created_at,
  upvotes: row.upvotes,
  downvotes: row.downvotes,
  acceptedAnswerId: row.accepted_answer_id,
  moduleSlug: row.module_slug,
  anonymous: Number(row.anonymous) === 1,
  storedHtml: toStoredHtml(row.html, row.html_version),
  version: row.version,
  deletedAt: row.deleted_at,
});

const toBoardAnswer = (row: AnswerRow): BoardAnswer => ({
  id: row.id,
  questionId: row.question_id,
  text: row.text,
  author: toAuthor(row.user_id, row.author_name, row.author_role),
  createdAt: row.created_at,
  endorsed: row.endorsed_at !== null,
  storedHtml: toStoredHtml(row.html, row.html_version),
});

// ---------------------------------------------------------------------------------------------------------
// The board's pages and its search (migration 0010). SQLite answers on the event loop's thread, so no query of
// a search may take long there: with 100,000 questions a LIKE over every row took about 50 ms.

/**
 * Live questions after `after` in the board's order (newest first, then by id); tagged `moduleSlug` (null: none)
 * when it is given.
 */
function listed(db: Db, after: BoardPosition | undefined, moduleSlug?: string | null) {
  let query = selectQuestions(db).where('questions.deleted_at', 'is', null);
  if (moduleSlug !== undefined)
    query = query.where('questions.module_slug', moduleSlug === null ? 'is' : '=', moduleSlug);
  if (after) {
    query = query.where((eb) =>
      eb(eb.refTuple('questions.created_at', 'questions.id'), '<', eb.tuple(after.createdAt, after.id)),
    );
  }
  return query;
}

const newestFirst = <Q extends ReturnType<typeof listed>>(query: Q) =>
  query.orderBy('questions.created_at', 'desc').orderBy('questions.id', 'desc');

/** A LIKE pattern for text containing `needle` as it is: `%`, `_` and the escape character match only themselves. */
const likePattern = (needle: string) => `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const matching = (pattern: string) => sql<boolean>`questions.search like ${pattern} escape '\\'`;
const containing = (needle: string) => matching(likePattern(needle));

/** A page of the board, with a LIKE pattern or without (db/prepared-query.ts): every board's first read. */
const boardPage = preparedQuery<
  { afterCreatedAt?: string; afterId?: string; pattern?: string; limit: number },
  QuestionRow
>((db, arg) => {
  const [createdAt, id, pattern] = [arg('afterCreatedAt'), arg('afterId'), arg('pattern')];
  let query = listed(db, createdAt !== undefined && id !== undefined ? { createdAt, id } : undefined);
  if (pattern !== undefined) query = query.where(matching(pattern));
  return newestFirst(query).limit(boundLimit(arg('limit')));
});

export interface SearchTuning {
  /** Above this many questions holding the query, the index's list is long and a scan in order finds a page sooner. */
  candidates: number;
  /** Questions a scan reads between two turns of the event loop. */
  slice: number;
}

/**
 * Measured at 100,000 questions: a page from 500 candidates takes about 3 ms. A slice of 5,000 rows took about
 * 3 ms alone, but under `bench/qa.ts` a 2-letter search that matches nothing (every slice read) held the event
 * loop 15 ms at p99 and up to 51 ms; with slices of 2,000, 6 and 19 ms, at the same 8–10 searches a second. A
 * text held by more than 500 questions fills a page from the newest few thousand rows (21 × 100,000 / 500 ≈
 * 4,200).
 */
const defaultSearchTuning: SearchTuning = { candidates: 500, slice: 2000 };

/**
 * A search on SQLite, with the same results as LIKE over the board:
 * - A query of 3 characters or more asks the trigram index for the questions holding it. If there are at most
 *   `candidates`, the page is read from those alone: a rare or absent text answers in a millisecond.
 * - Otherwise (a common text, or one of 1–2 characters, which has no trigram) the board is scanned in its order,
 *   `slice` rows at a time, yielding to other requests between slices. A common text fills its page in the
 *   first slice; a short one that matches nothing reads the board to its end, but never holds the loop long.
 */
async function searchSqlite(
  db: Db,
  search: string,
  after: BoardPosition | undefined,
  limit: number,
  tuning: SearchTuning,
  moduleSlug?: string | null,
): Promise<BoardQuestion[]> {
  if ([...search].length >= 3) {
    // FTS5's query language reads a double-quoted string as one phrase: the trigrams in a row.
    const phrase = `"${search.replaceAll('"', '""')}"`;
    const holding = sql`select question_id from questions_search where questions_search match ${phrase}`;
    const { count } = await sql<{
      count: number;
    }>`select count(*) as count from (${holding} limit ${tuning.candidates + 1})`
      .execute(db)
      .then((r) => r.rows[0]!);
    if (count <= tuning.candidates) {
      const rows = await newestFirst(listed(db, after, moduleSlug).where(sql<boolean>`questions.id in (${holding})`))
        .limit(boundLimit(limit))
        .execute();
      return rows.map(toBoardQuestion);
    }
  }
  const found: BoardQuestion[] = [];
  let from = after;
  for (;;) {
    // The last row of this slice, if the board goes on that far; the slice is the rows from `from` to it.
    const last = await newestFirst(listed(db, from))
      .clearSelect()
      .select(['questions.created_at', 'questions.id'])
      .offset(tuning.slice - 1)
      .limit(1)
      .executeTakeFirst();
    let slice = listed(db, from, moduleSlug).where(containing(search));
    if (last) {
      slice = slice.where((eb) =>
        eb(eb.refTuple('questions.created_at', 'questions.id'), '>=', eb.tuple(last.created_at, last.id)),
      );
    }
    const rows = await newestFirst(slice)
      .limit(boundLimit(limit - found.length))
      .execute();
    found.push(...rows.map(toBoardQuestion));
    if (found.length >= limit || !last) return found;
    from = { createdAt: last.created_at, id: last.id };
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const toVote = (row: { question_id: string; value: 1 | -1 }) => ({ questionId: row.question_id, value: row.value });

/**
 * The board on SQLite and PostgreSQL (`questions`, `answers`, `question_votes`, and the `questions` counter, read
 * and taken through `versions`). `searchTuning` is for tests, which make its rounds small enough to cross with
 * a few questions.
 */
export function createQaRepository(
  db: Db,
  kind: DbKind,
  versions: Versions = versionsOn(db),
  searchTuning = defaultSearchTuning,
): QaRepository {
  return {
    // The board's counter row, locked from the first call to the transaction's end (db/versions.ts says why).
    beginChanges: () => versions.lock('questions'),

    async takeStamps(count) {
      const first = await versions.take('questions', count);
      return Array.from({ length: count }, (_, i) => ({ shard: 0, version: first + i }));
    },

    readPosition: async () => [await versions.read('questions')],

    async findQuestion(id) {
      const row = await db
        .selectFrom('questions')
        .select([
          'id',
          'user_id',
          'title',
          'text',
          'accepted_answer_id',
          'module_slug',
          'deleted_at',
          'version',
          'anonymous',
        ])
        .where('id', '=', id)
        .executeTakeFirst();
      return (
        row && {
          id: row.id,
          userId: row.user_id,
          title: row.title,
          text: row.text,
          acceptedAnswerId: row.accepted_answer_id,
          moduleSlug: row.module_slug,
          anonymous: Number(row.anonymous) === 1,
          deletedAt: row.deleted_at,
          version: row.version,
        }
      );
    },

    async findAnswer(id) {
      const row = await db
        .selectFrom('answers')
        .select(['id', 'question_id', 'user_id', 'text', 'endorsed_at'])
        .where('id', '=', id)
        .executeTakeFirst();
      return (
        row && {
          id: row.id,
          questionId: row.question_id,
          userId: row.user_id,
          text: row.text,
          endorsed: row.endorsed_at !== null,
        }
      );
    },

    async countPostsSince(userId, since) {
      const count = (table: 'questions' | 'answers') =>
        db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', userId)
          .where('created_at', '>', since)
          .executeTakeFirstOrThrow();
      const [questions, answers] = await Promise.all([count('questions'), count('answers')]);
      return Number(questions.n) + Number(answers.n);
    },

    async findVote(questionId, userId) {
      const row = await db
        .selectFrom('question_votes')
        .select('value')
        .where('question_id', '=', questionId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.value ?? 0;
    },

    async versionsOf(questionIds) {
      if (questionIds.length === 0) return [];
      const rows = await db.selectFrom('questions').select(['id', 'version']).where('id', 'in', questionIds).execute();
      const versions = new Map(rows.map((r) => [r.id, r.version]));
      return questionIds.map((id) => versions.get(id) ?? 0);
    },

    async insertQuestion(question) {
      await db
        .insertInto('questions')
        .values({
          id: question.id,
          user_id: question.userId,
          title: question.title,
          text: question.text,
          search: question.searchText,
          module_slug: question.moduleSlug ?? null,
          anonymous: question.anonymous ? 1 : 0,
          ...storedHtmlColumns(question.storedHtml),
          created_at: question.createdAt,
          version: question.stamp.version,
          ...(question.importedVotes && {
            upvotes: question.importedVotes.upvotes,
            downvotes: question.importedVotes.downvotes,
            imported_upvotes: question.importedVotes.upvotes,
            imported_downvotes: question.importedVotes.downvotes,
          }),
        })
        .execute();
      // SQLite's search index, written here rather than by a trigger (migration 0012 says why).
      if (kind === 'sqlite')
        await sql`insert into questions_search (search, question_id) values (${question.searchText}, ${question.id})`.execute(
          db,
        );
    },

    async insertAnswer(answer) {
      await db
        .insertInto('answers')
        .values({
          id: answer.id,
          question_id: answer.questionId,
          user_id: answer.userId,
          text: answer.text,
          ...storedHtmlColumns(answer.storedHtml),
          created_at: answer.createdAt,
        })
        .execute();
    },

    async importedVotesOf(questionId) {
      const row = await db
        .selectFrom('questions')
        .select(['imported_upvotes', 'imported_downvotes'])
        .where('id', '=', questionId)
        .executeTakeFirst();
      return row && { upvotes: row.imported_upvotes, downvotes: row.imported_downvotes };
    },

    async updateImportedQuestion(questionId, changes, _before, { version }) {
      // SQLite's search index keeps no copy of the text: its entry is taken out with the text it was made of.
      if (kind === 'sqlite') {
        const indexed = await sql<{ rowid: number; search: string }>`
          select s.rowid as rowid, q.search as search from questions_search s join questions q on q.id = s.question_id
          where s.question_id = ${questionId}`.execute(db);
        for (const entry of indexed.rows)
          await sql`insert into questions_search (questions_search, rowid, search, question_id)
            values ('delete', ${entry.rowid}, ${entry.search}, ${questionId})`.execute(db);
      }
      await db
        .updateTable('questions')
        .set({
          title: changes.title,
          text: changes.text,
          ...storedHtmlColumns(null),
          search: changes.searchText,
          imported_upvotes: changes.importedVotes.upvotes,
          imported_downvotes: changes.importedVotes.downvotes,
          version,
        })
        .where('id', '=', questionId)
        .execute();
      await recountVotes(db, [questionId]);
      if (kind === 'sqlite')
        await sql`insert into questions_search (search, question_id) values (${changes.searchText}, ${questionId})`.execute(
          db,
        );
    },

    async updateImportedAnswer(answerId, text) {
      await db
        .updateTable('answers')
        .set({ text, ...storedHtmlColumns(null) })
        .where('id', '=', answerId)
        .execute();
    },

    async setVersion(questionId, { version }) {
      await db.updateTable('questions').set({ version }).where('id', '=', questionId).execute();
    },

    async setVote(questionId, userId, value) {
      if (value === 0) {
        await db
          .deleteFrom('question_votes')
          .where('question_id', '=', questionId)
          .where('user_id', '=', userId)
          .execute();
      } else {
        await db
          .insertInto('question_votes')
          .values({ question_id: questionId, user_id: userId, value })
          .onConflict((oc) => oc.columns(['question_id', 'user_id']).doUpdateSet({ value }))
          .execute();
      }
      await recountVotes(db, [questionId]);
    },

    async setAcceptedAnswer(questionId, answerId) {
      await db.updateTable('questions').set({ accepted_answer_id: answerId }).where('id', '=', questionId).execute();
    },

    async setEndorsement(answerId, endorsement) {
      await db
        .updateTable('answers')
        .set({ endorsed_by: endorsement?.userId ?? null, endorsed_at: endorsement?.at ?? null })
        .where('id', '=', answerId)
        .execute();
    },

    async markQuestionDeleted(questionId, at) {
      await db.updateTable('questions').set({ deleted_at: at }).where('id', '=', questionId).execute();
    },

    async deleteAnswer(question, answerId) {
      await db.deleteFrom('answers').where('id', '=', answerId).execute();
      await db
        .updateTable('questions')
        .set({ accepted_answer_id: null })
        .where('id', '=', question.id)
        .where('accepted_answer_id', '=', answerId)
        .execute();
    },

    async listPage({ search, moduleSlug, after, limit }) {
      // PostgreSQL's trigram index serves LIKE itself; SQLite's FTS5 index needs its own query (see searchSqlite).
      if (search && kind === 'sqlite') return searchSqlite(db, search, after, limit, searchTuning, moduleSlug);
      if (moduleSlug !== undefined) {
        // A module's page: its index (migration 0029) reads it newest first.
        let query = listed(db, after, moduleSlug);
        if (search) query = query.where(containing(search));
        return (await newestFirst(query).limit(boundLimit(limit)).execute()).map(toBoardQuestion);
      }
      const { rows } = await boardPage(db, {
        afterCreatedAt: after?.createdAt,
        afterId: after?.id,
        pattern: search ? likePattern(search) : undefined,
        limit,
      });
      return rows.map(toBoardQuestion);
    },

    async listChangedSince(since, limit) {
      // A SQL position has one shard: the board's single counter.
      const version = since[0] ?? 0;
      // One row more than asked says whether more follow.
      const rows = await selectQuestions(db)
        .where('questions.version', '>', version)
        .orderBy('questions.version')
        .limit(boundLimit(limit + 1))
        .execute();
      const page = rows.slice(0, limit);
      return {
        questions: page.map(toBoardQuestion),
        position: [page.at(-1)?.version ?? version],
        more: rows.length > page.length,
      };
    },

    async findBoardQuestion(id) {
      const row = await selectQuestions(db).where('questions.id', '=', id).executeTakeFirst();
      return row && toBoardQuestion(row);
    },

    async listAnswers(questionIds) {
      const rows = await selectAnswers(db)
        .where('answers.question_id', 'in', questionIds)
        .orderBy('answers.created_at')
        .orderBy('answers.id')
        .execute();
      return rows.map(toBoardAnswer);
    },

    async findBoardAnswer(id) {
      const row = await selectAnswers(db).where('answers.id', '=', id).executeTakeFirst();
      return row && toBoardAnswer(row);
    },

    async listAnonymous(userId) {
      let query = selectQuestions(db).where('questions.anonymous', '=', 1).where('questions.deleted_at', 'is', null);
      if (userId !== undefined) query = query.where('questions.user_id', '=', userId);
      return (await query.execute()).map(toBoardQuestion);
    },

    async votesOn(userId, questionIds) {
      const rows = await db
        .selectFrom('question_votes')
        .select(['question_id', 'value'])
        .where('user_id', '=', userId)
        .where('question_id', 'in', questionIds)
        .execute();
      return rows.map(toVote);
    },

    async listQuestionsBy(userId) {
      const rows = await db
        .selectFrom('questions')
        .select([
          'id',
          'title',
          'text',
          'created_at',
          'upvotes',
          'downvotes',
          'accepted_answer_id',
          'deleted_at',
          'module_slug',
          'anonymous',
        ])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((q) => ({
        id: q.id,
        title: q.title,
        text: q.text,
        createdAt: q.created_at,
        upvotes: q.upvotes,
        downvotes: q.downvotes,
        acceptedAnswerId: q.accepted_answer_id,
        deletedAt: q.deleted_at,
        moduleSlug: q.module_slug,
        anonymous: Number(q.anonymous) === 1,
      }));
    },

    async listAnswersBy(userId) {
      const rows = await db
        .selectFrom('answers')
        .select(['id', 'question_id', 'text', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((a) => ({ id: a.id, questionId: a.question_id, text: a.text, createdAt: a.created_at }));
    },

    async listVotesBy(userId) {
      const rows = await db
        .selectFrom('question_votes')
        .select(['question_id', 'value'])
        .where('user_id', '=', userId)
        .orderBy('question_id')
        .execute();
      return rows.map(toVote);
    },

    async listPostsBy(userId) {
      const [asked, answered, endorsed] = await Promise.all([
        db.selectFrom('questions').select('id').where('user_id', '=', userId).execute(),
        db.selectFrom('answers').select(['id', 'question_id']).where('user_id', '=', userId).execute(),
        db.selectFrom('answers').select('id').where('endorsed_by', '=', userId).execute(),
      ]);
      return {
        questionIds: asked.map((r) => r.id),
        answers: answered.map((r) => ({ id: r.id, questionId: r.question_id })),
        endorsedAnswerIds: endorsed.map((r) => r.id),
      };
    },

    // The user row's foreign keys would do the same as it goes; said here, both engines do it in one place.
    async forgetAuthor(userId) {
      await db.updateTable('questions').set({ user_id: null }).where('user_id', '=', userId).execute();
      await db.updateTable('answers').set({ user_id: null }).where('user_id', '=', userId).execute();
      await db.updateTable('answers').set({ endorsed_by: null }).where('endorsed_by', '=', userId).execute();
    },

    async withdrawVotes(userId, votes) {
      await db.deleteFrom('question_votes').where('user_id', '=', userId).execute();
      await recountVotes(
        db,
        votes.map((v) => v.questionId),
      );
    },

    async insertPhotos(photos) {
      if (photos.length === 0) return;
      await db
        .insertInto('post_photos')
        .values(
          photos.map((p) => ({
            id: p.id,
            question_id: p.questionId,
            answer_id: p.answerId,
            user_id: p.userId,
            position: p.position,
            content_type: p.contentType,
            bytes: p.bytes,
            thumb_type: p.thumbType,
            thumb: p.thumb,
            created_at: p.createdAt,
          })),
        )
        .execute();
    },

    async listPhotos(questionIds) {
      if (questionIds.length === 0) return [];
      const rows = await db
        .selectFrom('post_photos')
        .select(['id', 'question_id', 'answer_id'])
        .where('question_id', 'in', questionIds)
        .orderBy('question_id')
        .orderBy('answer_id')
        .orderBy('position')
        .execute();
      return rows.map((r) => ({ id: r.id, questionId: r.question_id, answerId: r.answer_id }));
    },

    async findPhoto(id, size) {
      const row = await db
        .selectFrom('post_photos')
        .select(
          size === 'full'
            ? ['id', 'question_id', 'answer_id', 'content_type as type', 'bytes as data']
            : ['id', 'question_id', 'answer_id', 'thumb_type as type', 'thumb as data'],
        )
        .where('id', '=', id)
        .executeTakeFirst();
      return (
        row && {
          id: row.id,
          questionId: row.question_id,
          answerId: row.answer_id,
          contentType: row.type,
          bytes: new Uint8Array(row.data),
        }
      );
    },

    async listPhotosBy(userId) {
      const rows = await db
        .selectFrom('post_photos')
        .select((eb) => [
          'id',
          'question_id',
          'answer_id',
          'content_type',
          'created_at',
          eb.fn<number>('length', ['bytes']).as('size'),
        ])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        questionId: r.question_id,
        answerId: r.answer_id,
        contentType: r.content_type,
        size: Number(r.size),
        createdAt: r.created_at,
      }));
    },

    async deletePhotos(photos) {
      if (photos.length === 0) return;
      await db
        .deleteFrom('post_photos')
        .where(
          'id',
          'in',
          photos.map((p) => p.id),
        )
        .execute();
    },
  };
}
