import { questionTopic } from '../../../common/notices.ts';
import { writeFollowersNotice, writeNotices } from '../../notices/notify.ts';
import { positionInBody, type Position } from '../../../common/positions.ts';
import type { z } from 'zod';
import {
  photoPath,
  qaLimits,
  qaMessages,
  type acceptAnswerInputSchema,
  type Answer,
  type answerInputSchema,
  type askQuestionInputSchema,
  type Author,
  type MyVotes,
  type Question,
  type QuestionChanges,
  type QuestionModule,
  type QuestionPage,
  type RevealedAuthors,
  type SimilarQuestions,
  type VoteValue,
  otherModule,
  telling,
} from '../../../common/qa.ts';
import type { Me } from '../../../common/session.ts';
import { requireUser } from '../../auth/auth.session.ts';
import { withTransaction, type Deps, type Uses } from '../../deps.ts';
import { createForbiddenError, createUnauthenticatedError } from '../../http/errors.ts';
import type { PersonalDataPart } from '../../personal-data.ts';
import { isRecordId } from '../../storage/record-ids.ts';
import {
  createAnswerNotFoundError,
  createIdReusedError,
  createInvalidCursorError,
  createNotAskerError,
  createPhotoNotFoundError,
  createQuestionNotFoundError,
  createRateLimitedError,
  createSignedOutError,
  createNotStaffError,
  createUnknownModuleError,
} from './qa.errors.ts';
import type {
  BoardAnswer,
  BoardPosition,
  BoardQuestion,
  NewPhoto,
  PhotoRef,
  PostAuthor,
  QaRepository,
  QuestionRecord,
  StoredPhoto,
} from './qa.storage.ts';
import { checkPhotos, type CheckedPhoto, type PhotoUpload } from './qa.photos.ts';
import { htmlOf, htmlToStore } from './qa.rendering.ts';

/**
 * The community board (spec §2, §5; DESIGN "Product decisions"): anyone reads; signed-in users ask, answer and
 * vote (one vote each per question); the asker accepts an answer; the admin deletes posts. Every change gives
 * the question a new version and tells every client which question changed. Each change's transaction is
 * begin → reads → stamps → writes (QaRepository says why), so it runs on SQL and on Firestore alike.
 */

const changesPageSize = 100;

/** What the board's reads use: its repository, and the catalogue's for the modules' names. */
type BoardReads = Uses<'qa' | 'catalogue'>;
/** What the board's changes use: its repository in a transaction, the clock, and the notices. */
type BoardWrites = Uses<'qa' | 'notices' | 'catalogue', 'storage' | 'events' | 'clock'>;

// ---------------------------------------------------------------------------------------------------------
// Reading

/** A post whose author's account is gone reads "Deleted user". */
const toAuthor = (author: PostAuthor | null): Author =>
  author ?? { id: null, name: qaMessages.deletedUser, role: null };

const toAnswer = ({ storedHtml, ...answer }: BoardAnswer, photos: string[] = []): Answer => ({
  ...answer,
  html: htmlOf({ text: answer.text, storedHtml }),
  author: toAuthor(answer.author),
  photos,
});

/** The photos' ids of each post: a question's under its id, an answer's under the answer's. */
function photosByPost(refs: readonly PhotoRef[]): Map<string, string[]> {
  const byPost = new Map<string, string[]>();
  for (const ref of refs) {
    const post = ref.answerId ?? ref.questionId;
    byPost.set(post, [...(byPost.get(post) ?? []), ref.id]);
  }
  return byPost;
}

/** Tutors and the admin see who asked an anonymous question, and they alone endorse answers (decision 0062). */
const isStaff = (me: Me | undefined) => me?.role === 'tutor' || me?.role === 'admin';

/** What classmates and visitors see of an anonymous question's author. */
const anonymousAuthor: Author = { id: null, name: qaMessages.anonymousStudent, role: 'student' };

/**
 * Who asked, as `me` may see it (issue 39 §3): an anonymous question reads "Anonymous student" in `author` for
 * everyone, so that no copy kept for every user of a device names anyone; the asker herself (`mine`), tutors and
 * the admin get the real author besides, in `revealed`.
 */
function authorParts(row: BoardQuestion, me: Me | undefined): Pick<Question, 'author' | 'anonymous' | 'revealed'> {
  if (!row.anonymous) return { author: toAuthor(row.author), anonymous: false };
  const mine = me !== undefined && row.author?.id === me.id;
  return {
    author: anonymousAuthor,
    anonymous: true,
    ...((mine || isStaff(me)) && { revealed: { author: toAuthor(row.author), mine } }),
  };
}

