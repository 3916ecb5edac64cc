import type { AccountsRepository } from '../../auth/accounts.storage.ts';
import {
  FieldPath,
  FieldValue,
  type CollectionReference,
  type DocumentSnapshot,
  type Query,
  type QuerySnapshot,
  type Transaction,
} from 'firebase-admin/firestore';
import { read, readAll, type FirestoreContext } from '../../storage/firestore/context.ts';
import type { Positions } from '../../storage/firestore/positions.ts';
import { keyId } from '../../storage/firestore/document-ids.ts';
import { createRecentTimes } from '../../storage/firestore/recent-times.ts';
import { isRecordId } from '../../storage/record-ids.ts';
import type {
  BoardAnswer,
  BoardQuestion,
  PhotoRef,
  PostAuthor,
  QaRepository,
  QuestionRecord,
  StoredHtml,
} from './qa.storage.ts';

/**
 * The board on Firestore (docs/firestore-layout.md, "The Q&A board"):
 * - `questions/{id}`: the question, its vote counts, `version` and `versionShard` (its stamp: decision 0027),
 *   `deletedAt` (null, or the tombstone's time), and for search `search` (title and text lower-cased, as SQL's
 *   column) with `searchGrams`, the distinct pieces of 1 to 3 characters of `search`, and `answerIds`, the ids of
 *   its answers (a page's answers are read by key: see listAnswers);
 * - `answers/{id}`: the answer, with `questionId`;
 * - `questionVotes/{questionId}:{userId}`: one vote per user and question, by its key;
 * - `postPhotos/{id}`: a photo of a question or an answer, its bytes and its thumbnail's (decision 0061); the
 *   question lists its own and its answers' in `photos`, so a page's photos are named by the reads it makes anyway;
 * - `boardPostTimes/{userId}`: when the user posted (recent-times.ts): the rate limit's count, read by key in
 *   the post's transaction (a count query over `questions` and `answers` there made the emulator order every
 *   post after every other).
 *
 * Every change runs in the usecase's transaction (begin → reads → takeStamps → writes, QaRepository): a
 * question's counts change only in a transaction that read its vote document (`findVote`) and the question,
 * so two votes at once are ordered by Firestore and neither is lost. Authors' names and roles are read from
 * the accounts' repository, one read per page (SQL's read-only join, decision 0026).
 */
interface QuestionDoc {
  userId: string | null;
  title: string;
  text: string;
  search: string;
  searchGrams: string[];
  /** Its answers' ids, in no order: written with the answer, in the same transaction. */
  answerIds: string[];
  createdAt: string;
  upvotes: number;
  downvotes: number;
  /**
   * The counts an imported question brought from the old site, which `upvotes` and `downvotes` started with;
   * absent on one imported before they were kept (`importedVotesOf` works them out from its votes).
   */
  importedUpvotes?: number;
  importedDownvotes?: number;
  acceptedAnswerId: string | null;
  version: number;
  versionShard: number;
  deletedAt: string | null;
  /** The photos of the question and of its answers, each post's in order; absent on one stored before photos. */
  photos?: PhotoEntry[];
  /** The catalogue module's slug; null, or absent on one stored before modules, for "Other" (issue 39 §3). */
  module?: string | null;
  /** Anonymous to classmates; absent: not. */
  anonymous?: boolean;
  /** The text's HTML kept when posted, and the pipeline's version that made it; absent or null: none (0064). */
  html?: string | null;
  htmlVersion?: number | null;
}

/** A photo as its question lists it. */
interface PhotoEntry {
  id: string;
  answerId: string | null;
}

/** A photo, full size and thumbnail in one document: the caps keep it far under Firestore's 1 MiB (0061). */
interface PhotoDoc {
  questionId: string;
  answerId: string | null;
  userId: string | null;
  position: number;
  contentType: string;
  bytes: Uint8Array;
  size: number;
  thumbType: string;
  thumb: Uint8Array;
  createdAt: string;
}

interface AnswerDoc {
  questionId: string;
  userId: string | null;
  text: string;
  createdAt: string;
  /** Who endorsed it and when (issue 39 §3); absent or null when nobody did. */
  endorsedBy?: string | null;
  endorsedAt?: string | null;
  /** As a question's. */
  html?: string | null;
  htmlVersion?: number | null;
}