/**
 * The asker's own answer on her anonymous question reads "Anonymous student" for everyone, marked `byAsker`: those who
 * may know who asked (the question's `revealed`) know who answered, and nobody else learns it from her answer.
 */
function maskAsker(answer: Answer, question: { anonymous: boolean; askerId: string | null } | undefined): Answer {
  if (!question?.anonymous || answer.author.id === null || answer.author.id !== question.askerId) return answer;
  return { ...answer, author: anonymousAuthor, byAsker: true };
}

/** The modules' names by slug, read only when a question names one (the catalogue is a few dozen rows). */
async function moduleNames(deps: BoardReads, slugs: readonly (string | null)[]): Promise<Map<string, string>> {
  if (!slugs.some((s) => s !== null)) return new Map();
  return new Map((await deps.repos.catalogue.list()).map((m) => [m.slug, m.name]));
}

/** A question's module as the board shows it; one deleted from the catalogue since reads "Other". */
const moduleOf = (names: Map<string, string>, slug: string | null): QuestionModule => {
  const name = slug === null ? undefined : names.get(slug);
  return slug !== null && name !== undefined ? { slug, name } : null;
};

/** The questions with all their answers, their photos and the caller's votes: one query for each, whatever the count. */
async function withAnswersAndVotes(deps: BoardReads, me: Me | undefined, rows: BoardQuestion[]): Promise<Question[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [answers, votes, photos, names] = await Promise.all([
    deps.repos.qa.listAnswers(ids),
    me ? deps.repos.qa.votesOn(me.id, ids) : [],
    deps.repos.qa.listPhotos(ids),
    moduleNames(
      deps,
      rows.map((r) => r.moduleSlug),
    ),
  ]);
  const photosOf = photosByPost(photos);
  const byId = new Map(rows.map((r) => [r.id, { anonymous: r.anonymous, askerId: r.author?.id ?? null }]));
  const answersOf = Map.groupBy(
    answers.map((a) => maskAsker(toAnswer(a, photosOf.get(a.id)), byId.get(a.questionId))),
    (a) => a.questionId,
  );
  const voteOn = new Map(votes.map((v) => [v.questionId, v.value]));
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    text: row.text,
    html: htmlOf(row),
    ...authorParts(row, me),
    module: moduleOf(names, row.moduleSlug),
    createdAt: row.createdAt,
    upvotes: row.upvotes,
    downvotes: row.downvotes,
    acceptedAnswerId: row.acceptedAnswerId,
    photos: photosOf.get(row.id) ?? [],
    answers: answersOf.get(row.id) ?? [],
    myVote: voteOn.get(row.id) ?? 0,
    version: row.version,
  }));
}

/** Lower-cased the same way for the stored column and the query, so both databases find the same rows. */
const toSearchText = (...parts: string[]) => parts.join('\n').toLowerCase();

const encodeCursor = (row: BoardPosition) => Buffer.from(JSON.stringify([row.createdAt, row.id])).toString('base64url');

function decodeCursor(cursor: string): BoardPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    if (Array.isArray(value) && value.length === 2) {
      const [createdAt, id] = value as unknown[];
      // The id is a question's, which the board is ordered by: one no question can have was never sent.
      if (typeof createdAt === 'string' && typeof id === 'string' && isRecordId(id)) return { createdAt, id };
    }
  } catch {
    // Not JSON: refused below like any other cursor this server did not make.
  }
  throw createInvalidCursorError();
}

/**
 * The board, newest first, 20 at a time; `q` keeps questions whose title or text contains it, in any case;
 * `module` those tagged with that module's slug, or `other` with none.
 */
export async function listQuestions(
  deps: BoardReads,
  me: Me | undefined,
  options: { q?: string; cursor?: string; module?: string },
): Promise<QuestionPage> {
  const search = options.q?.trim() ? toSearchText(options.q.trim()) : undefined;
  const after = options.cursor ? decodeCursor(options.cursor) : undefined;
  const moduleSlug = options.module === undefined ? undefined : options.module === otherModule ? null : options.module;
  // One row more than a page says whether another page follows.
  const rows = await deps.repos.qa.listPage({ search, moduleSlug, after, limit: qaLimits.pageSize + 1 });
  const page = rows.slice(0, qaLimits.pageSize);
  const last = page.at(-1);
  return {
    questions: await withAnswersAndVotes(deps, me, page),
    nextCursor: rows.length > page.length && last ? encodeCursor(last) : null,
  };
}

/**
 * The questions most like a title being typed (issue 39 §3), through the board's own search (each engine's index,
 * migration 0010, firestore-layout.md): one search per telling word, ranked by how many of the words each question
 * holds, those in its title first, then the newest. Only titles, modules and answer counts: no author, so an
 * anonymous question stays so.
 */
export async function findSimilarQuestions(deps: BoardReads, title: string): Promise<SimilarQuestions> {
  const words = telling(title);
  if (title.trim().length < qaLimits.similarMinChars || words.length === 0) return { questions: [] };
  const found = new Map<string, { row: BoardQuestion; score: number; inTitle: number }>();
  for (const word of words) {
    for (const row of await deps.repos.qa.listPage({ search: word, limit: 20 })) {
      const entry = found.get(row.id) ?? { row, score: 0, inTitle: 0 };
      entry.score += 1;
      if (row.title.toLowerCase().includes(word)) entry.inTitle += 1;
      found.set(row.id, entry);
    }
  }
  const best = [...found.values()]
    .sort(
      (a, b) =>
        b.score - a.score ||
        b.inTitle - a.inTitle ||
        (a.row.createdAt < b.row.createdAt ? 1 : a.row.createdAt > b.row.createdAt ? -1 : 0),
    )
    .slice(0, qaLimits.similarMax)
    .map((e) => e.row);
  if (best.length === 0) return { questions: [] };
  const [answers, names] = await Promise.all([
    deps.repos.qa.listAnswers(best.map((r) => r.id)),
    moduleNames(
      deps,
      best.map((r) => r.moduleSlug),
    ),
  ]);
  return {
    questions: best.map((row) => ({
      id: row.id,
      title: row.title,
      answerCount: answers.filter((a) => a.questionId === row.id).length,
      module: moduleOf(names, row.moduleSlug),
    })),
  };
}

/** Every question changed after `since`, in version order; deleted ones as ids (see QaRepository). */
export async function listQuestionChanges(
  deps: BoardReads,
  me: Me | undefined,
  since: Position,
): Promise<QuestionChanges> {
  const { questions: page, position, more } = await deps.repos.qa.listChangedSince(since, changesPageSize);
  const live = page.filter((r) => r.deletedAt === null);
  return {
    questions: await withAnswersAndVotes(deps, me, live),
    deleted: page.filter((r) => r.deletedAt !== null).map((r) => r.id),
    version: positionInBody(position),
    more,
  };
}

/** The board's committed position, for `Synced-To` (http/synced-to.ts). */
export const readBoardPosition = ({ repos }: BoardReads) => repos.qa.readPosition();

export async function getQuestion(deps: BoardReads, me: Me | undefined, id: string): Promise<Question> {
  const question = await findQuestion(deps, me, id);
  if (!question) throw createQuestionNotFoundError();
  return question;
}

/** The question with its answers and `me`'s vote; undefined when unknown or deleted. */
export async function findQuestion(deps: BoardReads, me: Me | undefined, id: string): Promise<Question | undefined> {
  const row = await deps.repos.qa.findBoardQuestion(id);
  if (!row || row.deletedAt !== null) return undefined;
  const [question] = await withAnswersAndVotes(deps, me, [row]);
  return question;
}

// ---------------------------------------------------------------------------------------------------------
// Writing

/** `version`: the board's version the change commits at. */
const notify = (tx: Pick<Deps, 'events'>, questionIds: readonly string[], version: number) =>
  tx.events.publish({ table: 'questions', ids: questionIds, audience: 'everyone', version });

/** `requireUser` with the spec's words for the action (spec §5). */
export function requireSignedIn(me: Me | undefined, message: string): Me {
  if (!me) throw createSignedOutError(message);
  return me;
}

async function requireWithinRateLimit(tx: Uses<'qa', 'clock'>, me: Me) {
  const since = new Date(tx.clock.now().getTime() - qaLimits.rateWindowMinutes * 60_000).toISOString();
  if ((await tx.repos.qa.countPostsSince(me.id, since)) >= qaLimits.postsPerWindow) throw createRateLimitedError();
}