interface VoteDoc {
  questionId: string;
  userId: string;
  value: 1 | -1;
}

/** How far back a user's post times are kept: the rate limit counts 10 minutes (qaLimits). */
const postTimesKeptMs = 24 * 3_600_000;

/** The collection the board's stamps count in (decision 0027). */
const versioned = 'questions';

/**
 * Every distinct piece of 1, 2 and 3 characters (code points: Firestore stores only whole UTF-8) of a
 * question's `search`. A query's text is in `search` only if its first piece of up to 3 characters is among
 * them, so one array-contains query finds every candidate; the candidates are then checked for the whole
 * text, as SQL's LIKE does. Pieces up to 3 let a search of 1 or 2 characters use the index too.
 */
function searchGramsOf(search: string): string[] {
  const chars = Array.from(search);
  const grams = new Set<string>();
  for (let size = 1; size <= 3; size++)
    for (let i = 0; i + size <= chars.length; i++) grams.add(chars.slice(i, i + size).join(''));
  return [...grams];
}

/** The piece a search looks up: its first 3 characters (or fewer, when it is shorter). */
const gramToFind = (search: string) => Array.from(search).slice(0, 3).join('');

/**
 * Text as the SQL engines compare it: the drivers send strings as UTF-8, where a lone surrogate (half of a
 * character, which JavaScript strings may hold) becomes U+FFFD; Firestore stores UTF-8 too.
 */
const asStored = (text: string) => text.toWellFormed();

/** Questions read per round when a search filters in memory: a page rarely needs a second round. */
const searchBatch = 100;

/** A post's kept HTML as its document holds it. */
const storedHtmlOf = (doc: { html?: string | null; htmlVersion?: number | null }): StoredHtml | null =>
  typeof doc.html === 'string' && typeof doc.htmlVersion === 'number'
    ? { html: doc.html, version: doc.htmlVersion }
    : null;

/** The fields of a post's kept HTML (null: none). */
const storedHtmlFields = (stored: StoredHtml | null | undefined) => ({
  html: stored?.html ?? null,
  htmlVersion: stored?.version ?? null,
});

const voteIdOf = (questionId: string, userId: string) => keyId(questionId, userId);

const toRecord = (id: string, doc: QuestionDoc): QuestionRecord => ({
  id,
  userId: doc.userId,
  title: doc.title,
  text: doc.text,
  acceptedAnswerId: doc.acceptedAnswerId,
  moduleSlug: doc.module ?? null,
  anonymous: doc.anonymous === true,
  deletedAt: doc.deletedAt,
  version: doc.version,
});

/** The questions' lists of photos (`QuestionDoc.photos`) these photos go into or leave. */
function entriesByQuestion(refs: readonly PhotoRef[]): Map<string, PhotoEntry[]> {
  const byQuestion = new Map<string, PhotoEntry[]>();
  for (const ref of refs) {
    const entries = byQuestion.get(ref.questionId) ?? [];
    entries.push({ id: ref.id, answerId: ref.answerId });
    byQuestion.set(ref.questionId, entries);
  }
  return byQuestion;
}

const byCreation = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * `accounts` names the posts' authors (the accounts' repository on the same context: in the transaction when
 * there is one); the board reads no account document itself (decision 0026).
 */