/** As the route parses it; a caller in code (the CLI, tests) may leave the module ("Other") and anonymity out. */
type AskInput = Omit<z.output<typeof askQuestionInputSchema>, 'module' | 'anonymous'> &
  Partial<Pick<z.output<typeof askQuestionInputSchema>, 'module' | 'anonymous'>>;

/**
 * A question stored under this id already: the same post sent again (its answer was lost) gets the stored
 * question; anything else under the id is a conflict. Undefined when the id is new.
 */
async function findRepeatedQuestion(
  deps: BoardReads,
  me: Me,
  input: AskInput,
  photos: readonly PhotoUpload[],
): Promise<Question | undefined> {
  const row = await deps.repos.qa.findQuestion(input.id);
  if (!row) {
    await refuseTakenPhotoIds(deps, photos);
    return undefined;
  }
  if (row.userId !== me.id || row.title !== input.title || row.text !== input.text) throw createIdReusedError();
  if (row.deletedAt !== null) throw createQuestionNotFoundError();
  const question = await getQuestion(deps, me, input.id);
  if (!samePhotos(question.photos ?? [], photos)) throw createIdReusedError();
  return question;
}

/** Whether a post sent again brings the photos it was stored with (by their ids: the bytes were checked then). */
const samePhotos = (stored: readonly string[], sent: readonly PhotoUpload[]) =>
  stored.length === sent.length && stored.every((id, i) => sent[i]!.id === id);

/** A photo's id is the client's, as a post's is: one another post holds already is refused as reused. */
async function refuseTakenPhotoIds(deps: BoardReads, photos: readonly PhotoUpload[]) {
  for (const photo of photos)
    if (!isRecordId(photo.id) || (await deps.repos.qa.findPhoto(photo.id, 'thumb'))) throw createIdReusedError();
}

/** The post's checked photos as stored, in its transaction. */
const newPhotos = (
  photos: readonly CheckedPhoto[],
  post: { questionId: string; answerId: string | null; userId: string; createdAt: string },
): NewPhoto[] => photos.map((photo, position) => ({ ...post, ...photo, id: photo.id, position }));

/** Posts a question, exactly once per client id: `created` is false when it was stored before. */
export async function askQuestion(
  deps: BoardWrites,
  me: Me | undefined,
  input: AskInput,
  uploads: readonly PhotoUpload[] = [],
): Promise<{ question: Question; created: boolean }> {
  const asker = requireSignedIn(me, qaMessages.askSignedOut);
  const photos = checkPhotos(uploads);
  const moduleSlug = input.module ?? null;
  const anonymous = input.anonymous ?? false;
  const names = await moduleNames(deps, [moduleSlug]);
  if (moduleSlug !== null && !names.has(moduleSlug)) throw createUnknownModuleError();
  // A repeat is answered before the rate limit (it posts nothing) and without waiting for the board's lock.
  const before = await findRepeatedQuestion(deps, asker, input, photos);
  if (before) return { question: before, created: false };
  // Rendered once, here, before the board's lock: readers are sent it as kept (decision 0064).
  const storedHtml = htmlToStore(input.text);
  // The question as inserted (no answers or votes yet), so no read after the commit.
  const created = await withTransaction(deps, async (tx): Promise<Question | undefined> => {
    await tx.repos.qa.beginChanges();
    // Checked again in the transaction: the same post on another connection may have just committed.
    if (await tx.repos.qa.findQuestion(input.id)) return undefined;
    await requireWithinRateLimit(tx, asker);
    const [stamp] = await tx.repos.qa.takeStamps(1);
    const { version } = stamp!;
    const createdAt = tx.clock.now().toISOString();
    await tx.repos.qa.insertQuestion({
      id: input.id,
      userId: asker.id,
      title: input.title,
      text: input.text,
      searchText: toSearchText(input.title, input.text),
      moduleSlug,
      anonymous,
      storedHtml,
      createdAt,
      stamp: stamp!,
    });
    await tx.repos.qa.insertPhotos(
      newPhotos(photos, { questionId: input.id, answerId: null, userId: asker.id, createdAt }),
    );
    // The asker hears of every answer (issue 38): she follows her question from the start.
    await tx.repos.notices.follow(questionTopic(input.id), asker.id, tx.clock.now());
    notify(tx, [input.id], version);
    const author = { id: asker.id, name: asker.name, role: asker.role };
    return {
      id: input.id,
      title: input.title,
      text: input.text,
      html: htmlOf({ text: input.text, storedHtml }),
      ...authorParts({ author, anonymous } as BoardQuestion, asker),
      module: moduleOf(names, moduleSlug),
      createdAt,
      upvotes: 0,
      downvotes: 0,
      acceptedAnswerId: null,
      photos: photos.map((p) => p.id),
      answers: [],
      myVote: 0,
      version,
    };
  });
  if (created) return { question: created, created: true };
  return { question: (await findRepeatedQuestion(deps, asker, input, photos))!, created: false };
}

type AnswerInput = z.output<typeof answerInputSchema>;

/** As `findRepeatedQuestion`, for an answer: also a conflict when the id was used on another question. */
async function findRepeatedAnswer(
  deps: BoardReads,
  me: Me,
  questionId: string,
  input: AnswerInput,
  photos: readonly PhotoUpload[],
): Promise<Answer | undefined> {
  const row = await deps.repos.qa.findBoardAnswer(input.id);
  if (!row) {
    await refuseTakenPhotoIds(deps, photos);
    return undefined;
  }
  if (row.author?.id !== me.id || row.questionId !== questionId || row.text !== input.text) throw createIdReusedError();
  const question = await deps.repos.qa.findQuestion(questionId);
  if (question?.deletedAt !== null) throw createQuestionNotFoundError();
  const stored = (await deps.repos.qa.listPhotos([questionId])).filter((p) => p.answerId === input.id);
  const answer = maskAsker(
    toAnswer(
      row,
      stored.map((p) => p.id),
    ),
    question && { anonymous: question.anonymous, askerId: question.userId },
  );
  if (!samePhotos(answer.photos ?? [], photos)) throw createIdReusedError();
  return answer;
}

/** Posts an answer, exactly once per client id, to a question that still exists. */
export async function answerQuestion(
  deps: BoardWrites,
  me: Me | undefined,
  questionId: string,
  input: AnswerInput,
  uploads: readonly PhotoUpload[] = [],
): Promise<{ answer: Answer; created: boolean }> {
  const author = requireSignedIn(me, qaMessages.answerSignedOut);
  const photos = checkPhotos(uploads);
  const before = await findRepeatedAnswer(deps, author, questionId, input, photos);
  if (before) return { answer: before, created: false };
  const storedHtml = htmlToStore(input.text);
  const created = await withTransaction(deps, async (tx) => {
    await tx.repos.qa.beginChanges();
    if (await tx.repos.qa.findAnswer(input.id)) return false;
    const question = await requireLiveQuestion(tx, questionId);
    await requireWithinRateLimit(tx, author);
    const stamp = await stampFor(tx, question);
    const createdAt = tx.clock.now().toISOString();
    // The asker answering her own anonymous question stays anonymous to its followers too.
    const answererName =
      question.anonymous && question.userId === author.id ? qaMessages.anonymousStudent : author.name;
    await tx.repos.qa.insertAnswer({
      id: input.id,
      questionId,
      userId: author.id,
      text: input.text,
      storedHtml,
      createdAt,
    });
    await tx.repos.qa.insertPhotos(newPhotos(photos, { questionId, answerId: input.id, userId: author.id, createdAt }));
    await tx.repos.qa.setVersion(questionId, stamp);
    await writeFollowersNotice(tx, {
      topic: questionTopic(questionId),
      exceptUserId: author.id,
      kind: 'question-answered',
      title: `New answer: ${question.title}`,
      body: `${answererName} answered: ${excerpt(input.text)}`,
      path: `/qa/${questionId}`,
      params: { author: answererName, question: question.title },
    });
    notify(tx, [questionId], stamp.version);
    return true;
  });
  const answer = await findRepeatedAnswer(deps, author, questionId, input, photos);
  // Deleted by the admin between the commit and this read.
  if (!answer) throw createAnswerNotFoundError();
  return { answer, created };
}

async function requireLiveQuestion(tx: Uses<'qa'>, questionId: string) {
  const question = await tx.repos.qa.findQuestion(questionId);
  if (!question || question.deletedAt !== null) throw createQuestionNotFoundError();
  return question;
}

/** The stamp of a change to `question` (read in this transaction): after every read, before any write. */
async function stampFor(tx: Uses<'qa'>, question: QuestionRecord) {
  const [stamp] = await tx.repos.qa.takeStamps(1, [question.version]);
  return stamp!;
}