export function createQaFirestoreRepository(
  ctx: FirestoreContext,
  positions: Positions,
  accounts: Pick<AccountsRepository, 'describe'>,
): QaRepository {
  const questions = ctx.db.collection('questions') as CollectionReference<QuestionDoc>;
  const answers = ctx.db.collection('answers') as CollectionReference<AnswerDoc>;
  const votes = ctx.db.collection('questionVotes') as CollectionReference<VoteDoc>;
  const photos = ctx.db.collection('postPhotos') as CollectionReference<PhotoDoc>;
  const voteRef = (questionId: string, userId: string) => votes.doc(voteIdOf(questionId, userId));
  const postTimes = createRecentTimes(ctx, 'boardPostTimes', postTimesKeptMs);

  /** The document `id` names in `of`, or undefined when no document can have that id (one from a URL). */
  async function readById<T>(of: CollectionReference<T>, id: string): Promise<DocumentSnapshot<T> | undefined> {
    return isRecordId(id) ? read(ctx, of.doc(id)) : undefined;
  }

  /** A query, in the transaction when there is one. */
  const query = <T>(q: Query<T>): Promise<QuerySnapshot<T>> => (ctx.tx ? ctx.tx.get(q) : q.get());

  /** The usecase's transaction: every change to the board is made in one (QaRepository). */
  function writer(): Transaction {
    if (!ctx.tx) throw new Error('A change to the board is made in a transaction (Storage.transaction).');
    return ctx.tx;
  }

  /** The authors of these posts by id, in one read for a page whatever its size; a missing one is deleted. */
  async function authorsOf(userIds: readonly (string | null)[]): Promise<Map<string, PostAuthor>> {
    const found = await accounts.describe(userIds.filter((id): id is string => id !== null));
    return new Map([...found].map(([id, { name, role }]) => [id, { id, name, role }]));
  }

  async function toBoardQuestions(docs: readonly DocumentSnapshot<QuestionDoc>[]): Promise<BoardQuestion[]> {
    const authors = await authorsOf(docs.map((d) => d.data()!.userId));
    return docs.map((d) => {
      const q = d.data()!;
      return {
        id: d.id,
        title: q.title,
        text: q.text,
        author: (q.userId !== null && authors.get(q.userId)) || null,
        createdAt: q.createdAt,
        upvotes: q.upvotes,
        downvotes: q.downvotes,
        acceptedAnswerId: q.acceptedAnswerId,
        moduleSlug: q.module ?? null,
        anonymous: q.anonymous === true,
        storedHtml: storedHtmlOf(q),
        version: q.version,
        deletedAt: q.deletedAt,
      };
    });
  }

  async function toBoardAnswers(docs: readonly DocumentSnapshot<AnswerDoc>[]): Promise<BoardAnswer[]> {
    const authors = await authorsOf(docs.map((d) => d.data()!.userId));
    return docs.map((d) => {
      const a = d.data()!;
      return {
        id: d.id,
        questionId: a.questionId,
        text: a.text,
        author: (a.userId !== null && authors.get(a.userId)) || null,
        createdAt: a.createdAt,
        endorsed: (a.endorsedAt ?? null) !== null,
        storedHtml: storedHtmlOf(a),
      };
    });
  }

  /** Moves the question's counts from the vote `before` to `value` (each 1, -1 or 0). */
  function recount(tx: Transaction, questionId: string, value: 1 | -1 | 0, before: 1 | -1 | 0) {
    const up = Number(value === 1) - Number(before === 1);
    const down = Number(value === -1) - Number(before === -1);
    if (up === 0 && down === 0) return;
    tx.update(questions.doc(questionId), {
      upvotes: FieldValue.increment(up),
      downvotes: FieldValue.increment(down),
    });
  }

  /**
   * One page of live questions, newest first, after `after`; `search` filters in memory (see searchGramsOf). A
   * module's slug alone is a query of its own index; with a search, or for "Other" (null, which questions stored
   * before modules hold by leaving the field out, so no query can find them), it filters in memory too.
   */
  async function scanPage(
    search: string | undefined,
    after: readonly [string, string] | undefined,
    limit: number,
    moduleSlug?: string | null,
  ): Promise<DocumentSnapshot<QuestionDoc>[]> {
    let base: Query<QuestionDoc> = questions.where('deletedAt', '==', null);
    const byIndex = typeof moduleSlug === 'string' && !search;
    const inMemory = (search !== undefined && search !== '') || (moduleSlug !== undefined && !byIndex);
    if (search) base = base.where('searchGrams', 'array-contains', gramToFind(search));
    if (byIndex) base = base.where('module', '==', moduleSlug);
    base = base.orderBy('createdAt', 'desc').orderBy(FieldPath.documentId(), 'desc');
    const batch = inMemory ? Math.max(limit, searchBatch) : limit;
    const found: DocumentSnapshot<QuestionDoc>[] = [];
    let cursor = after;
    for (;;) {
      const round = await query((cursor ? base.startAfter(...cursor) : base).limit(batch));
      for (const d of round.docs) {
        if (search && !d.data().search.includes(search)) continue;
        if (moduleSlug !== undefined && !byIndex && (d.data().module ?? null) !== moduleSlug) continue;
        found.push(d);
        if (found.length === limit) return found;
      }
      const last = round.docs.at(-1);
      if (round.size < batch || !last) return found;
      cursor = [last.data().createdAt, last.id];
    }
  }

  return {
    // Nothing to hold: the transaction's reads guard its checks, and its stamps order it (decision 0027).
    beginChanges: async () => undefined,

    takeStamps: (count, above = []) => positions.takeStamps(writer(), versioned, { count, above }),

    readPosition: () => positions.readPosition(versioned),

    async findQuestion(id) {
      const doc = (await readById(questions, id))?.data();
      return doc && toRecord(id, doc);
    },

    async findAnswer(id) {
      const doc = (await readById(answers, id))?.data();
      return (
        doc && {
          id,
          questionId: doc.questionId,
          userId: doc.userId,
          text: doc.text,
          endorsed: (doc.endorsedAt ?? null) !== null,
        }
      );
    },

    countPostsSince: (userId, since) => postTimes.countSince(userId, since),

    async findVote(questionId, userId) {
      return (await read(ctx, voteRef(questionId, userId))).data()?.value ?? 0;
    },

    async versionsOf(questionIds) {
      const found = await readAll(
        ctx,
        questionIds.filter(isRecordId).map((id) => questions.doc(id)),
      );
      const versions = new Map(found.map((d) => [d.id, d.data()?.version ?? 0]));
      return questionIds.map((id) => versions.get(id) ?? 0);
    },

    async insertQuestion(question) {
      postTimes.record(writer(), question.userId, question.createdAt);
      writer().create(questions.doc(question.id), {
        userId: question.userId,
        title: question.title,
        text: question.text,
        search: asStored(question.searchText),
        searchGrams: searchGramsOf(asStored(question.searchText)),
        answerIds: [],
        createdAt: question.createdAt,
        // The counts move by increments from here, so the old site's stay in them (firestore-layout.md).
        upvotes: question.importedVotes?.upvotes ?? 0,
        downvotes: question.importedVotes?.downvotes ?? 0,
        ...(question.importedVotes && {
          importedUpvotes: question.importedVotes.upvotes,
          importedDownvotes: question.importedVotes.downvotes,
        }),
        acceptedAnswerId: null,
        version: question.stamp.version,
        versionShard: question.stamp.shard,
        deletedAt: null,
        module: question.moduleSlug ?? null,
        anonymous: question.anonymous === true,
        ...storedHtmlFields(question.storedHtml),
      });
    },

    async insertAnswer(answer) {
      const tx = writer();
      postTimes.record(tx, answer.userId, answer.createdAt);
      tx.create(answers.doc(answer.id), {
        questionId: answer.questionId,
        userId: answer.userId,
        text: answer.text,
        ...storedHtmlFields(answer.storedHtml),
        createdAt: answer.createdAt,
      });
      tx.update(questions.doc(answer.questionId), { answerIds: FieldValue.arrayUnion(answer.id) });
    },

    async importedVotesOf(questionId) {
      const doc = (await readById(questions, questionId))?.data();
      if (!doc) return undefined;
      if (doc.importedUpvotes !== undefined && doc.importedDownvotes !== undefined)
        return { upvotes: doc.importedUpvotes, downvotes: doc.importedDownvotes };
      // Imported before the counts were kept apart: the counts less the votes cast here.
      const cast = (await query(votes.where('questionId', '==', questionId))).docs.map((d) => d.data().value);
      return {
        upvotes: doc.upvotes - cast.filter((v) => v === 1).length,
        downvotes: doc.downvotes - cast.filter((v) => v === -1).length,
      };
    },

    async updateImportedQuestion(questionId, changes, before, stamp) {
      const search = asStored(changes.searchText);
      writer().update(questions.doc(questionId), {
        title: changes.title,
        text: changes.text,
        ...storedHtmlFields(null),
        search,
        searchGrams: searchGramsOf(search),
        importedUpvotes: changes.importedVotes.upvotes,
        importedDownvotes: changes.importedVotes.downvotes,
        // By increments, as votes move them: the votes cast here stay in.
        upvotes: FieldValue.increment(changes.importedVotes.upvotes - before.upvotes),
        downvotes: FieldValue.increment(changes.importedVotes.downvotes - before.downvotes),
        version: stamp.version,
        versionShard: stamp.shard,
      });
    },

    async updateImportedAnswer(answerId, text) {
      writer().update(answers.doc(answerId), { text, ...storedHtmlFields(null) });
    },

    async setVersion(questionId, stamp) {
      writer().update(questions.doc(questionId), { version: stamp.version, versionShard: stamp.shard });
    },

    async setVote(questionId, userId, value, before) {
      const tx = writer();
      if (value === 0) tx.delete(voteRef(questionId, userId));
      else tx.set(voteRef(questionId, userId), { questionId, userId, value });
      recount(tx, questionId, value, before);
    },

    async setAcceptedAnswer(questionId, answerId) {
      writer().update(questions.doc(questionId), { acceptedAnswerId: answerId });
    },

    async setEndorsement(answerId, endorsement) {
      writer().update(answers.doc(answerId), {
        endorsedBy: endorsement?.userId ?? null,
        endorsedAt: endorsement?.at ?? null,
      });
    },

    async markQuestionDeleted(questionId, at) {
      writer().update(questions.doc(questionId), { deletedAt: at });
    },

    async deleteAnswer(question, answerId) {
      const tx = writer();
      tx.delete(answers.doc(answerId));
      tx.update(questions.doc(question.id), {
        answerIds: FieldValue.arrayRemove(answerId),
        ...(question.acceptedAnswerId === answerId && { acceptedAnswerId: null }),
      });
    },

    async listPage({ search, moduleSlug, after, limit }) {
      const needle = search ? asStored(search) : undefined;
      return toBoardQuestions(await scanPage(needle, after && [after.createdAt, after.id], limit, moduleSlug));
    },

    async listChangedSince(since, limit) {
      const changes = await positions.readChangesSince(versioned, questions, since, { limit });
      return {
        questions: await toBoardQuestions(changes.docs as DocumentSnapshot<QuestionDoc>[]),
        position: changes.position,
        more: changes.more,
      };
    },

    async findBoardQuestion(id) {
      const snapshot = await readById(questions, id);
      return snapshot?.exists ? (await toBoardQuestions([snapshot]))[0] : undefined;
    },

    // By key, not by a `questionId in` query: the questions name their answers, so a page's answers are two
    // batched gets (its questions, then their answers). On the emulator, which scans a collection for a query,
    // 40 answers of 20 questions among 2,000 took a median of 305 ms by `in`, 24 ms by key; on Google's
    // Firestore a get by key is its cheapest read too.
    async listAnswers(questionIds) {
      const asked = await readAll(
        ctx,
        [...new Set(questionIds)].filter(isRecordId).map((id) => questions.doc(id)),
      );
      const answerIds = asked.flatMap((d) => d.data()?.answerIds ?? []);
      const found = (
        await readAll(
          ctx,
          answerIds.map((id) => answers.doc(id)),
        )
      ).filter((d) => d.exists);
      return (await toBoardAnswers(found)).sort(byCreation);
    },

    async findBoardAnswer(id) {
      const snapshot = await readById(answers, id);
      return snapshot?.exists ? (await toBoardAnswers([snapshot]))[0] : undefined;
    },

    // Equalities only: Firestore merges its single-field indexes, so no composite index is needed.
    async listAnonymous(userId) {
      let anonymous: Query<QuestionDoc> = questions.where('anonymous', '==', true);
      if (userId !== undefined) anonymous = anonymous.where('userId', '==', userId);
      const found = (await query(anonymous)).docs.filter((d) => d.data().deletedAt === null);
      return toBoardQuestions(found);
    },

    async votesOn(userId, questionIds) {
      const found = await readAll(
        ctx,
        [...new Set(questionIds)].map((id) => voteRef(id, userId)),
      );
      return found.flatMap((d) => {
        const vote = d.data();
        return vote ? [{ questionId: vote.questionId, value: vote.value }] : [];
      });
    },

    async listQuestionsBy(userId) {
      const found = await query(questions.where('userId', '==', userId));
      return found.docs
        .map((d) => {
          const q = d.data();
          return {
            id: d.id,
            title: q.title,
            text: q.text,
            createdAt: q.createdAt,
            upvotes: q.upvotes,
            downvotes: q.downvotes,
            acceptedAnswerId: q.acceptedAnswerId,
            deletedAt: q.deletedAt,
            moduleSlug: q.module ?? null,
            anonymous: q.anonymous === true,
          };
        })
        .sort(byCreation);
    },

    async listAnswersBy(userId) {
      const found = await query(answers.where('userId', '==', userId));
      return found.docs
        .map((d) => {
          const a = d.data();
          return { id: d.id, questionId: a.questionId, text: a.text, createdAt: a.createdAt };
        })
        .sort(byCreation);
    },

    async listVotesBy(userId) {
      const found = await query(votes.where('userId', '==', userId));
      return found.docs
        .map((d) => ({ questionId: d.data().questionId, value: d.data().value }))
        .sort((a, b) => (a.questionId < b.questionId ? -1 : a.questionId > b.questionId ? 1 : 0));
    },

    async listPostsBy(userId) {
      const [asked, answered, endorsed] = await Promise.all([
        query(questions.where('userId', '==', userId).select()),
        query(answers.where('userId', '==', userId).select('questionId')),
        query(answers.where('endorsedBy', '==', userId).select()),
      ]);
      return {
        questionIds: asked.docs.map((d) => d.id),
        answers: answered.docs.map((d) => ({ id: d.id, questionId: d.data().questionId })),
        endorsedAnswerIds: endorsed.docs.map((d) => d.id),
      };
    },

    // No foreign key does it here: without this, the posts would keep the deleted account's id.
    async forgetAuthor(userId, posts) {
      const tx = writer();
      postTimes.forget(tx, userId);
      for (const id of posts.questionIds) tx.update(questions.doc(id), { userId: null });
      for (const { id } of posts.answers) tx.update(answers.doc(id), { userId: null });
      for (const id of posts.endorsedAnswerIds) tx.update(answers.doc(id), { endorsedBy: null });
    },

    async withdrawVotes(userId, withdrawn) {
      const tx = writer();
      for (const vote of withdrawn) {
        tx.delete(voteRef(vote.questionId, userId));
        recount(tx, vote.questionId, 0, vote.value);
      }
    },

    async insertPhotos(added) {
      if (added.length === 0) return;
      const tx = writer();
      for (const p of added)
        tx.create(photos.doc(p.id), {
          questionId: p.questionId,
          answerId: p.answerId,
          userId: p.userId,
          position: p.position,
          contentType: p.contentType,
          bytes: p.bytes,
          size: p.bytes.byteLength,
          thumbType: p.thumbType,
          thumb: p.thumb,
          createdAt: p.createdAt,
        });
      for (const [questionId, entries] of entriesByQuestion(added))
        tx.update(questions.doc(questionId), { photos: FieldValue.arrayUnion(...entries) });
    },

    async listPhotos(questionIds) {
      const asked = await readAll(
        ctx,
        [...new Set(questionIds)].filter(isRecordId).map((id) => questions.doc(id)),
      );
      return asked.flatMap((d) =>
        (d.data()?.photos ?? []).map((p) => ({ id: p.id, questionId: d.id, answerId: p.answerId })),
      );
    },

    async findPhoto(id, size) {
      if (!isRecordId(id)) return undefined;
      // Only the size asked for: a thumbnail's read does not carry the full photo's bytes.
      const fields = size === 'full' ? ['contentType', 'bytes'] : ['thumbType', 'thumb'];
      const [doc] = await ctx.db.getAll(photos.doc(id), {
        fieldMask: ['questionId', 'answerId', ...fields],
      });
      const photo = doc?.data();
      if (!photo) return undefined;
      return {
        id,
        questionId: photo.questionId,
        answerId: photo.answerId,
        contentType: size === 'full' ? photo.contentType : photo.thumbType,
        bytes: new Uint8Array(size === 'full' ? photo.bytes : photo.thumb),
      };
    },

    async listPhotosBy(userId) {
      const found = await query(
        photos.where('userId', '==', userId).select('questionId', 'answerId', 'contentType', 'size', 'createdAt'),
      );
      return found.docs
        .map((d) => {
          const p = d.data();
          return {
            id: d.id,
            questionId: p.questionId,
            answerId: p.answerId,
            contentType: p.contentType,
            size: p.size,
            createdAt: p.createdAt,
          };
        })
        .sort(byCreation);
    },

    async deletePhotos(removed) {
      if (removed.length === 0) return;
      const tx = writer();
      for (const p of removed) tx.delete(photos.doc(p.id));
      for (const [questionId, entries] of entriesByQuestion(removed))
        tx.update(questions.doc(questionId), { photos: FieldValue.arrayRemove(...entries) });
    },
  };
}