/** Sets the user's vote (1 up, -1 down, 0 none): sending it twice changes nothing. */
export async function voteOnQuestion(
  deps: BoardWrites,
  me: Me | undefined,
  questionId: string,
  value: VoteValue,
): Promise<Question> {
  const voter = requireSignedIn(me, qaMessages.voteSignedOut);
  await withTransaction(deps, async (tx) => {
    await tx.repos.qa.beginChanges();
    const question = await requireLiveQuestion(tx, questionId);
    const before = await tx.repos.qa.findVote(questionId, voter.id);
    const stamp = await stampFor(tx, question);
    await tx.repos.qa.setVote(questionId, voter.id, value, before);
    await tx.repos.qa.setVersion(questionId, stamp);
    notify(tx, [questionId], stamp.version);
  });
  return getQuestion(deps, voter, questionId);
}

/** The asker marks one answer to their question as the one that helped, or none (null). */
export async function acceptAnswer(
  deps: BoardWrites,
  me: Me | undefined,
  questionId: string,
  input: z.output<typeof acceptAnswerInputSchema>,
): Promise<Question> {
  if (!me) throw createUnauthenticatedError();
  await withTransaction(deps, async (tx) => {
    await tx.repos.qa.beginChanges();
    const question = await requireLiveQuestion(tx, questionId);
    if (question.userId !== me.id) throw createNotAskerError();
    const answer = input.answerId === null ? undefined : await tx.repos.qa.findAnswer(input.answerId);
    if (input.answerId !== null && answer?.questionId !== questionId) throw createAnswerNotFoundError();
    const stamp = await stampFor(tx, question);
    await tx.repos.qa.setAcceptedAnswer(questionId, input.answerId);
    await tx.repos.qa.setVersion(questionId, stamp);
    if (answer?.userId && question.acceptedAnswerId !== answer.id)
      await writeNotices(
        tx,
        [
          {
            userId: answer.userId,
            kind: 'answer-accepted',
            title: 'Your answer was accepted',
            // An anonymous asker stays so to the answerer, who may be a classmate.
            body: `${question.anonymous ? 'The person who asked' : me.name} marked your answer to “${question.title}” as the one that helped.`,
            path: `/qa/${questionId}`,
            params: { question: question.title },
          },
        ],
        me.id,
      );
    notify(tx, [questionId], stamp.version);
  });
  return getQuestion(deps, me, questionId);
}

/**
 * A tutor or the admin endorses an answer ("Endorsed by a tutor"), or withdraws the endorsement; apart from the
 * asker's accepted answer. Any tutor may: the board is shared by every category, and tutors answer across it
 * (decision 0062). Its author hears of it, with the endorser's name (staff are named on the board anyway).
 */
export async function endorseAnswer(
  deps: BoardWrites,
  me: Me | undefined,
  questionId: string,
  answerId: string,
  endorsed: boolean,
): Promise<Question> {
  if (!me) throw createUnauthenticatedError();
  if (!isStaff(me)) throw createNotStaffError();
  await withTransaction(deps, async (tx) => {
    await tx.repos.qa.beginChanges();
    const question = await requireLiveQuestion(tx, questionId);
    const answer = await tx.repos.qa.findAnswer(answerId);
    if (answer?.questionId !== questionId) throw createAnswerNotFoundError();
    if (answer.endorsed === endorsed) return;
    const stamp = await stampFor(tx, question);
    const at = tx.clock.now().toISOString();
    await tx.repos.qa.setEndorsement(answerId, endorsed ? { userId: me.id, at } : null);
    await tx.repos.qa.setVersion(questionId, stamp);
    if (endorsed && answer.userId)
      await writeNotices(
        tx,
        [
          {
            userId: answer.userId,
            kind: 'answer-endorsed',
            title: 'Your answer was endorsed',
            body: `${me.name} endorsed your answer to “${question.title}”.`,
            path: `/qa/${questionId}`,
            params: { question: question.title, endorser: me.name },
          },
        ],
        me.id,
      );
    notify(tx, [questionId], stamp.version);
  });
  return getQuestion(deps, me, questionId);
}

function requireAdmin(me: Me | undefined): Me {
  if (!me) throw createUnauthenticatedError();
  if (me.role !== 'admin') throw createForbiddenError();
  return me;
}

/** The admin removes a question (spam, abuse). It stays as a tombstone so every client learns it went. */
export async function deleteQuestion(deps: BoardWrites, me: Me | undefined, questionId: string): Promise<void> {
  requireAdmin(me);
  await withTransaction(deps, async (tx) => {
    await tx.repos.qa.beginChanges();
    const question = await requireLiveQuestion(tx, questionId);
    // Its photos and its answers' go with it (privacy): a tombstone keeps no bytes.
    const photos = await tx.repos.qa.listPhotos([questionId]);
    const stamp = await stampFor(tx, question);
    await tx.repos.qa.markQuestionDeleted(questionId, tx.clock.now().toISOString());
    await tx.repos.qa.deletePhotos(photos);
    await tx.repos.qa.setVersion(questionId, stamp);
    notify(tx, [questionId], stamp.version);
  });
}

/** The admin removes one answer; its question gets a new version, which is how clients learn it went. */
export async function deleteAnswer(
  deps: BoardWrites,
  me: Me | undefined,
  questionId: string,
  answerId: string,
): Promise<void> {
  requireAdmin(me);
  await withTransaction(deps, async (tx) => {
    await tx.repos.qa.beginChanges();
    const question = await requireLiveQuestion(tx, questionId);
    if ((await tx.repos.qa.findAnswer(answerId))?.questionId !== questionId) throw createAnswerNotFoundError();
    const photos = (await tx.repos.qa.listPhotos([questionId])).filter((p) => p.answerId === answerId);
    const stamp = await stampFor(tx, question);
    await tx.repos.qa.deletePhotos(photos);
    await tx.repos.qa.deleteAnswer(question, answerId);
    await tx.repos.qa.setVersion(questionId, stamp);
    notify(tx, [questionId], stamp.version);
  });
}

// ---------------------------------------------------------------------------------------------------------
// The user's part of the data export and of account deletion

/** Ids per notice when one change touches many questions: a notice stays far under NOTIFY's 8,000 bytes. */
const idsPerNotice = 100;

/**
 * The authors of the anonymous questions the user may see the name of (tutors and the admin: all; a student: her
 * own), for a device that has just logged in and holds the board as a visitor saw it.
 */
export async function listRevealedAuthors(deps: BoardReads, me: Me | undefined): Promise<RevealedAuthors> {
  const reader = requireUser(me);
  const rows = await deps.repos.qa.listAnonymous(isStaff(reader) ? undefined : reader.id);
  return {
    revealed: rows
      .map((row) => ({ questionId: row.id, author: toAuthor(row.author), mine: row.author?.id === reader.id }))
      .sort((a, b) => (a.questionId < b.questionId ? -1 : a.questionId > b.questionId ? 1 : 0)),
  };
}

/** The user's own votes, for a device that has just logged in. */
export async function listMyVotes(deps: BoardReads, me: Me | undefined): Promise<MyVotes> {
  const voter = requireUser(me);
  return { votes: await deps.repos.qa.listVotesBy(voter.id) };
}

export const qaPersonalData: PersonalDataPart = {
  async exportFor(deps, me) {
    const [questions, answers, votes, photos] = await Promise.all([
      deps.repos.qa.listQuestionsBy(me.id),
      deps.repos.qa.listAnswersBy(me.id),
      deps.repos.qa.listVotesBy(me.id),
      deps.repos.qa.listPhotosBy(me.id),
    ]);
    return { questions, answers, votes, photos: photos.map((p) => ({ ...p, url: photoPath(p.id) })) };
  },

  /**
   * Votes go (and the counts with them), and the photos they posted (privacy: a photo of someone's working may
   * show their handwriting or more); questions and answers stay without an author, and read "Deleted user". Every question that changes that way gets a new version here, in the deletion's transaction, so
   * clients refresh its counts and authors.
   */
  async eraseFor(tx, userId) {
    const { qa } = tx.repos;
    await qa.beginChanges();
    // Reads first, then stamps, then writes.
    const posts = await qa.listPostsBy(userId);
    const votes = await qa.listVotesBy(userId);
    const photos = await qa.listPhotosBy(userId);
    const posted = [...posts.questionIds, ...posts.answers.map((a) => a.questionId)];
    const touched = [...new Set([...votes.map((v) => v.questionId), ...posted])].sort();
    if (touched.length === 0) {
      // Nothing of theirs on the board; what counts their posts for the rate limit goes all the same.
      await qa.forgetAuthor(userId, posts);
      return;
    }
    const stamps = await qa.takeStamps(touched.length, await qa.versionsOf(touched));
    await qa.deletePhotos(photos);
    await qa.withdrawVotes(userId, votes);
    await qa.forgetAuthor(userId, posts);
    for (const [i, id] of touched.entries()) await qa.setVersion(id, stamps[i]!);
    // Each notice says the last version set here: the deletion commits all of them at once.
    const last = Math.max(...stamps.map((s) => s.version));
    for (let i = 0; i < touched.length; i += idsPerNotice) notify(tx, touched.slice(i, i + idsPerNotice), last);
  },

  /**
   * The board reads authors' names from their accounts, so a rename changes no post. But a device that holds
   * the board asks only for questions changed since its last pull, and kept the old name on the author's
   * posts, even through a reload. Every question the user asked or answered gets a new version, in the
   * rename's transaction, so every device pulls it again with the new name (docs/decisions/0025, as
   * bookings do). Their votes name nobody: those questions stay as they are.
   */
  async renameFor(tx, userId) {
    const { qa } = tx.repos;
    // First, even with nothing to change: a post committing meanwhile is either read here or waits for
    // the rename, and then reads the new name (SQL; on Firestore the reads guard it).
    await qa.beginChanges();
    const restamped = await restampPostsOf(qa, [userId]);
    if (!restamped) return;
    const { ids, last } = restamped;
    for (let i = 0; i < ids.length; i += idsPerNotice) notify(tx, ids.slice(i, i + idsPerNotice), last);
  },
};

/**
 * Every question the users asked or answered at a new version, as a rename needs (`renameFor`, and the Firebase
 * import's renames): the questions' ids, sorted, and the last version set; undefined when they posted nothing.
 */
export async function restampPostsOf(qa: QaRepository, userIds: Iterable<string>) {
  const touched = new Set<string>();
  for (const userId of userIds) {
    const posts = await qa.listPostsBy(userId);
    for (const id of posts.questionIds) touched.add(id);
    for (const answer of posts.answers) touched.add(answer.questionId);
  }
  const ids = [...touched].sort();
  if (ids.length === 0) return undefined;
  const stamps = await qa.takeStamps(ids.length, await qa.versionsOf(ids));
  for (const [i, id] of ids.entries()) await qa.setVersion(id, stamps[i]!);
  return { ids, last: Math.max(...stamps.map((s) => s.version)) };
}

/** An answer's start, for a notice: its first line, at most 140 characters. */
function excerpt(text: string): string {
  const line = text.trim().split('\n')[0]!.trim();
  return line.length <= 140 ? line : `${line.slice(0, 139).trimEnd()}…`;
}

/** Whether the user follows the question (hears of its answers). */
export async function getFollowing(
  { repos }: Uses<'qa' | 'notices'>,
  me: Me | undefined,
  questionId: string,
): Promise<{ following: boolean }> {
  if (!me) throw createUnauthenticatedError();
  await requireLiveQuestion({ repos }, questionId);
  return { following: await repos.notices.isFollowing(questionTopic(questionId), me.id) };
}

/** Follows the question, or stops following it: sending it twice changes nothing. */
export async function setFollowing(
  { repos, clock }: Uses<'qa' | 'notices', 'clock'>,
  me: Me | undefined,
  questionId: string,
  following: boolean,
): Promise<{ following: boolean }> {
  if (!me) throw createUnauthenticatedError();
  await requireLiveQuestion({ repos }, questionId);
  if (following) await repos.notices.follow(questionTopic(questionId), me.id, clock.now());
  else await repos.notices.unfollow(questionTopic(questionId), me.id);
  return { following };
}

/**
 * One size of a photo, for whoever may see its post: anyone, while the question stands (and the answer, for an
 * answer's photo). The photo goes with its post, so this refuses only what a race or a wrong id could ask for; it
 * checks all the same, so a photo never outlives what may show it.
 */
export async function readPhoto(deps: BoardReads, id: string, size: 'full' | 'thumb'): Promise<StoredPhoto> {
  const photo = isRecordId(id) ? await deps.repos.qa.findPhoto(id, size) : undefined;
  if (!photo) throw createPhotoNotFoundError();
  const question = await deps.repos.qa.findQuestion(photo.questionId);
  if (!question || question.deletedAt !== null) throw createPhotoNotFoundError();
  if (photo.answerId !== null && (await deps.repos.qa.findAnswer(photo.answerId))?.questionId !== photo.questionId)
    throw createPhotoNotFoundError();
  return photo;
}
